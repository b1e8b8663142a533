import { childTraceOf } from '../../src/host/child-trace.js';
import { formatTokens } from './format.js';
import { JsonView } from './json-view.js';
import { Facts, Section } from './section.js';
import { GuardsSection } from './guards-section.js';
import { StatusBadge } from './status-badge.js';
import type { TraceNode } from '../../src/trace/trace-node.js';
import { enclosingAgent, isHeld, type TreeItem } from './trace-tree.js';

/** A tool call: its input, the approval it waited for and the answer, its output (a composite's child run), its error. */
export function ToolInspector({ item, onSelect }: { item: TreeItem; onSelect(key: string): void }) {
  const { node } = item;
  const childRun = childTraceOf(node);
  const composite =
    childRun !== undefined ||
    enclosingAgent(item)?.node.capabilities?.some(
      (capability) => capability.name === node.name && capability.composite,
    );
  const approval = node.approval;
  return (
    <>
      <Facts
        rows={[['Tool call id', node.toolCallId && <span class="mono">{node.toolCallId}</span>]]}
      />
      <Section title="Input" testId="input">
        {node.input !== undefined ? (
          <JsonView value={node.input} />
        ) : (
          <p class="muted">No input recorded.</p>
        )}
      </Section>
      <GuardsSection node={node} />
      {approval && <ApprovalSection approval={approval} />}
      <Section title="Output" testId="output">
        {childRun ? (
          <JsonView value={(node.output as { output?: unknown }).output} />
        ) : node.output !== undefined ? (
          <JsonView value={node.output} />
        ) : (
          <p class="muted">
            {isHeld(node)
              ? 'The call was answered and waits for the other approval requests of its model turn: its step goes on once each is answered.'
              : node.status === 'running' || node.status === 'waiting'
                ? 'The call is running.'
                : 'No output.'}
          </p>
        )}
      </Section>
      {composite && <ChildRunSection item={item} onSelect={onSelect} />}
    </>
  );
}

/** The approval a call waited for: the request, the answer, who gave it and why. */
function ApprovalSection({ approval }: { approval: NonNullable<TraceNode['approval']> }) {
  return (
    <Section title="Approval" testId="approval">
      <Facts
        rows={[
          ['Request', <span class="mono">{approval.id}</span>],
          ['Answer', approval.status === 'pending' ? 'waiting for an answer' : approval.status],
          ['Answered by', approval.status === 'pending' ? undefined : answerer(approval)],
          ['Reason', approval.reason],
          [
            'Escalated by',
            approval.guard &&
              `${approval.guard.name}: ${approval.guard.reason ?? 'no reason given'}`,
          ],
        ]}
      />
    </Section>
  );
}

/**
 * Who answered: a policy, the name the source gave, or a person; through which source and
 * when in its hover text (and `data-source`, `data-answered-at`).
 */
function answerer(approval: NonNullable<TraceNode['approval']>) {
  const who = approval.automatic ? 'a policy (automatic)' : (approval.answeredBy ?? 'a person');
  const via = approval.source !== undefined ? `through ${approval.source}` : '';
  const at = approval.answeredAt !== undefined ? ` at ${approval.answeredAt}` : '';
  return (
    <span
      data-testid="answerer"
      data-source={approval.source}
      data-answered-at={approval.answeredAt}
      title={`${via}${at}`.trim() || undefined}
    >
      {who}
    </span>
  );
}

/** A composite tool call's child run (a link to it in the tree), or that it shows when the call ends. */
function ChildRunSection({ item, onSelect }: { item: TreeItem; onSelect(key: string): void }) {
  const childRun = childTraceOf(item.node);
  const childItem = childRun ? item.children.find((child) => child.trace === childRun) : undefined;
  return (
    <Section title="Child run" testId="child-run">
      {childRun && childItem ? (
        <div class="child-run">
          <button class="link" onClick={() => onSelect(childItem.key)}>
            {childRun.workflow ?? childRun.root.name}
          </button>{' '}
          <span class="mono muted">{childRun.runId}</span> <StatusBadge status={childRun.status} />{' '}
          {childItem.tokens !== undefined && (
            <span class="muted">{formatTokens(childItem.tokens)} tokens</span>
          )}
          <p class="muted">Nested under this call in the tree.</p>
        </div>
      ) : (
        <p class="muted">
          This tool runs a workflow of its own; its child run shows here when the call ends.
        </p>
      )}
    </Section>
  );
}
