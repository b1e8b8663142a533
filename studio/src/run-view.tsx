import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { isUnreadable, type RunListEntry } from '../../src/studio/studio-api.js';
import { elapsedMs, formatDuration, formatTime, formatTokens } from './format.js';
import { Inspector } from './inspector.js';
import { StatusBadge } from './status-badge.js';
import type { Trace } from '../../src/trace/trace-node.js';
import { buildTraceTree, visibleRows, type TraceTree } from './trace-tree.js';
import { TreeView } from './tree-view.js';
import { useNow } from './use-now.js';
import { useTrace } from './use-trace.js';
import { useTreeState, type TreeState } from './use-tree-state.js';

/** One run: its trace tree on the left, the selected node in the inspector on the right. Follows a running run live. */
export function RunView({ runId, entry }: { runId: string; entry: RunListEntry | undefined }) {
  const loaded = useTrace(runId, entry?.updatedAt);
  const built = useMemo(() => buildSafely(loaded.trace), [loaded.trace]);
  const tree = built.tree;
  const trace = tree ? loaded.trace : undefined;
  const error = built.error ?? loaded.error;
  const state = useTreeState(tree);
  const running = trace?.status === 'running' || trace?.status === 'waiting';
  const now = useNow(running);

  if (!trace || !tree) {
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

  const selected = tree.byKey.get(state.selectedKey) ?? tree.root;
  return (
    <main class="run-page">
      <RunHeader runId={runId}>
        <RunFacts trace={trace} tree={tree} running={running} now={now} />
        {error && <span class="run-warning">Last reload failed: {error}</span>}
      </RunHeader>
      <div class="split">
        <TreePane tree={tree} state={state} selectedKey={selected.key} now={now} />
        <Inspector item={selected} now={now} onSelect={state.select} />
      </div>
    </main>
  );
}

/** The run's name, status, start, duration (ticking while it runs) and total tokens. */
function RunFacts(props: { trace: Trace; tree: TraceTree; running: boolean; now: number }) {
  const { trace, tree, running, now } = props;
  const durationMs = trace.endedAt
    ? Date.parse(trace.endedAt) - Date.parse(trace.startedAt)
    : undefined;
  return (
    <>
      <h1 class="run-title">{trace.workflow ?? trace.root.name}</h1>
      <StatusBadge status={trace.status} />
      <span class="run-fact" title="Started">
        {formatTime(trace.startedAt)}
      </span>
      <span class="run-fact" title="Duration" data-testid="run-duration">
        {formatDuration(elapsedMs(trace.startedAt, durationMs, running, now))}
      </span>
      <span class="run-fact" title="Total tokens">
        {tree.root.tokens !== undefined ? `${formatTokens(tree.root.tokens)} tokens` : ''}
      </span>
    </>
  );
}

/** The tree's toolbar, column heads and rows. */
function TreePane(props: { tree: TraceTree; state: TreeState; selectedKey: string; now: number }) {
  const { tree, state, selectedKey, now } = props;
  const { collapsed } = state;
  const rows = useMemo(() => visibleRows(tree, collapsed), [tree, collapsed]);
  return (
    <section class="tree-pane">
      <div class="tree-tools">
        <span class="tree-count">{tree.byKey.size.toLocaleString('en-US')} nodes</span>
        <button onClick={state.expandAll}>Expand all</button>
        <button onClick={state.collapseAll}>Collapse all</button>
      </div>
      <div class="tree-head" aria-hidden="true">
        <span>Node</span>
        <span>Status</span>
        <span class="num">Duration</span>
        <span class="num">Tokens</span>
      </div>
      <TreeView
        rows={rows}
        collapsed={collapsed}
        selectedKey={selectedKey}
        now={now}
        onSelect={state.select}
        onToggle={state.toggle}
      />
    </section>
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

function RunHeader({ runId, children }: { runId: string; children?: ComponentChildren }) {
  return (
    <div class="run-header">
      <a class="back" href="#/">
        ← Runs
      </a>
      <span class="mono run-id">{runId}</span>
      {children}
    </div>
  );
}
