import { isChildRun, type TraceTree, type TreeItem } from './trace-tree.js';

/** The time a trace spans, in ms since the epoch: from the run's start to the last end (or `now` while something runs). */
export interface TimeRange {
  start: number;
  end: number;
}

/** Where an item's bar lies, in ms since the epoch; `undefined` for a node without a valid start. */
export function itemSpan(item: TreeItem, now: number): TimeRange | undefined {
  const start = Date.parse(item.node.startedAt);
  if (Number.isNaN(start)) return undefined;
  const ended = item.node.endedAt ? Date.parse(item.node.endedAt) : Number.NaN;
  const end = Number.isNaN(ended)
    ? item.node.durationMs !== undefined
      ? start + item.node.durationMs
      : now
    : ended;
  return { start, end: Math.max(start, end) };
}

/** The range every node of `tree` lies in (at least 1 ms long). */
export function traceRange(tree: TraceTree, now: number): TimeRange {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const item of tree.byKey.values()) {
    const span = itemSpan(item, now);
    if (!span) continue;
    start = Math.min(start, span.start);
    end = Math.max(end, span.end);
  }
  if (!Number.isFinite(start)) return { start: 0, end: 1 };
  return { start, end: Math.max(end, start + 1) };
}

/** A tick step in ms (1, 2 or 5 times a power of ten) that puts ticks at least `minPx` apart at `pxPerMs`. */
export function tickStep(pxPerMs: number, minPx = 90): number {
  const raw = minPx / pxPerMs;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) if (power * factor >= raw) return power * factor;
  return power * 10;
}

/** What kind of time a bar stands for (its colour in the timeline). */
export type TimeKind =
  | 'run'
  | 'agent'
  | 'step'
  | 'model'
  | 'tool'
  | 'approval'
  | 'child'
  | 'catch'
  | 'parallel'
  | 'branch';

/** An item's kind of time: a tool call that waited for a person is an approval wait; a child run is its own kind. */
export function timeKindOf(item: TreeItem): TimeKind {
  const { node } = item;
  if (node.kind === 'tool' && node.approval && !node.approval.automatic) return 'approval';
  if (isChildRun(item)) return 'child';
  return node.kind;
}

/**
 * The part of an approval wait's bar that was spent waiting, in ms since the epoch: from the
 * call's start to when the answer was given (`approval.answeredAt`, kept within the call's
 * bar), to now while it waits, or to the call's end when the trace does not say (written
 * before answers kept their time, or withdrawn). `undefined` for any other item. An answer
 * given while the run was stopped may be older than the call's start in the resumed run's
 * trace: the wait then has no length there.
 */
export function waitSpan(item: TreeItem, now: number): TimeRange | undefined {
  if (timeKindOf(item) !== 'approval') return undefined;
  const span = itemSpan(item, now);
  if (!span) return undefined;
  const approval = item.node.approval!;
  if (approval.status === 'pending') return span;
  const answered = approval.answeredAt === undefined ? Number.NaN : Date.parse(approval.answeredAt);
  if (Number.isNaN(answered)) return span;
  return { start: span.start, end: Math.min(span.end, Math.max(span.start, answered)) };
}

/**
 * Where the time went: the summed time of the model calls, the tool calls (approval waits
 * apart: a wait counts until its answer came, the call's work after it as a tool call) and
 * the child runs, in ms. Calls that ran side by side each count in full, so the
 * sums can exceed the run's own duration.
 */
export function timeByKind(
  tree: TraceTree,
  now: number,
): Array<{ kind: TimeKind; ms: number; count: number }> {
  const sums = new Map<TimeKind, { ms: number; count: number }>();
  for (const item of tree.byKey.values()) {
    const kind = timeKindOf(item);
    if (kind !== 'model' && kind !== 'tool' && kind !== 'approval' && kind !== 'child') continue;
    const span = itemSpan(item, now);
    if (!span) continue;
    const wait = waitSpan(item, now);
    const add = (to: TimeKind, ms: number) => {
      const sum = sums.get(to) ?? { ms: 0, count: 0 };
      sum.ms += ms;
      sum.count++;
      sums.set(to, sum);
    };
    if (!wait) add(kind, span.end - span.start);
    else {
      add('approval', wait.end - wait.start);
      if (span.end > wait.end) add('tool', span.end - wait.end);
    }
  }
  return [...sums].map(([kind, sum]) => ({ kind, ...sum })).sort((a, b) => b.ms - a.ms);
}
