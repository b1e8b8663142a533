import { useMemo } from 'preact/hooks';
import { isUnreadable, type RunList, type RunListEntry } from '../../src/host/run-list.js';
import { ApprovalsPanel } from './approvals-panel.js';
import type { Trace } from '../../src/trace/trace-node.js';
import { ForkLineage } from './fork-compare.js';
import { Inspector } from './inspector.js';
import { MismatchBanner } from './mismatch-banner.js';
import { RunFacts, RunHeader } from './run-header.js';
import { RunToolbar } from './run-toolbar.js';
import { TimelineView } from './timeline-view.js';
import { buildTraceTree, type TraceTree } from './trace-tree.js';
import { TreeHead } from './tree-head.js';
import { TreeView } from './tree-view.js';
import { useNow } from './use-now.js';
import { useRunFilters } from './use-run-filters.js';
import { useTrace, type TraceState } from './use-trace.js';
import { useTreeState } from './use-tree-state.js';

/** One run: its tree or timeline on the left, the selected node in the inspector on the right. Follows a running run live. */
export function RunView({
  runId,
  entry,
  forks,
}: {
  runId: string;
  entry: RunListEntry | undefined;
  /** Whether this Studio forks runs (`RunList.forks`): "Fork from here" shows only then. */
  forks?: RunList['forks'];
}) {
  const loaded = useTrace(runId, entry?.updatedAt);
  const built = useMemo(() => buildSafely(loaded.trace), [loaded.trace]);
  const tree = built.tree;
  const trace = tree ? loaded.trace : undefined;
  const error = built.error ?? loaded.error;
  if (!trace || !tree)
    return <RunNotice runId={runId} loaded={loaded} error={error} entry={entry} />;
  return <LoadedRun runId={runId} trace={trace} tree={tree} error={error} forks={forks} />;
}

/** A run whose trace is on screen. */
function LoadedRun(props: {
  runId: string;
  trace: Trace;
  tree: TraceTree;
  error?: string;
  forks?: RunList['forks'];
}) {
  const { runId, trace, tree, error, forks } = props;
  const state = useTreeState(tree);
  const filters = useRunFilters(tree, state);
  const running = trace.status === 'running' || trace.status === 'waiting';
  const now = useNow(running);
  const selected = tree.byKey.get(state.selectedKey) ?? tree.root;
  const shown = {
    rows: filters.rows,
    collapsed: state.collapsed,
    selectedKey: selected.key,
    matches: filters.matchKeys,
    query: filters.query,
    now,
    onSelect: state.select,
    onToggle: state.toggle,
  };
  return (
    <main class="run-page">
      <RunHeader runId={runId}>
        <RunFacts trace={trace} tree={tree} running={running} now={now} />
        {error && <span class="run-warning">Last reload failed: {error}</span>}
      </RunHeader>
      {trace.forkedFrom && <ForkLineage trace={trace} />}
      <ApprovalsPanel runId={runId} version={trace} />
      <MismatchBanner tree={tree} />
      <div class="split">
        <section class="tree-pane">
          <RunToolbar tree={tree} state={state} filters={filters} />
          {filters.view === 'tree' ? (
            <>
              <TreeHead />
              <TreeView {...shown} />
            </>
          ) : (
            <TimelineView {...shown} tree={tree} />
          )}
        </section>
        <Inspector
          item={selected}
          now={now}
          onSelect={state.select}
          runId={runId}
          {...(forks ? { forks } : {})}
        />
      </div>
    </main>
  );
}

/** Loading, or why Studio cannot show the run. */
function RunNotice(props: {
  runId: string;
  loaded: TraceState;
  error: string | undefined;
  entry: RunListEntry | undefined;
}) {
  const { runId, loaded, error, entry } = props;
  return (
    <main class="run-page">
      <RunHeader runId={runId} />
      {loaded.loading ? (
        <p class="notice">Loading the trace...</p>
      ) : (
        <p class="notice notice-error" data-testid="run-error">
          Studio cannot show this run:{' '}
          {error ?? (entry && isUnreadable(entry) ? entry.unreadable : 'unknown error')}
        </p>
      )}
    </main>
  );
}

/** The tree of a trace, or why it could not be built (a trace Studio's server let through, but the page cannot draw). */
function buildSafely(trace: Trace | undefined): { tree?: TraceTree; error?: string } {
  if (!trace) return {};
  try {
    return { tree: buildTraceTree(trace) };
  } catch (error) {
    return {
      error:
        error instanceof RangeError
          ? 'the trace is nested too deeply to draw'
          : `the trace could not be drawn (${(error as Error).message})`,
    };
  }
}
