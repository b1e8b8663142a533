import type { Trace, TraceNode } from '../trace/trace-node.js';
import { childTraceOf } from './child-trace.js';
import type { RunSummary } from './run-list.js';
import { totalTokens } from './total-tokens.js';
import { subtreeCost } from '../trace/subtree-cost.js';
import { runState } from './run-state.js';

/**
 * Sums up a valid trace (see `traceProblem`) for Studio's run list.
 *
 * @param trace - the parsed trace.
 * @param file - the file's name (`<runId>.json`); its name without `.json` is the `runId`.
 * @param updatedAt - when the file last changed, ISO 8601.
 * @example
 * ```ts
 * const summary = summarizeTrace(trace, '20261129-185225-4f2a.json', new Date().toISOString());
 * ```
 */
export function summarizeTrace(trace: Trace, file: string, updatedAt: string): RunSummary {
  const durationMs = trace.endedAt
    ? Date.parse(trace.endedAt) - Date.parse(trace.startedAt)
    : undefined;
  const tokens = totalTokens(trace.root);
  const spent = subtreeCost(trace.root);
  const counts = countNodes(trace.root);
  return {
    runId: file.replace(/\.json$/, ''),
    file,
    ...(typeof trace.workflow === 'string' ? { workflow: trace.workflow } : {}),
    status: runState(trace),
    startedAt: trace.startedAt,
    ...(trace.endedAt ? { endedAt: trace.endedAt } : {}),
    ...(durationMs !== undefined && Number.isFinite(durationMs) ? { durationMs } : {}),
    ...(tokens !== undefined ? { totalTokens: tokens } : {}),
    ...(spent.usd !== undefined ? { costUsd: spent.usd } : {}),
    ...(spent.unpriced > 0 ? { unpricedCalls: spent.unpriced } : {}),
    ...(trace.root.failures
      ? {
          failures: {
            tools: trace.root.failures.tools,
            caught: trace.root.failures.caught,
            ...(counts.failedChildRuns > 0 ? { childRuns: counts.failedChildRuns } : {}),
          },
        }
      : {}),
    ...(counts.pendingApprovals > 0 ? { pendingApprovals: counts.pendingApprovals } : {}),
    nodeCount: counts.nodes,
    updatedAt,
  };
}

/** The nodes of a trace (child runs included), the child runs that failed, the approvals pending. */
function countNodes(root: TraceNode): {
  nodes: number;
  failedChildRuns: number;
  pendingApprovals: number;
} {
  const counts = { nodes: 0, failedChildRuns: 0, pendingApprovals: 0 };
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    counts.nodes++;
    if (node.approval?.status === 'pending') counts.pendingApprovals++;
    for (const child of node.children) stack.push(child);
    const child = childTraceOf(node);
    if (!child) continue;
    if (child.root.status === 'failed') counts.failedChildRuns++;
    stack.push(child.root);
  }
  return counts;
}
