import { useMemo, useState } from 'preact/hooks';
import { failurePaths, findInTrace } from './find-in-trace.js';
import { visibleRows, type TraceTree, type TreeItem } from './trace-tree.js';
import type { TreeState } from './use-tree-state.js';

/** Which view of a run shows: the tree or the timeline. */
export type RunViewKind = 'tree' | 'timeline';

/** What the toolbar of a run sets (view, search, failures only) and the rows that follow. */
export interface RunFilters {
  view: RunViewKind;
  setView(view: RunViewKind): void;
  query: string;
  setQuery(query: string): void;
  /** The items the search found, in document order, and their keys. */
  matches: TreeItem[];
  matchKeys: ReadonlySet<string>;
  /** Selects the next (`1`) or previous (`-1`) match after the selected row. */
  goToMatch(direction: 1 | -1): void;
  failuresOnly: boolean;
  setFailuresOnly(on: boolean): void;
  /** The rows to show (tree and timeline alike). */
  rows: TreeItem[];
}

/** The toolbar's state for one run's tree, and the rows it leaves on screen. */
export function useRunFilters(tree: TraceTree, state: TreeState): RunFilters {
  const [view, setView] = useState<RunViewKind>('tree');
  const [query, setQuery] = useState('');
  const [failuresOnly, setFailuresOnly] = useState(false);
  const only = useMemo(() => (failuresOnly ? failurePaths(tree) : undefined), [tree, failuresOnly]);
  const rows = useMemo(
    () => visibleRows(tree, state.collapsed, only),
    [tree, state.collapsed, only],
  );
  const matches = useMemo(() => findInTrace(tree, query), [tree, query]);
  const matchKeys = useMemo(() => new Set(matches.map((item) => item.key)), [matches]);
  const goToMatch = (direction: 1 | -1) => {
    if (matches.length === 0) return;
    const order = visibleRows(tree, new Set()).map((item) => item.key);
    const at = order.indexOf(state.selectedKey);
    const position = (key: string) => order.indexOf(key);
    const next =
      direction === 1
        ? (matches.find((item) => position(item.key) > at) ?? matches[0]!)
        : ([...matches].reverse().find((item) => position(item.key) < at) ??
          matches[matches.length - 1]!);
    state.select(next.key);
  };
  return {
    ...{ view, setView, query, setQuery, matches, matchKeys, goToMatch },
    ...{ failuresOnly, setFailuresOnly, rows },
  };
}
