import type { JSX } from 'preact';
import type { CapabilityProvenance } from '../../src/capabilities/scope.js';
import type { TreeItem } from './trace-tree.js';

/** An inherited tool's source cell: the declaration it was granted from, and through which `<Inherit>`. */
export function grantedFrom(capability: CapabilityProvenance) {
  return (
    <td>
      <div class="mono source">{capability.granted}</div>
      <div class="muted small">through {capability.source}</div>
    </td>
  );
}

export interface CapabilityTableProps {
  capabilities: CapabilityProvenance[];
  /** The head of the column that says where each capability came from. */
  sourceHead: string;
  source(capability: CapabilityProvenance): JSX.Element;
  /** This run's calls of each tool, by name. */
  calls: Map<string, TreeItem[]>;
  onSelect(key: string): void;
}

/** One row per capability: its name (tagged when composite), where it came from, approvals, calls. */
export function CapabilityTable({
  capabilities,
  sourceHead,
  source,
  calls,
  onSelect,
}: CapabilityTableProps) {
  return (
    <table class="caps">
      <thead>
        <tr>
          <th>Name</th>
          <th>{sourceHead}</th>
          <th>Approval</th>
          <th>Calls</th>
        </tr>
      </thead>
      <tbody>
        {capabilities.map((capability) => (
          <tr key={capability.name} data-capability={capability.name}>
            <td>
              <span class="mono">{capability.name}</span>{' '}
              {capability.composite && <CompositeTag explain={capability.granted === undefined} />}
            </td>
            {source(capability)}
            <td>{approvalText(calls.get(capability.name))}</td>
            <td>
              <CallsLink calls={calls.get(capability.name)} onSelect={onSelect} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The `composite` tag; on a declared tool its title says what that means. */
function CompositeTag({ explain }: { explain: boolean }) {
  return (
    <span
      class="tag tag-composite"
      title={explain ? 'Runs a workflow of its own: each call is a child run' : undefined}
    >
      composite
    </span>
  );
}

/** What this run's calls of a tool show about approval (a declaration's own setting is not in the trace). */
function approvalText(calls: TreeItem[] | undefined): string {
  if (!calls || calls.length === 0) return 'not called';
  const asked = calls.filter((call) => call.node.approval);
  if (asked.length === 0) return 'not asked';
  const counts = new Map<string, number>();
  for (const call of asked) {
    const label = `${call.node.approval!.status}${call.node.approval!.automatic ? ' (auto)' : ''}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return `asked: ${[...counts].map(([label, count]) => `${count} ${label}`).join(', ')}`;
}

function CallsLink({
  calls,
  onSelect,
}: {
  calls: TreeItem[] | undefined;
  onSelect(key: string): void;
}) {
  if (!calls || calls.length === 0) return <span class="muted">0</span>;
  return (
    <button class="link" title="Select the first call" onClick={() => onSelect(calls[0]!.key)}>
      {calls.length}
    </button>
  );
}
