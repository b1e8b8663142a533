import type { CapabilityProvenance } from '../../src/capabilities/scope.js';
import type { TraceCompaction } from '../../src/trace/trace-node.js';
import { CapabilityTable, grantedFrom } from './capability-table.js';
import { Facts, Section } from './section.js';
import { toolCallsOf, type TreeItem } from './trace-tree.js';

/**
 * An agent: its model, the tools it declared (Capabilities: name, where it came from, whether
 * its calls asked for approval, composite), the tools it inherited (Inherited: name and
 * what it was granted from) and where its conversation was compacted (Compactions), as its
 * trace node records them.
 */
export function AgentInspector({
  item,
  onSelect,
}: {
  item: TreeItem;
  onSelect(key: string): void;
}) {
  const capabilities = item.node.capabilities;
  const calls = callsByTool(item);
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
      <DeclaredSection {...{ capabilities, own, calls, onSelect }} />
      <InheritedSection {...{ inherited, calls, onSelect }} />
      {item.node.compactions && <CompactionsSection compactions={item.node.compactions} />}
    </>
  );
}

/** Where the agent's conversation was compacted, what each compaction replaced, and its summary. */
function CompactionsSection({ compactions }: { compactions: TraceCompaction[] }) {
  return (
    <Section title="Compactions" testId="compactions">
      <table class="compactions">
        <thead>
          <tr>
            <th>Before step</th>
            <th>Replaced</th>
            <th>Messages</th>
            <th>By</th>
            <th>Summary</th>
          </tr>
        </thead>
        <tbody>
          {compactions.map((compaction) => (
            <tr key={`${compaction.at}-${compaction.step}`}>
              <td class="mono">{compaction.step}</td>
              <td>{compaction.replaced}</td>
              <td title={`about ${compaction.tokens.before} → ${compaction.tokens.after} tokens`}>
                {compaction.messages.before} → {compaction.messages.after}
              </td>
              <td>{compaction.by}</td>
              <td class="summary">{compaction.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** The tools the agent declared itself. */
function DeclaredSection(props: {
  capabilities: CapabilityProvenance[] | undefined;
  own: CapabilityProvenance[];
  calls: Map<string, TreeItem[]>;
  onSelect(key: string): void;
}) {
  const { capabilities, own, calls, onSelect } = props;
  return (
    <Section title="Capabilities" testId="capabilities">
      {!capabilities ? (
        <p class="muted">
          This agent records no capabilities: it declared none, or only used the tools prop.
        </p>
      ) : own.length === 0 ? (
        <p class="muted">Nothing declared here; every tool is inherited.</p>
      ) : (
        <CapabilityTable
          capabilities={own}
          sourceHead="Source"
          source={(capability) => (
            <td class="mono source">
              {capability.source}
              {capability.guards && (
                <span class="muted small" data-testid="guards">
                  {' '}
                  checked by {capability.guards.join(', ')}
                </span>
              )}
            </td>
          )}
          calls={calls}
          onSelect={onSelect}
        />
      )}
    </Section>
  );
}

/** The tools the agent inherited, with what each was granted from. */
function InheritedSection(props: {
  inherited: CapabilityProvenance[];
  calls: Map<string, TreeItem[]>;
  onSelect(key: string): void;
}) {
  const { inherited, calls, onSelect } = props;
  return (
    <Section title="Inherited" testId="inherited">
      {inherited.length === 0 ? (
        <p class="muted">
          Nothing inherited. A nested agent gets a parent's tool only through {'<Inherit>'}.
        </p>
      ) : (
        <CapabilityTable
          capabilities={inherited}
          sourceHead="Granted from"
          source={grantedFrom}
          calls={calls}
          onSelect={onSelect}
        />
      )}
    </Section>
  );
}

/** This run's calls of each tool under an agent, by tool name. */
function callsByTool(agent: TreeItem): Map<string, TreeItem[]> {
  const calls = new Map<string, TreeItem[]>();
  for (const call of toolCallsOf(agent))
    calls.set(call.node.name, [...(calls.get(call.node.name) ?? []), call]);
  return calls;
}
