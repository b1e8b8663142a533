import './workbench.css';
import { useEffect, useState } from 'preact/hooks';
import type { WorkflowEntry, WorkflowProblem } from '../../src/workflows/workbench-api.js';
import { rerunOffer, type RerunOffer } from '../../src/host/rerun-offer.js';
import type { TraceStatus } from '../../src/trace/trace-node.js';
import { fetchTrace } from './api.js';
import { CapabilityMap, type TryToolTarget } from './capability-map.js';
import { connectedTools, type ConnectedTools } from './connected-tools.js';
import { PropsForm } from './props-form.js';
import { runHref, workbenchHref, workflowHref } from './use-hash-route.js';
import type { LiveWorkflows } from './use-workflows.js';
import { fetchWorkflow } from './workbench-client.js';

/** A workflow's newest run and its state as the runs list shows it. */
export interface LastRun {
  runId: string;
  status: TraceStatus;
  /** Calls a stopped (`aborted`) run still has unanswered: answering one resumes it. */
  pendingApprovals: number;
}

/** What a workflow page can start again: its last run, for the props set in the page. */
export interface RerunTarget {
  workflowId: string;
  runId: string;
  props: Record<string, unknown>;
}

export interface WorkflowsViewProps {
  live: LiveWorkflows;
  /** The workflow shown (its id), else the first. */
  selected: string | undefined;
  /** The newest run of each workflow (by the trace's `workflow`, which is its path), for "Re-run". */
  lastRuns: ReadonlyMap<string, LastRun>;
  onTryTool?(target: TryToolTarget): void;
  /** Starts the last run again (see `rerun`); without it the button is not shown. */
  onRerun?(target: RerunTarget): Promise<void>;
}

/** `june dev`'s workflows: the list, and the chosen one's capability map (or why it is broken). */
export function WorkflowsView(props: WorkflowsViewProps) {
  const { live, lastRuns } = props;
  if (live.error && live.workflows.size === 0)
    return <p class="notice notice-error">Studio could not list the workflows: {live.error}</p>;
  const entries = [...live.workflows.values()].sort((a, b) => a.id.localeCompare(b.id));
  if (entries.length === 0)
    return (
      <div class="empty">
        <h2>No workflows found</h2>
        <p>
          <code>june dev</code> shows the <code>.tsx</code> files of {live.root ?? 'the project'}{' '}
          whose default export is a component. Add one and it appears here.
        </p>
      </div>
    );
  const shown = live.workflows.get(props.selected ?? '') ?? entries[0]!;
  return (
    <main class="workbench">
      <nav class="workflow-list" data-testid="workflows">
        {entries.map((entry) => (
          <a
            key={entry.id}
            href={workflowHref(entry.id)}
            class={`workflow-item${entry.id === shown.id ? ' workflow-selected' : ''}`}
            data-workflow={entry.id}
            data-status={entry.status}
          >
            <span class="workflow-name" title={entry.name}>
              {entry.name}
            </span>
            <span class="workflow-path mono small muted" title={entry.id}>
              {entry.id}
            </span>
            {entry.status === 'broken' && <span class="badge-failures">broken</span>}
          </a>
        ))}
      </nav>
      <WorkflowPage
        key={shown.id}
        entry={shown}
        root={live.root}
        lastRun={lastRuns.get(shown.id)}
        onTryTool={props.onTryTool}
        onRerun={props.onRerun}
      />
    </main>
  );
}

/** One workflow: its props, its map for them (resolved again when they change or the file is saved). */
function WorkflowPage(props: {
  entry: WorkflowEntry;
  root: string | undefined;
  lastRun: LastRun | undefined;
  onTryTool?(target: TryToolTarget): void;
  onRerun?(target: RerunTarget): Promise<void>;
}) {
  const { entry, root, onTryTool, onRerun } = props;
  const lastRun = props.lastRun?.runId;
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [resolved, setResolved] = useState<WorkflowEntry>();
  const [problem, setProblem] = useState<string>();
  const withProps = Object.keys(values).length > 0;
  useEffect(() => {
    if (!withProps) return setResolved(undefined);
    let current = true;
    fetchWorkflow(entry.id, values).then(
      (found) => current && (setResolved(found), setProblem(undefined)),
      (error: Error) => current && setProblem(error.message),
    );
    return () => {
      current = false;
    };
  }, [entry, values]);
  const shown = withProps && resolved ? resolved : entry;
  const connected = useConnectedTools(shown, lastRun);
  return (
    <section
      class="workflow-page"
      data-testid="workflow"
      data-workflow={entry.id}
      data-status={shown.status}
    >
      <WorkflowHead
        entry={entry}
        lastRun={props.lastRun}
        onRerun={onRerun && ((target) => onRerun({ ...target, props: values }))}
      />
      <div class="workflow-props">
        <span class="muted small">props</span>
        <PropsForm schema={entry.propsSchema} value={values} onChange={setValues} />
      </div>
      {problem && <p class="notice notice-error">{problem}</p>}
      {shown.status === 'broken' && shown.error && <WorkflowError error={shown.error} />}
      {shown.map && (
        <CapabilityMap
          workflowId={entry.id}
          map={shown.map}
          root={root}
          onTryTool={onTryTool}
          connected={connected}
          connectedRun={lastRun}
        />
      )}
    </section>
  );
}

