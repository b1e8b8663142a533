import type { TraceNode } from '../../src/trace/trace-node.js';
import { CompareButton } from './compare-button.js';
import { declarationOf, placeOf } from './declaration-of.js';
import { Facts, Section } from './section.js';
import type { TreeItem } from './trace-tree.js';

/** A node's error: its code, name and blame, the declaration it came from and where, its message. */
export function ErrorSection({ item }: { item: TreeItem }) {
  const error = item.node.error as (TraceNode['error'] & { blame?: unknown }) | undefined;
  if (!error) return null;
  const declaration = declarationOf(item);
  const place = placeOf(item);
  return (
    <Section title="Error" testId="error">
      <Facts
        rows={[
          ['Code', error.code && <span class="mono">{error.code}</span>],
          ['Name', error.name],
          ['Blame', typeof error.blame === 'string' ? error.blame : undefined],
          ['Declared by', declaration && <span class="mono">{declaration}</span>],
          ['In', place && <span class="mono">{place}</span>],
        ]}
      />
      <pre class="text error-text">{error.message}</pre>
      {error.comparison && (
        <CompareButton comparison={error.comparison} label="Compare recorded and new" />
      )}
    </Section>
  );
}
