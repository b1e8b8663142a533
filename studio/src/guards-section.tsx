import type { TraceNode } from '../../src/trace/trace-node.js';
import { Section } from './section.js';

/**
 * What the `<Guard>`s over a tool call or a step decided about it, outermost first: each
 * guard (its declaration on hover), what it checked, its action and reason, and whether the
 * run's journal gave the decision again. Nothing when no guard decided.
 */
export function GuardsSection({ node }: { node: TraceNode }) {
  const decisions = node.guards;
  if (!decisions?.length) return null;
  return (
    <Section title="Guards" testId="guards">
      <ul class="guard-decisions">
        {decisions.map((decision, index) => (
          <li key={index} data-action={decision.action}>
            <span class="mono" title={decision.declaration}>
              {decision.guard}
            </span>{' '}
            <strong>{decision.action}</strong>
            <span class="muted"> ({decision.check})</span>
            {decision.reason !== undefined && <span>: {decision.reason}</span>}
            {decision.replayed && <span class="muted"> · from the journal</span>}
          </li>
        ))}
      </ul>
    </Section>
  );
}
