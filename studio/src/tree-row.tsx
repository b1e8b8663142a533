import { costText, elapsedMs, formatDuration, formatTokens, formatUsd } from './format.js';
import { Highlight } from './highlight.js';
import { StatusBadge } from './status-badge.js';
import { isChildRun, isHeld, labelOf, type TreeItem } from './trace-tree.js';

/** Levels of indentation shown; deeper rows stay at this indent and say their level. */
const MAX_INDENT = 40;

export interface TreeRowProps {
  item: TreeItem;
  top: number;
  expanded: boolean | undefined;
  selected: boolean;
  /** True when the search found this row; `query` is what to mark in its name. */
  matched: boolean;
  query: string;
  now: number;
  onSelect(key: string): void;
  onToggle(key: string): void;
}

/**
 * One row of the tree: the node (indented, with its hints), status, duration, tokens and
 * cost (empty when no call below had a price; its title says how many had none).
 */
export function TreeRow(props: TreeRowProps) {
  const { item, top, expanded, selected, matched, now, onSelect } = props;
  const { node } = item;
  const running = node.status === 'running' || node.status === 'waiting';
  return (
    <div
      class={`tree-row${selected ? ' selected' : ''}${matched ? ' matched' : ''}`}
      role="treeitem"
      aria-level={item.depth + 1}
      aria-expanded={expanded}
      aria-selected={selected}
      data-key={item.key}
      data-kind={node.kind}
      data-name={node.name}
      data-status={node.status}
      data-matched={matched ? 'true' : undefined}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onSelect(item.key)}
    >
      <RowLabel {...props} />
      <span class="cell-status">
        <StatusBadge status={node.status} />
      </span>
      <span class="cell-num">
        {formatDuration(elapsedMs(node.startedAt, node.durationMs, running, now))}
      </span>
      <span class="cell-num">{formatTokens(item.tokens)}</span>
      <span class="cell-num" data-testid="row-cost" title={costText(item.spent) || undefined}>
        {item.spent.usd !== undefined ? formatUsd(item.spent.usd) : ''}
      </span>
    </div>
  );
}

/** The first cell: indent, toggle, kind, name (search matches marked) and hints. */
function RowLabel({ item, expanded, query, onToggle }: TreeRowProps) {
  const { node } = item;
  const kind = isChildRun(item) ? 'child run' : node.kind;
  return (
    <span class="tree-label" style={{ paddingLeft: `${Math.min(item.depth, MAX_INDENT) * 16}px` }}>
      {item.depth > MAX_INDENT && (
        <span class="hint depth-hint" title="Nesting level">
          level {item.depth.toLocaleString('en-US')}
        </span>
      )}
      <RowToggle expanded={expanded} onToggle={() => onToggle(item.key)} />
      <span class={`kind kind-${node.kind}${kind === 'child run' ? ' kind-child' : ''}`}>
        {kind}
      </span>
      <span class="name">
        <Highlight text={labelOf(node)} query={query} />
      </span>
      <RowHints item={item} />
    </span>
  );
}

/**
 * What a row says besides its name: its approval (and, for a call answered while other
 * requests of its model turn wait, that it is held until they are answered), an agent's
 * compactions, its error's code, failures below it.
 */
function RowHints({ item }: { item: TreeItem }) {
  const { node } = item;
  return (
    <>
      {node.approval && (
        <span class={`hint approval-${node.approval.status}`}>
          approval: {node.approval.status}
          {node.approval.automatic ? ' (auto)' : ''}
        </span>
      )}
      {isHeld(node) && (
        <span
          class="hint approval-held"
          data-testid="approval-held"
          title="Answered, but its step goes on only once every approval request of its model turn is answered"
        >
          held for its turn
        </span>
      )}
      {node.compactions && node.compactions.length > 0 && (
        <span
          class="hint hint-compacted"
          data-testid="compacted"
          title={`The conversation was compacted ${node.compactions.length === 1 ? 'once' : `${node.compactions.length} times`}: older messages replaced by a summary (before ${node.compactions.map((c) => c.step).join(', ')})`}
        >
          compacted ×{node.compactions.length}
        </span>
      )}
      {node.error && <span class="hint hint-error">{node.error.code ?? node.error.name}</span>}
      {item.failedBelow > 0 && (
        <span
          class="hint hint-failed-inside"
          data-testid="failed-inside"
          title="Tool calls, child runs or attempts that failed below this node"
        >
          {item.failedBelow} failed inside
        </span>
      )}
    </>
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
