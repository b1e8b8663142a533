import { useMemo } from 'preact/hooks';
import { formatDuration } from './format.js';
import { tickStep, timeByKind, type TimeKind, type TimeRange } from './timeline-scale.js';
import type { TraceTree } from './trace-tree.js';
import type { TimelineZoom } from './use-timeline-zoom.js';

const KIND_NAMES: Record<TimeKind, string> = {
  run: 'runs',
  agent: 'agents',
  step: 'steps',
  model: 'model calls',
  tool: 'tool calls',
  approval: 'approval waits',
  child: 'child runs',
  catch: 'attempts',
  parallel: 'parallels',
  branch: 'branches',
};

/** Where the time went: the summed time of model calls, tool calls, approval waits and child runs. */
export function TimeSummary({ tree, now }: { tree: TraceTree; now: number }) {
  const sums = useMemo(() => timeByKind(tree, now), [tree, now]);
  return (
    <span class="tl-summary" data-testid="time-summary">
      {sums.map(({ kind, ms, count }) => (
        <span
          key={kind}
          class="tl-sum"
          data-kind={kind}
          title={`${count} ${KIND_NAMES[kind]}, their times added up`}
        >
          <span class={`tl-swatch bar-${kind}`} />
          {KIND_NAMES[kind]} {formatDuration(ms)}
        </span>
      ))}
    </span>
  );
}

/** Zoom out, the zoom factor, zoom in (around `focusMs`, the selected node, when given), fit. */
export function ZoomTools({ zoom, focusMs }: { zoom: TimelineZoom; focusMs: number | undefined }) {
  const around = focusMs === undefined ? undefined : { focusMs };
  return (
    <span class="tl-zoom">
      <button aria-label="Zoom out" data-testid="zoom-out" onClick={() => zoom.zoomBy(0.5, around)}>
        −
      </button>
      <span class="muted small" data-testid="zoom-level">
        {zoom.zoom < 10 ? zoom.zoom.toFixed(1) : Math.round(zoom.zoom)}×
      </span>
      <button aria-label="Zoom in" data-testid="zoom-in" onClick={() => zoom.zoomBy(2, around)}>
        +
      </button>
      <button onClick={zoom.fit}>Fit</button>
    </span>
  );
}

/** The time axis, kept at the top: ticks (from the run's start) for the part in view. */
export function TimelineAxis(props: {
  range: TimeRange;
  width: number;
  scrollLeft: number;
  labelWidth: number;
  pxPerMs: number;
}) {
  const { range, width, scrollLeft, labelWidth, pxPerMs } = props;
  const step = tickStep(pxPerMs);
  const firstMs = Math.max(0, Math.floor((scrollLeft - labelWidth) / pxPerMs / step) * step);
  const ticks: number[] = [];
  for (
    let ms = firstMs;
    ms * pxPerMs < scrollLeft + 4000 && ms <= range.end - range.start + step;
    ms += step
  )
    ticks.push(ms);
  return (
    <div class="tl-axis" style={{ width: `${width}px` }}>
      <span class="tl-axis-label" style={{ width: `${labelWidth}px` }}>
        Node
      </span>
      {ticks.map((ms) => (
        <span key={ms} class="tl-tick" style={{ left: `${labelWidth + ms * pxPerMs}px` }}>
          {formatDuration(ms)}
        </span>
      ))}
    </div>
  );
}