function WorkflowHead(props: {
  entry: WorkflowEntry;
  lastRun: LastRun | undefined;
  onRerun?: ((target: Omit<RerunTarget, 'props'>) => Promise<void>) | undefined;
}) {
  const { entry, lastRun, onRerun } = props;
  const [problem, setProblem] = useState<string>();
  const again = (runId: string) =>
    void onRerun?.({ workflowId: entry.id, runId }).then(
      () => setProblem(undefined),
      (error: Error) => setProblem(error.message),
    );
  // Re-run only replays a complete recording; otherwise the page says why, and what to do
  const offer = lastRun && rerunOffer(lastRun.runId, lastRun.status, lastRun.pendingApprovals);
  return (
    <header class="workflow-head">
      <h2>{entry.name}</h2>
      <span class="mono muted">{entry.id}</span>
      {lastRun && offer && (
        <LastRunLine lastRun={lastRun} offer={offer} onRerun={onRerun && again} />
      )}
      <a
        href={workbenchHref(entry.id)}
        class="workflow-workbench-link small"
        data-testid="open-workbench"
        title={`Start a run, try a tool${entry.takesMessages ? ', chat' : ''}`}
      >
        {entry.takesMessages ? 'Start a run · Chat' : 'Start a run'}
      </a>
      {offer && offer.kind !== 'rerun' && (
        <p class="small muted" data-testid="rerun-why">
          {offer.why}
        </p>
      )}
      {problem && (
        <p class="notice-error small" data-testid="rerun-error">
          {problem}
        </p>
      )}
    </header>
  );
}

/** The last run's id, and what it offers: Re-run, or the way to answer it. */
function LastRunLine(props: {
  lastRun: LastRun;
  offer: RerunOffer;
  onRerun: ((runId: string) => void) | undefined;
}) {
  const { lastRun, offer, onRerun } = props;
  return (
    <span class="workflow-last-run small" data-status={lastRun.status}>
      last run{' '}
      <a href={runHref(lastRun.runId)} class="mono">
        {lastRun.runId}
      </a>
      {onRerun && offer.kind === 'rerun' && (
        <button
          type="button"
          data-testid="rerun"
          title="Replay its model answers and tool results through the code as it is now; no tool runs"
          onClick={() => onRerun(lastRun.runId)}
        >
          Re-run
        </button>
      )}
      {offer.kind === 'answer' && (
        <a href={runHref(lastRun.runId)} data-testid="rerun-answer" title={offer.why}>
          Answer or resume it
        </a>
      )}
    </span>
  );
}

/** Why a workflow does not load or resolve: its `june:` message and the declaration it names. */
function WorkflowError({ error }: { error: WorkflowProblem }) {
  return (
    <div class="workflow-error" data-testid="workflow-error" data-code={error.code}>
      <p class="mono">{error.message}</p>
      {error.declaration && (
        <p class="small">
          declared at <span class="mono">{error.declaration}</span>
        </p>
      )}
    </div>
  );
}

/**
 * The tools the workflow's last run connected from its tool sources, when its map has any
 * (fetched once per run and per map).
 */
function useConnectedTools(entry: WorkflowEntry, runId: string | undefined) {
  const [connected, setConnected] = useState<ConnectedTools>();
  const hasSources = entry.map?.agents.some((agent) => agent.toolSources?.length) ?? false;
  useEffect(() => {
    if (!hasSources || runId === undefined) return setConnected(undefined);
    let current = true;
    void fetchTrace(runId).then((found) => {
      if (current && 'trace' in found) setConnected(connectedTools(found.trace.root));
    });
    return () => {
      current = false;
    };
  }, [hasSources, runId]);
  return connected;
}
