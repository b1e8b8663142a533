import { formatDuration } from './format.js';
import { Highlight } from './highlight.js';
import { itemSpan, timeKindOf, type TimeRange } from './timeline-scale.js';
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
            class={`tl-bar bar-${kind} bar-status-${node.status}`}
            data-testid="bar"
            title={`${label}: ${formatDuration(span.end - span.start)}`}
            style={{ left: `${left}px`, width: `${width}px` }}
          />
          <span class="tl-time" style={{ left: `${left + width + 4}px` }}>
            {formatDuration(span.end - span.start)}
          </span>
        </>
      )}
    </div>
  );
}
