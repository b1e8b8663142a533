import { useMemo, useState } from 'preact/hooks';
import { formatDuration } from './format.js';
import { TimelineAxis, TimeSummary, ZoomTools } from './timeline-parts.js';
import { TimelineRow } from './timeline-row.js';
import { itemSpan, traceRange, type TimeRange } from './timeline-scale.js';
import type { TraceTree, TreeItem } from './trace-tree.js';
import { handleTreeKey } from './tree-keys.js';
import type { TreeViewProps } from './tree-view.js';
import { useTimelineZoom, type TimelineZoom } from './use-timeline-zoom.js';
import { ROW_HEIGHT, useVirtualRows } from './use-virtual-rows.js';

/** The width of the labels' column, in px. */
const LABEL_WIDTH = 280;

/**
 * The run as a waterfall on a time axis: a bar per node from its start to its end (the
 * same rows as the tree, virtual the same way). Zoom with the buttons or Ctrl+wheel; a
 * click on a bar selects its node in the inspector.
 */
export function TimelineView(props: TreeViewProps & { tree: TraceTree }) {
  const { tree, rows, collapsed, selectedKey, matches, query, now, onSelect, onToggle } = props;
  const range = useMemo(() => traceRange(tree, now), [tree, now]);
  const selectedIndex = rows.findIndex((row) => row.key === selectedKey);
  const virtual = useVirtualRows(rows.length, selectedIndex);
  const zoom = useTimelineZoom(virtual.scroller, range, LABEL_WIDTH);
  const [scrollLeft, setScrollLeft] = useState(0);
  const focusMs = middleOf(rows[selectedIndex], range, now);
  const scale = { pxPerMs: zoom.pxPerMs, labelWidth: LABEL_WIDTH };
  const width = LABEL_WIDTH + (range.end - range.start) * zoom.pxPerMs + 90;
  const onKeyDown = (event: KeyboardEvent) => {
    const target = { rows, selectedIndex, collapsed, onSelect, onToggle };
    if (handleTreeKey(event.key, target)) event.preventDefault();
  };
  const onWheel = zoomOnWheel(zoom);
  return (
    <>
      <div class="tl-tools">
        <TimeSummary tree={tree} now={now} />
        <span class="muted small">run: {formatDuration(range.end - range.start)}</span>
        <ZoomTools zoom={zoom} focusMs={focusMs} />
      </div>
      <div
        ref={virtual.scroller}
        class="tl-scroll"
        role="grid"
        aria-label="Timeline"
        tabIndex={0}
        data-testid="timeline"
        data-rows={rows.length}
        data-zoom={zoom.zoom}
        onScroll={(event) => setScrollLeft((event.currentTarget as HTMLElement).scrollLeft)}
        onKeyDown={onKeyDown}
        onWheel={onWheel}
      >
        <TimelineAxis {...{ range, width, scrollLeft }} {...scale} />
        <div
          class="tl-space"
          style={{ height: `${rows.length * ROW_HEIGHT}px`, width: `${width}px` }}
        >
          {rows.slice(virtual.first, virtual.last).map((item, offset) => (
            <TimelineRow
              key={item.key}
              item={item}
              top={(virtual.first + offset) * ROW_HEIGHT}
              {...{ range, now, query, onSelect }}
              {...scale}
              selected={item.key === selectedKey}
              matched={matches.has(item.key)}
            />
          ))}
        </div>
      </div>
    </>
  );
}

/** Ctrl+wheel (a pinch on a touchpad) zooms around the pointer. */
function zoomOnWheel(zoom: TimelineZoom): (event: WheelEvent) => void {
  return (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    zoom.zoomBy(event.deltaY < 0 ? 1.25 : 0.8, { px: event.clientX - box.left - LABEL_WIDTH });
  };
}

/** The middle of an item's bar in ms from the run's start (the zoom buttons zoom around the selected node). */
function middleOf(item: TreeItem | undefined, range: TimeRange, now: number): number | undefined {
  const span = item && itemSpan(item, now);
  return span ? (span.start + span.end) / 2 - range.start : undefined;
}
