import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';

/** The height of one row, in px (rows are fixed-height so the lists can be virtual). */
export const ROW_HEIGHT = 28;
const OVERSCAN = 12;

/** The rows of a virtual list to put in the page, and what keeps them current. */
export interface VirtualRows {
  scroller: RefObject<HTMLDivElement | null>;
  /** The first and one past the last row index to render. */
  first: number;
  last: number;
}

/**
 * A virtual list of `count` fixed-height rows on TanStack Virtual: only the rows in view
 * (plus a few) render, so a trace of 10,000 nodes scrolls like one of ten. The selected row
 * (`selectedIndex`) is scrolled into view when the selection moves.
 */
export function useVirtualRows(count: number, selectedIndex: number): VirtualRows {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: { width: 0, height: 600 },
  });
  useEffect(() => {
    if (selectedIndex >= 0 && selectedIndex < count)
      virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex]);
  const items = virtualizer.getVirtualItems();
  return {
    scroller,
    first: items[0]?.index ?? 0,
    last: (items.at(-1)?.index ?? -1) + 1,
  };
}
