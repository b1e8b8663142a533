import { useEffect, useState } from 'preact/hooks';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';
import { fetchWorkflows, listenToWorkflows } from './workbench-client.js';

/** The workbench's workflows, followed live; `available` is false on a Studio without them. */
export interface LiveWorkflows {
  available: boolean | undefined;
  root?: string;
  workflows: Map<string, WorkflowEntry>;
  error?: string;
}

/**
 * The project's workflows (`june dev`): loaded once, then each `workflow` event replaces one
 * (a save), each `workflow-removed` drops one; on every reconnection the list is loaded again.
 * `served` is what the run list says of this Studio (`RunList.workflows`): nothing is asked
 * before it is known, nor on a Studio without workflows (plain `june studio`).
 */
export function useWorkflows(served: boolean | undefined): LiveWorkflows {
  const [state, setState] = useState<LiveWorkflows>({ available: undefined, workflows: new Map() });
  useEffect(() => {
    if (served === undefined) return;
    if (!served) return setState({ available: false, workflows: new Map() });
    let stop: (() => void) | undefined;
    let closed = false;
    const load = () =>
      fetchWorkflows().then(
        (list) => {
          if (closed) return;
          if (!list) return setState({ available: false, workflows: new Map() });
          setState({
            available: true,
            root: list.root,
            workflows: new Map(list.workflows.map((entry) => [entry.id, entry])),
          });
          stop ??= listenToWorkflows({
            onOpen: () => void load(),
            onEvent: (event) =>
              setState((current) => {
                const workflows = new Map(current.workflows);
                if (event.type === 'workflow') workflows.set(event.workflow.id, event.workflow);
                else workflows.delete(event.id);
                return { ...current, workflows };
              }),
          });
        },
        (error: Error) => !closed && setState((current) => ({ ...current, error: error.message })),
      );
    void load();
    return () => {
      closed = true;
      stop?.();
    };
  }, [served]);
  return state;
}
