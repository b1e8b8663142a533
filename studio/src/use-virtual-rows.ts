import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** The height of one row, in px (rows are fixed-height so the lists can be virtual). */
export const ROW_HEIGHT = 28;
const OVERSCAN = 12;

/** The rows of a virtual list to put in the page, and what keeps them current. */
export interface VirtualRows {
  scroller: RefObject<HTMLDivElement | null>;
  /** The first and one past the last row index to render. */
  first: number;
  last: number;
  /** For the scroller's `onScroll`. */
  onScroll(event: Event): void;
}

/**
 * A virtual list of `count` fixed-height rows: only the rows in view (plus a few) render,
 * so a trace of 10,000 nodes scrolls like one of ten. The selected row (`selectedIndex`)
 * is scrolled into view when the selection moves.
 */
export function useVirtualRows(count: number, selectedIndex: number): VirtualRows {
  const scroller = useRef<HTMLDivElement>(null);
  // The first row in view: scrolling within a row changes nothing, so it renders nothing.
  const [topRow, setTopRow] = useState(0);
  const height = useHeight(scroller);
  useKeepInView(scroller, selectedIndex);
  return {
    scroller,
    first: Math.max(0, topRow - OVERSCAN),
    last: Math.min(count, topRow + Math.ceil(height / ROW_HEIGHT) + 1 + OVERSCAN),
    onScroll: (event) =>
      setTopRow(Math.floor((event.currentTarget as HTMLDivElement).scrollTop / ROW_HEIGHT)),
  };
}

/** The element's height in px, followed as it resizes. */
function useHeight(element: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(600);
  useLayoutEffect(() => {
    const current = element.current!;
    const observer = new ResizeObserver(() => setHeight(current.clientHeight));
    observer.observe(current);
    setHeight(current.clientHeight);
    return () => observer.disconnect();
  }, []);
  return height;
}

/** Scrolls the selected row into view when the selection moves (a sticky head of `ROW_HEIGHT` allowed for). */
function useKeepInView(scroller: RefObject<HTMLElement | null>, selectedIndex: number): void {
  useEffect(() => {
    const element = scroller.current;
    if (!element || selectedIndex < 0) return;
    const top = selectedIndex * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight)
      element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
  }, [selectedIndex]);
}
