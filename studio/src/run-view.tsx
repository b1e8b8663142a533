import type { ComponentChildren } from 'preact';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { isUnreadable, type RunListEntry } from '../../src/studio/studio-api.js';
import { elapsedMs, formatDuration, formatTime, formatTokens } from './format.js';
import { Inspector } from './inspector.js';
import { StatusBadge } from './status-badge.js';
import type { Trace } from '../../src/trace/trace-node.js';
import { buildTraceTree, visibleRows, type TraceTree } from './trace-tree.js';
import { TreeView } from './tree-view.js';
import { useNow } from './use-now.js';
import { useTrace } from './use-trace.js';

/** One run: its trace tree on the left, the selected node in the inspector on the right. Follows a running run live. */
export function RunView({ runId, entry }: { runId: string; entry: RunListEntry | undefined }) {
  const loaded = useTrace(runId, entry?.updatedAt);
  const built = useMemo(() => buildSafely(loaded.trace), [loaded.trace]);
  const { loading } = loaded;
  const tree = built.tree;
  const trace = tree ? loaded.trace : undefined;
  const error = built.error ?? loaded.error;
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [selectedKey, setSelectedKey] = useState('r');
  const rows = useMemo(() => (tree ? visibleRows(tree, collapsed) : []), [tree, collapsed]);
  const running = trace?.status === 'running' || trace?.status === 'waiting';
  const now = useNow(running);

  const toggle = useCallback((key: string) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const select = useCallback(
    (key: string) => {
      setSelectedKey(key);
      const item = tree?.byKey.get(key);
      if (!item) return;
      setCollapsed((prev) => {
        let next: Set<string> | undefined;
        for (let at = item.parent; at; at = at.parent) {
          if (prev.has(at.key)) (next ??= new Set(prev)).delete(at.key);
        }
        return next ?? prev;
      });
    },
    [tree],
  );

  if (!trace) {
    return (
      <main class="run-page">
        <RunHeader runId={runId} />
        {loading ? (
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

  const selected = tree!.byKey.get(selectedKey) ?? tree!.root;
  const collapseAll = () =>
    setCollapsed(
      new Set(
        [...tree!.byKey.values()]
          .filter((item) => item.children.length > 0 && item.parent)
          .map((item) => item.key),
      ),
    );
  return (
    <main class="run-page">
      <RunHeader runId={runId}>
        <h1 class="run-title">{trace.workflow ?? trace.root.name}</h1>
        <StatusBadge status={trace.status} />
        <span class="run-fact" title="Started">
          {formatTime(trace.startedAt)}
        </span>
        <span class="run-fact" title="Duration" data-testid="run-duration">
          {formatDuration(
            elapsedMs(
              trace.startedAt,
              trace.endedAt ? Date.parse(trace.endedAt) - Date.parse(trace.startedAt) : undefined,
              running,
              now,
            ),
          )}
        </span>
        <span class="run-fact" title="Total tokens">
          {tree!.root.tokens !== undefined ? `${formatTokens(tree!.root.tokens)} tokens` : ''}
        </span>
        {error && <span class="run-warning">Last reload failed: {error}</span>}
      </RunHeader>
      <div class="split">
        <section class="tree-pane">
          <div class="tree-tools">
            <span class="tree-count">{tree!.byKey.size.toLocaleString('en-US')} nodes</span>
            <button onClick={() => setCollapsed(new Set())}>Expand all</button>
            <button onClick={collapseAll}>Collapse all</button>
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
            selectedKey={selected.key}
            now={now}
            onSelect={select}
            onToggle={toggle}
          />
        </section>
        <Inspector item={selected} now={now} onSelect={select} />
      </div>
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
