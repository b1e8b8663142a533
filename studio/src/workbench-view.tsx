import { useEffect, useState } from 'preact/hooks';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';
import { ChatPanel } from './chat-panel.js';
import { StartRunPanel } from './start-run-panel.js';
import { startingProps } from './starting-props.js';
import { TryToolPanel } from './try-tool-panel.js';
import { workflowHref } from './use-hash-route.js';

/**
 * One workflow's workbench (`#/workbench/<id>`): start a run of it, try one of its tools, and
 * chat with it when it takes messages. Reads the workflow from `GET api/workflows/<id>`.
 */
export function WorkbenchView(props: {
  workflowId: string;
  /** The tool the map's Try button picked, for the tool dialog. */
  tool?: { agent: string; tool: string };
}) {
  const [entry, setEntry] = useState<WorkflowEntry | Error | undefined>();
  // the props the run starts with and the tried tool's tree resolves with
  const [values, setValues] = useState<Record<string, unknown> | Error>({});
  useEffect(() => {
    fetch(`api/workflows/${encodeURIComponent(props.workflowId)}`, { cache: 'no-store' })
      .then(async (response) => {
        const body = (await response.json()) as WorkflowEntry & { error?: string };
        setEntry(response.ok ? body : new Error(body.error ?? `HTTP ${response.status}`));
        if (response.ok) setValues(startingProps(body));
      })
      .catch((error: Error) => setEntry(error));
  }, [props.workflowId]);
  if (entry === undefined) return <p class="wb-note">Loading {props.workflowId}…</p>;
  if (entry instanceof Error)
    return (
      <p class="wb-error" role="alert">
        {entry.message}
      </p>
    );
  return (
    <main class="wb-page" data-testid="workbench">
      <header class="wb-head">
        <h1 class="wb-name">{entry.name}</h1>
        <code class="wb-id">{entry.id}</code>
        <a class="wb-map-link small" href={workflowHref(entry.id)} data-testid="open-map">
          capability map
        </a>
        {entry.error && (
          <p class="wb-error" role="alert">
            {entry.error.message}
          </p>
        )}
      </header>
      <div class="wb-panels">
        <StartRunPanel workflow={entry} values={values} onValues={setValues} />
        <TryToolPanel
          workflow={entry}
          props={values instanceof Error ? entry.props : values}
          {...(props.tool ?? {})}
        />
        {entry.takesMessages && <ChatPanel workflow={entry} />}
      </div>
    </main>
  );
}
