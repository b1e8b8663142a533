import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { elapsedMs, formatDuration, formatTokens } from './format.js';
import { StatusBadge } from './status-badge.js';
import { isChildRun, labelOf, type TreeItem } from './trace-tree.js';
import { handleTreeKey } from './tree-keys.js';

/** The height of one row, in px (rows are fixed-height so the list can be virtual). */
export const ROW_HEIGHT = 28;
const OVERSCAN = 12;
/** Levels of indentation shown; deeper rows stay at this indent and say their level. */
const MAX_INDENT = 40;

interface TreeViewProps {
  rows: TreeItem[];
  collapsed: ReadonlySet<string>;
  selectedKey: string;
  now: number;
  onSelect(key: string): void;
  onToggle(key: string): void;
}

/**
 * The trace tree as a virtual list: only the rows in view (plus a few) are in the page, so a
 * trace of 10,000 nodes scrolls like one of ten. Keyboard: up/down to move, left/right to
 * collapse/expand, Home/End.
 */
export function TreeView({ rows, collapsed, selectedKey, now, onSelect, onToggle }: TreeViewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The first row in view: scrolling within a row changes nothing, so it renders nothing.
  const [topRow, setTopRow] = useState(0);
  const height = useHeight(scroller);
  useTreePaintedMark(rows);
  const selectedIndex = rows.findIndex((row) => row.key === selectedKey);
  useKeepInView(scroller, selectedKey, selectedIndex);

  const first = Math.max(0, topRow - OVERSCAN);
  const last = Math.min(rows.length, topRow + Math.ceil(height / ROW_HEIGHT) + 1 + OVERSCAN);
  const onKeyDown = (event: KeyboardEvent) => {
    const target = { rows, selectedIndex, collapsed, onSelect, onToggle };
    if (handleTreeKey(event.key, target)) event.preventDefault();
  };

  return (
    <div
      ref={scroller}
      class="tree-scroll"
      role="tree"
      aria-label="Trace tree"
      tabIndex={0}
      data-testid="tree"
      data-rows={rows.length}
      onScroll={(event) =>
        setTopRow(Math.floor((event.currentTarget as HTMLDivElement).scrollTop / ROW_HEIGHT))
      }
      onKeyDown={onKeyDown}
    >
      <div class="tree-space" style={{ height: `${rows.length * ROW_HEIGHT}px` }}>
        {rows.slice(first, last).map((item, offset) => (
          <TreeRow
            key={item.key}
            item={item}
            top={(first + offset) * ROW_HEIGHT}
            expanded={item.children.length > 0 ? !collapsed.has(item.key) : undefined}
            selected={item.key === selectedKey}
            now={now}
            onSelect={onSelect}
            onToggle={onToggle}
          />
        ))}
      </div>
    </div>
  );
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

/** Marks `studio:tree-painted` (a performance mark) once, after the first rows are painted. */
function useTreePaintedMark(rows: TreeItem[]): void {
  const painted = useRef(false);
  useEffect(() => {
    if (painted.current || rows.length === 0) return;
    painted.current = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark('studio:tree-painted'), 0));
  }, [rows]);
}

/** Scrolls the selected row into view when the selection moves. */
function useKeepInView(
  scroller: RefObject<HTMLElement | null>,
  selectedKey: string,
  selectedIndex: number,
): void {
  useEffect(() => {
    const element = scroller.current;
    if (!element || selectedIndex < 0) return;
    const top = selectedIndex * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight)
      element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
  }, [selectedKey, selectedIndex]);
}

interface TreeRowProps {
  item: TreeItem;
  top: number;
  expanded: boolean | undefined;
  selected: boolean;
  now: number;
  onSelect(key: string): void;
  onToggle(key: string): void;
}

function TreeRow({ item, top, expanded, selected, now, onSelect, onToggle }: TreeRowProps) {
  const { node } = item;
  const running = node.status === 'running' || node.status === 'waiting';
  const kind = isChildRun(item) ? 'child run' : node.kind;
  return (
    <div
      class={`tree-row${selected ? ' selected' : ''}`}
      role="treeitem"
      aria-level={item.depth + 1}
      aria-expanded={expanded}
      aria-selected={selected}
      data-key={item.key}
      data-kind={node.kind}
      data-name={node.name}
      data-status={node.status}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onSelect(item.key)}
    >
      <span
        class="tree-label"
        style={{ paddingLeft: `${Math.min(item.depth, MAX_INDENT) * 16}px` }}
      >
        {item.depth > MAX_INDENT && (
          <span class="hint depth-hint" title="Nesting level">
            level {item.depth.toLocaleString('en-US')}
          </span>
        )}
        <RowToggle expanded={expanded} onToggle={() => onToggle(item.key)} />
        <span class={`kind kind-${node.kind}${kind === 'child run' ? ' kind-child' : ''}`}>
          {kind}
        </span>
        <span class="name">{labelOf(node)}</span>
        {node.approval && (
          <span class={`hint approval-${node.approval.status}`}>
            approval: {node.approval.status}
            {node.approval.automatic ? ' (auto)' : ''}
          </span>
        )}
        {node.error && <span class="hint hint-error">{node.error.code ?? node.error.name}</span>}
      </span>
      <span class="cell-status">
        <StatusBadge status={node.status} />
      </span>
      <span class="cell-num">
        {formatDuration(elapsedMs(node.startedAt, node.durationMs, running, now))}
      </span>
      <span class="cell-num">{formatTokens(item.tokens)}</span>
    </div>
  );
}

/** A row's expand/collapse button, or the empty space of a row without children. */
function RowToggle({ expanded, onToggle }: { expanded: boolean | undefined; onToggle(): void }) {
  if (expanded === undefined) return <span class="toggle" />;
  return (
    <button
      class="toggle"
      aria-label={expanded ? 'Collapse' : 'Expand'}
      tabIndex={-1}
      onClick={(event) => {
        event.stopPropagation();
        onToggle();
      }}
    >
      {expanded ? '▾' : '▸'}
    </button>
  );
}
