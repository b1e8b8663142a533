import type { TreeItem } from './trace-tree.js';

/** What a key press in the tree acts on. */
export interface TreeKeyTarget {
  rows: TreeItem[];
  /** The selected row's index in `rows`, or -1. */
  selectedIndex: number;
  collapsed: ReadonlySet<string>;
  onSelect(key: string): void;
  onToggle(key: string): void;
}

/**
 * Moves the selection or collapses/expands for a key: up/down move, left collapses (or goes
 * to the parent), right expands (or goes to the first child), Home/End jump.
 * @returns whether the key was one of them (the caller then prevents its default)
 */
export function handleTreeKey(key: string, target: TreeKeyTarget): boolean {
  const { rows, selectedIndex, collapsed, onSelect, onToggle } = target;
  const item = rows[selectedIndex];
  const move = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (row) onSelect(row.key);
  };
  if (key === 'ArrowDown') move(selectedIndex + 1);
  else if (key === 'ArrowUp') move(selectedIndex - 1);
  else if (key === 'Home') move(0);
  else if (key === 'End') move(rows.length - 1);
  else if (key === 'ArrowRight' && item) {
    if (item.children.length > 0 && collapsed.has(item.key)) onToggle(item.key);
    else move(selectedIndex + 1);
  } else if (key === 'ArrowLeft' && item) {
    if (item.children.length > 0 && !collapsed.has(item.key)) onToggle(item.key);
    else if (item.parent) onSelect(item.parent.key);
  } else return false;
  return true;
}
