import type { TraceError } from '../../src/trace/trace-node.js';
import { CompareButton } from './compare-button.js';
import type { TraceTree } from './trace-tree.js';

/**
 * Above a run that stopped because the workflow no longer matches what its journal
 * recorded (`journal-mismatch`, on replay or resume): what differs, and a button to the two
 * versions side by side.
 */
export function MismatchBanner({ tree }: { tree: TraceTree }) {
  const error = mismatchOf(tree);
  if (!error?.comparison) return null;
  return (
    <div class="mismatch-banner" data-testid="mismatch">
      <span>
        <b>journal-mismatch:</b> {error.comparison.what} differs from what was recorded.
      </span>
      <CompareButton
        comparison={error.comparison}
        label="Compare recorded and new"
        testId="open-compare"
      />
    </div>
  );
}

/** The run's `journal-mismatch` error that has both sides: the run's own, else the first node's. */
function mismatchOf(tree: TraceTree): TraceError | undefined {
  const own = tree.root.node.error;
  if (own?.code === 'journal-mismatch' && own.comparison) return own;
  for (const item of tree.byKey.values()) {
    const error = item.node.error;
    if (error?.code === 'journal-mismatch' && error.comparison) return error;
  }
  return undefined;
}
