import type { TraceTree } from './trace-tree.js';
import type { RunFilters, RunViewKind } from './use-run-filters.js';
import type { TreeState } from './use-tree-state.js';

/** Above the tree or timeline: the view, the search, failures only, expand and collapse. */
export function RunToolbar(props: { tree: TraceTree; state: TreeState; filters: RunFilters }) {
  const { tree, state, filters } = props;
  return (
    <div class="tree-tools">
      <ViewTabs view={filters.view} onChange={filters.setView} />
      <span class="tree-count">{tree.byKey.size.toLocaleString('en-US')} nodes</span>
      <SearchBox filters={filters} />
      {tree.root.failedBelow > 0 && (
        <label class="toggle-filter" title="Show only failures and the nodes above them">
          <input
            type="checkbox"
            data-testid="failures-only"
            checked={filters.failuresOnly}
            onChange={(event) => filters.setFailuresOnly(event.currentTarget.checked)}
          />
          Failures only ({tree.root.failedBelow})
        </label>
      )}
      <button onClick={state.expandAll}>Expand all</button>
      <button onClick={state.collapseAll}>Collapse all</button>
    </div>
  );
}

function ViewTabs({ view, onChange }: { view: RunViewKind; onChange(view: RunViewKind): void }) {
  const tab = (kind: RunViewKind, label: string) => (
    <button
      role="tab"
      aria-selected={view === kind}
      class={`tab${view === kind ? ' tab-on' : ''}`}
      data-testid={`view-${kind}`}
      onClick={() => onChange(kind)}
    >
      {label}
    </button>
  );
  return (
    <span class="tabs" role="tablist" aria-label="View">
      {tab('tree', 'Tree')}
      {tab('timeline', 'Timeline')}
    </span>
  );
}

/** Searches the run's nodes (names, inputs, outputs, prompts, messages, errors); Enter goes to the next match. */
function SearchBox({ filters }: { filters: RunFilters }) {
  const { query, matches } = filters;
  return (
    <span class="search">
      <input
        type="search"
        placeholder="Search tools and text"
        aria-label="Search in this run"
        data-testid="run-search"
        value={query}
        onInput={(event) => filters.setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          filters.goToMatch(event.shiftKey ? -1 : 1);
        }}
      />
      {query.trim() !== '' && (
        <span class="search-count muted" data-testid="match-count">
          {matches.length === 1 ? '1 match' : `${matches.length.toLocaleString('en-US')} matches`}
        </span>
      )}
      {matches.length > 0 && (
        <>
          <button aria-label="Previous match" onClick={() => filters.goToMatch(-1)}>
            ↑
          </button>
          <button
            aria-label="Next match"
            data-testid="next-match"
            onClick={() => filters.goToMatch(1)}
          >
            ↓
          </button>
        </>
      )}
    </span>
  );
}
