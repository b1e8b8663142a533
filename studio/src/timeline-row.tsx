import { formatDuration } from './format.js';
import { Highlight } from './highlight.js';
import { itemSpan, timeKindOf, waitSpan, type TimeRange } from './timeline-scale.js';
import { isChildRun, labelOf, type TreeItem } from './trace-tree.js';

/** Levels of indentation shown in the timeline's labels. */
const MAX_INDENT = 20;

export interface TimelineRowProps {
  item: TreeItem;
  top: number;
  range: TimeRange;
  pxPerMs: number;
  labelWidth: number;
  selected: boolean;
  matched: boolean;
  query: string;
  now: number;
  onSelect(key: string): void;
}

/** One node on the time axis: its label (kept in view on the left) and its bar, from its start to its end. */
export function TimelineRow(props: TimelineRowProps) {
  const { item, top, range, pxPerMs, labelWidth, selected, matched, query, now, onSelect } = props;
  const { node } = item;
  const span = itemSpan(item, now);
  const left = span ? labelWidth + (span.start - range.start) * pxPerMs : labelWidth;
  const width = span ? Math.max(2, (span.end - span.start) * pxPerMs) : 0;
  const kind = timeKindOf(item);
  const label = labelOf(node);
  const wait = waitSpan(item, now);
  return (
    <div
      class={`tl-row${selected ? ' selected' : ''}${matched ? ' matched' : ''}`}
      role="row"
      aria-selected={selected}
      data-key={item.key}
      data-kind={node.kind}
      data-name={node.name}
      data-status={node.status}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onSelect(item.key)}
    >
      <span class="tl-label" style={{ width: `${labelWidth}px` }}>
        <span style={{ paddingLeft: `${Math.min(item.depth, MAX_INDENT) * 10}px` }} />
        <span class={`kind kind-${node.kind}`}>{isChildRun(item) ? 'child run' : node.kind}</span>
        <span class="name">
          <Highlight text={label} query={query} />
        </span>
      </span>
      {span && (
        <>
          <span
            class={`tl-bar bar-${kind} bar-status-${node.status}${wait ? ' has-wait' : ''}`}
            data-testid="bar"
            title={`${label}: ${formatDuration(span.end - span.start)}`}
            style={{ left: `${left}px`, width: `${width}px` }}
          />
          {wait && (
            <span
              class="tl-bar tl-wait"
              data-testid="wait"
              data-answered-at={node.approval?.answeredAt}
              title={waitTitle(node, wait.end - wait.start)}
              style={{
                left: `${labelWidth + (wait.start - range.start) * pxPerMs}px`,
                width: `${Math.max(2, (wait.end - wait.start) * pxPerMs)}px`,
              }}
            />
          )}
          <span class="tl-time" style={{ left: `${left + width + 4}px` }}>
            {formatDuration(span.end - span.start)}
          </span>
        </>
      )}
    </div>
  );
}

/** What a wait's bar says on hover: how long it waited, and who answered, through what, when. */
function waitTitle(node: TreeItem['node'], ms: number): string {
  const approval = node.approval!;
  if (approval.status === 'pending') return `waiting for an answer for ${formatDuration(ms)}`;
  const by = approval.answeredBy !== undefined ? ` by ${approval.answeredBy}` : '';
  const via = approval.source !== undefined ? ` through ${approval.source}` : '';
  const at = approval.answeredAt !== undefined ? ` at ${approval.answeredAt}` : '';
  return `waited ${formatDuration(ms)} for an answer: ${approval.status}${by}${via}${at}`;
}
