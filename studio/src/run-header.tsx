import type { ComponentChildren } from 'preact';
import type { Trace } from '../../src/trace/trace-node.js';
import { costText, elapsedMs, formatDuration, formatTime, formatTokens } from './format.js';
import { StatusBadge } from './status-badge.js';
import type { TraceTree } from './trace-tree.js';

/** The bar above a run: back to the list, the run id, and what `children` add. */
export function RunHeader({ runId, children }: { runId: string; children?: ComponentChildren }) {
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

/** The run's name, status (and failures inside), start, duration (ticking while it runs), total tokens and cost. */
export function RunFacts(props: { trace: Trace; tree: TraceTree; running: boolean; now: number }) {
  const { trace, tree, running, now } = props;
  const durationMs = trace.endedAt
    ? Date.parse(trace.endedAt) - Date.parse(trace.startedAt)
    : undefined;
  return (
    <>
      <h1 class="run-title">{trace.workflow ?? trace.root.name}</h1>
      <StatusBadge status={trace.status} />
      {tree.root.failedBelow > 0 && (
        <span class="badge-failures" data-testid="run-failures">
          {tree.root.failedBelow} failed inside
        </span>
      )}
      <span class="run-fact" title="Started">
        {formatTime(trace.startedAt)}
      </span>
      <span class="run-fact" title="Duration" data-testid="run-duration">
        {formatDuration(elapsedMs(trace.startedAt, durationMs, running, now))}
      </span>
      <span class="run-fact" title="Total tokens">
        {tree.root.tokens !== undefined ? `${formatTokens(tree.root.tokens)} tokens` : ''}
      </span>
      <span class="run-fact" title="Total cost" data-testid="run-cost">
        {costText(tree.root.spent)}
      </span>
    </>
  );
}
