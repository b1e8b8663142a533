import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { TimeRange } from './timeline-scale.js';

/** The widest the timeline gets, in px (browsers stop laying out far beyond this). */
const MAX_WIDTH = 2_000_000;

/** The timeline's scale and what changes it. */
export interface TimelineZoom {
  /** Pixels per millisecond. */
  pxPerMs: number;
  /** 1 when the whole run fits the width; 2 is twice as close. */
  zoom: number;
  /**
   * Zooms by `factor`, keeping the time under `anchorPx` (px from the bars' left edge in
   * view) in place; or, with `focusMs` (ms from the run's start), bringing that time to the
   * middle of the view.
   */
  zoomBy(factor: number, anchor?: { px: number } | { focusMs: number }): void;
  fit(): void;
}

/**
 * Zoom for a timeline of `range` drawn in `scroller` (bars start `labelWidth` px from its
 * left): fits the run to the width at first; zooming keeps the time under the pointer where
 * it was, or brings a time to the middle, by scrolling.
 */
export function useTimelineZoom(
  scroller: RefObject<HTMLElement | null>,
  range: TimeRange,
  labelWidth: number,
): TimelineZoom {
  const width = useWidth(scroller);
  const [zoom, setZoom] = useState(1);
  const keep = useRef<{ ms: number; anchorPx: number } | undefined>(undefined);
  const span = range.end - range.start;
  const fitPx = Math.max(50, width - labelWidth - 90) / span;
  const maxZoom = Math.max(1, MAX_WIDTH / (fitPx * span));
  const pxPerMs = fitPx * zoom;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !keep.current) return;
    element.scrollLeft = Math.max(0, keep.current.ms * pxPerMs - keep.current.anchorPx);
    keep.current = undefined;
  }, [pxPerMs]);
  const zoomBy: TimelineZoom['zoomBy'] = (factor, anchor) => {
    const element = scroller.current;
    const next = Math.min(maxZoom, Math.max(1, zoom * factor));
    if (!element || next === zoom) return;
    const middle = (element.clientWidth - labelWidth) / 2;
    keep.current =
      anchor && 'focusMs' in anchor
        ? { ms: anchor.focusMs, anchorPx: middle }
        : {
            ms: (element.scrollLeft + (anchor?.px ?? middle)) / pxPerMs,
            anchorPx: anchor?.px ?? middle,
          };
    setZoom(next);
  };
  return { pxPerMs, zoom, zoomBy, fit: () => setZoom(1) };
}

/** The element's width in px, followed as it resizes. */
function useWidth(element: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(800);
  useLayoutEffect(() => {
    const current = element.current!;
    const observer = new ResizeObserver(() => setWidth(current.clientWidth));
    observer.observe(current);
    setWidth(current.clientWidth);
    return () => observer.disconnect();
  }, []);
  return width;
}
