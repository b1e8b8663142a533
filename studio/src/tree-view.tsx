import { useEffect, useRef } from 'preact/hooks';
import type { TreeItem } from './trace-tree.js';
import { handleTreeKey } from './tree-keys.js';
import { TreeRow } from './tree-row.js';
import { ROW_HEIGHT, useVirtualRows } from './use-virtual-rows.js';

export { ROW_HEIGHT } from './use-virtual-rows.js';

export interface TreeViewProps {
  rows: TreeItem[];
  collapsed: ReadonlySet<string>;
  selectedKey: string;
  /** The keys of the rows the search found, and the search's text. */
  matches: ReadonlySet<string>;
  query: string;
  now: number;
  onSelect(key: string): void;
  onToggle(key: string): void;
}

/**
 * The trace tree as a virtual list (see `useVirtualRows`). Keyboard: up/down to move,
 * left/right to collapse/expand, Home/End.
 */
export function TreeView(props: TreeViewProps) {
  const { rows, collapsed, selectedKey, matches, query, now, onSelect, onToggle } = props;
  useTreePaintedMark(rows);
  const selectedIndex = rows.findIndex((row) => row.key === selectedKey);
  const { scroller, first, last } = useVirtualRows(rows.length, selectedIndex);
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
            matched={matches.has(item.key)}
            query={query}
            now={now}
            onSelect={onSelect}
            onToggle={onToggle}
          />
        ))}
      </div>
    </div>
  );
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
