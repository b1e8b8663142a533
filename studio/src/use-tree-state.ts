import { useCallback, useState } from 'preact/hooks';
import type { TraceTree } from './trace-tree.js';

/** Which rows of a run's tree are collapsed and which one is selected, with what changes them. */
export interface TreeState {
  collapsed: ReadonlySet<string>;
  selectedKey: string;
  /** Collapses an expanded row, expands a collapsed one. */
  toggle: (key: string) => void;
  /** Selects a row and expands the rows above it, so it shows. */
  select: (key: string) => void;
  expandAll: () => void;
  /** Collapses every row that has children, except the root. */
  collapseAll: () => void;
}

/** The tree's collapsed rows and selection, kept across reloads of a running trace (keys are paths). */
export function useTreeState(tree: TraceTree | undefined): TreeState {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [selectedKey, setSelectedKey] = useState('r');
  const toggle = useCallback((key: string) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const select = useCallback(
    (key: string) => {
      setSelectedKey(key);
      const item = tree?.byKey.get(key);
      if (!item) return;
      setCollapsed((prev) => {
        let next: Set<string> | undefined;
        for (let at = item.parent; at; at = at.parent) {
          if (prev.has(at.key)) (next ??= new Set(prev)).delete(at.key);
        }
        return next ?? prev;
      });
    },
    [tree],
  );
  const expandAll = () => setCollapsed(new Set());
  const collapseAll = () =>
    setCollapsed(
      new Set(
        [...(tree?.byKey.values() ?? [])]
          .filter((item) => item.children.length > 0 && item.parent)
          .map((item) => item.key),
      ),
    );
  return { collapsed, selectedKey, toggle, select, expandAll, collapseAll };
}
