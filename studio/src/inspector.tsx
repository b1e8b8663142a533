import type { TraceNode } from '../../src/trace/trace-node.js';
import { AgentInspector } from './agent-inspector.js';
import { ErrorSection } from './error-section.js';
import {
  costText,
  elapsedMs,
  formatDuration,
  formatTime,
  formatTokens,
  formatUsd,
} from './format.js';
import { Facts, Section } from './section.js';
import { StatusBadge } from './status-badge.js';
import { StepInspector } from './step-inspector.js';
import { ToolInspector } from './tool-inspector.js';
import { ForkPanel } from './fork-panel.js';
import { isChildRun, labelOf, type TreeItem } from './trace-tree.js';

/** The selected node in detail: what every node has, then what its kind adds. */
export function Inspector({
  item,
  now,
  onSelect,
  runId,
  forks,
}: {
  item: TreeItem;
  now: number;
  onSelect(key: string): void;
  /** The run on the page, which "Fork from here" forks. */
  runId?: string;
  /** Set when this Studio forks runs (`RunList.forks`); "Fork from here" shows only then. */
  forks?: { modelChoice: boolean };
}) {
  const { node } = item;
  const running = node.status === 'running' || node.status === 'waiting';
  return (
    <aside
      class="inspector"
      data-testid="inspector"
      data-kind={node.kind}
      data-name={node.name}
      aria-label="Inspector"
    >
      <header class="inspector-head">
        <span class={`kind kind-${node.kind}`}>{isChildRun(item) ? 'child run' : node.kind}</span>
        <h2>{labelOf(node)}</h2>
        <StatusBadge status={node.status} />
      </header>
      <Facts
        rows={[
          ['Started', formatTime(node.startedAt)],
          ['Ended', formatTime(node.endedAt)],
          ['Duration', formatDuration(elapsedMs(node.startedAt, node.durationMs, running, now))],
          ['Tokens', tokensText(node, item.tokens)],
          ['Cost', costText(item.spent) || undefined],
        ]}
      />
      <ErrorSection item={item} />
      {node.kind === 'run' && <RunFacts item={item} onSelect={onSelect} />}
      {node.kind === 'agent' && <AgentInspector item={item} onSelect={onSelect} />}
      {node.kind === 'step' && <StepInspector node={node} />}
      {node.kind === 'model' && <ModelFacts node={node} />}
      {node.kind === 'tool' && <ToolInspector item={item} onSelect={onSelect} />}
      {(node.kind === 'parallel' || node.kind === 'branch') && <ParallelFacts node={node} />}
      {runId !== undefined && forks && (node.kind === 'model' || node.kind === 'tool') && (
        <ForkPanel key={item.key} runId={runId} node={node} modelChoice={forks.modelChoice} />
      )}
    </aside>
  );
}

/** A `<Parallel>`'s branches and settings, or one branch's key. */
function ParallelFacts({ node }: { node: TraceNode }) {
  if (node.kind === 'branch')
    return (
      <Section title="Branch">
        <Facts
          rows={[
            ['Key', node.branch ?? node.name],
            ['Declared', `the branch "${node.branch ?? node.name}" of <Parallel>`],
          ]}
        />
      </Section>
    );
  return (
    <Section title="Parallel">
      <Facts
        rows={[
          ['Branches', node.branches?.join(', ')],
          ['Mode', node.mode],
          ['At once', node.limit !== undefined ? String(node.limit) : 'all'],
        ]}
      />
    </Section>
  );
}

/**
 * A model call's price in words: where it came from and its main rates, per million tokens
 * (`catalog openai/gpt-5-mini: $0.25 in, $0.025 cached, $2 out per million tokens`).
 */
function priceText(node: TraceNode): string | undefined {
  const price = node.price;
  if (!price) return node.usage ? 'none (the model has no price)' : undefined;
  const from =
    price.source === 'catalog'
      ? `catalog ${[price.provider, price.model].filter(Boolean).join('/')}`
      : `prices option "${price.model ?? ''}"`;
  const rate = (key: string) => {
    const value = price.rates[key];
    return typeof value === 'number'
      ? formatUsd(value)
      : value
        ? `from ${formatUsd(value.base)}`
        : undefined;
  };
  const rates = (
    [
      ['input_mtok', 'in'],
      ['cache_read_mtok', 'cached'],
      ['output_mtok', 'out'],
    ] as const
  )
    .map(([key, what]) => (rate(key) ? `${rate(key)} ${what}` : undefined))
    .filter(Boolean);
  return rates.length > 0 ? `${from}: ${rates.join(', ')} per million tokens` : from;
}

function tokensText(node: TraceNode, total: number | undefined): string | undefined {
  if (total === undefined) return undefined;
  const usage = node.usage;
  if (
    usage &&
    usage.totalTokens === total &&
    (usage.inputTokens !== undefined || usage.outputTokens !== undefined)
  ) {
    return `${formatTokens(total)} (${formatTokens(usage.inputTokens ?? 0)} in, ${formatTokens(usage.outputTokens ?? 0)} out)`;
  }
  return formatTokens(total);
}

function RunFacts({ item, onSelect }: { item: TreeItem; onSelect(key: string): void }) {
  const trace = item.trace;
  const call = isChildRun(item) ? item.parent : undefined;
  return (
    <Section title={call ? 'Child run' : 'Run'} testId="run">
      <Facts
        rows={[
          ['Run id', trace && <span class="mono">{trace.runId}</span>],
          ['Workflow', trace?.workflow],
          [
            'Called by',
            call && (
              <button class="link" onClick={() => onSelect(call.key)}>
                the tool call {call.node.name} <span class="mono">{call.node.toolCallId}</span>
              </button>
            ),
          ],
        ]}
      />
      {call && (
        <p class="muted">
          A composite tool runs a workflow of its own for each call; this is that run, nested under
          its call.
        </p>
      )}
    </Section>
  );
}

function ModelFacts({ node }: { node: TraceNode }) {
  const usage = node.usage;
  return (
    <Section title="Model call" testId="model">
      <Facts
        rows={[
          ['Model', node.model ?? node.name],
          ['Finish reason', node.finishReason],
          ['Input tokens', formatTokens(usage?.inputTokens)],
          ['Cached input', formatTokens(usage?.inputTokenDetails?.cacheReadTokens)],
          ['Output tokens', formatTokens(usage?.outputTokens)],
          ['Reasoning', formatTokens(usage?.outputTokenDetails?.reasoningTokens)],
          ['Total tokens', formatTokens(usage?.totalTokens)],
          ['Price', priceText(node)],
        ]}
      />
    </Section>
  );
}
