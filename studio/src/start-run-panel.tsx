import { useState } from 'preact/hooks';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';
import { ModelChoiceField, modelChoiceOf, type ModelChoiceDraft } from './model-choice-field.js';
import { noScriptHint, proposedScript } from './proposed-script.js';
import { PropsField } from './props-field.js';
import { runHref } from './use-hash-route.js';
import { startRun } from './workbench-api.js';

/**
 * Starts a run of one workflow: its props (a form from its props schema, or JSON), how the
 * model answers, and Start; the page then follows the run live in its run view, where its
 * approvals are answered. A refused start shows Studio's `june:` message.
 */
export function StartRunPanel(props: {
  workflow: WorkflowEntry;
  /** The props, as the page's props form holds them (or its JSON's parse error). */
  values: Record<string, unknown> | Error;
  onValues(values: Record<string, unknown> | Error): void;
}) {
  const { workflow, values } = props;
  const script = proposedScript(workflow, 'run');
  const [model, setModel] = useState<ModelChoiceDraft>({
    kind: script === undefined ? 'provider' : 'script',
    path: script ?? '',
    runId: '',
  });
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  const start = async (event: Event) => {
    event.preventDefault();
    if (values instanceof Error) return setState({ error: values.message });
    setState({ busy: true });
    try {
      const { runId } = await startRun(workflow.id, values, modelChoiceOf(model));
      location.hash = runHref(runId);
    } catch (error) {
      setState({ error: (error as Error).message });
    }
  };
  return (
    <form class="wb-panel" data-testid="start-run" onSubmit={start}>
      <h2 class="wb-title">Start a run</h2>
      <PropsField
        schema={workflow.propsSchema}
        value={values instanceof Error ? workflow.props : values}
        onChange={props.onValues}
      />
      <ModelChoiceField value={model} onChange={setModel} />
      {script === undefined && model.kind === 'provider' && (
        <p class="wb-note" data-testid="no-script">
          {noScriptHint(workflow, 'run')}
        </p>
      )}
      {state.error && (
        <p class="wb-error" role="alert" data-testid="start-error">
          {state.error}
        </p>
      )}
      <button class="wb-button" type="submit" disabled={state.busy === true}>
        {state.busy ? 'Starting…' : 'Start'}
      </button>
    </form>
  );
}
