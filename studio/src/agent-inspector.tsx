import type { CapabilityProvenance } from '../../src/capabilities/scope.js';
import { Facts, Section } from './section.js';
import { toolCallsOf, type TreeItem } from './trace-tree.js';

/**
 * An agent: its model, the tools it declared (Capabilities: name, where it came from, whether
 * its calls asked for approval, composite) and the tools it inherited (Inherited: name and
 * what it was granted from), as its trace node records them.
 */
export function AgentInspector({
  item,
  onSelect,
}: {
  item: TreeItem;
  onSelect(key: string): void;
}) {
  const capabilities = item.node.capabilities;
  const calls = new Map<string, TreeItem[]>();
  for (const call of toolCallsOf(item))
    calls.set(call.node.name, [...(calls.get(call.node.name) ?? []), call]);
  const own = capabilities?.filter((capability) => capability.granted === undefined) ?? [];
  const inherited = capabilities?.filter((capability) => capability.granted !== undefined) ?? [];
  return (
    <>
      <Facts
        rows={[
          ['Model', item.node.model],
          [
            'Tools',
            capabilities &&
              `${capabilities.length} (${own.length} declared here, ${inherited.length} inherited)`,
          ],
        ]}
      />
      <Section title="Capabilities" testId="capabilities">
        {!capabilities ? (
          <p class="muted">
            This agent records no capabilities: it declared none, or only used the tools prop.
          </p>
        ) : own.length === 0 ? (
          <p class="muted">Nothing declared here; every tool is inherited.</p>
        ) : (
          <table class="caps">
            <thead>
              <tr>
                <th>Name</th>
                <th>Source</th>
                <th>Approval</th>
                <th>Calls</th>
              </tr>
            </thead>
            <tbody>
              {own.map((capability) => (
                <tr key={capability.name} data-capability={capability.name}>
                  <td>
                    <span class="mono">{capability.name}</span>{' '}
                    {capability.composite && (
                      <span
                        class="tag tag-composite"
                        title="Runs a workflow of its own: each call is a child run"
                      >
                        composite
                      </span>
                    )}
                  </td>
                  <td class="mono source">{capability.source}</td>
                  <td>{approvalText(calls.get(capability.name))}</td>
                  <td>
                    <CallsLink calls={calls.get(capability.name)} onSelect={onSelect} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="Inherited" testId="inherited">
        {inherited.length === 0 ? (
          <p class="muted">
            Nothing inherited. A nested agent gets a parent's tool only through {'<Inherit>'}.
          </p>
        ) : (
          <table class="caps">
            <thead>
              <tr>
                <th>Name</th>
                <th>Granted from</th>
                <th>Approval</th>
                <th>Calls</th>
              </tr>
            </thead>
            <tbody>
              {inherited.map((capability: CapabilityProvenance) => (
                <tr key={capability.name} data-capability={capability.name}>
                  <td>
                    <span class="mono">{capability.name}</span>{' '}
                    {capability.composite && <span class="tag tag-composite">composite</span>}
                  </td>
                  <td>
                    <div class="mono source">{capability.granted}</div>
                    <div class="muted small">through {capability.source}</div>
                  </td>
                  <td>{approvalText(calls.get(capability.name))}</td>
                  <td>
                    <CallsLink calls={calls.get(capability.name)} onSelect={onSelect} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
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
