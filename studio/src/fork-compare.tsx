import { useEffect, useState } from 'preact/hooks';
import { childTraceOf } from '../../src/host/child-trace.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { fetchTrace } from './api.js';
import { runHref } from './use-hash-route.js';

/**
 * A fork's lineage above its run: "forked from <run> at <record>" (a link to that run), and
 * the button that compares the two runs ({@link ForkCompare}).
 */
export function ForkLineage({ trace }: { trace: Trace }) {
  const from = trace.forkedFrom!;
  const [comparing, setComparing] = useState(false);
  return (
    <section class="fork-lineage" data-testid="fork-lineage">
      <p>
        Forked from{' '}
        <a href={runHref(from.runId)} class="mono" data-testid="fork-parent">
          {from.runId}
        </a>{' '}
        at <span class="mono">{from.record}</span>{' '}
        <button
          class="link"
          data-testid="fork-compare-open"
          onClick={() => setComparing(!comparing)}
        >
          {comparing ? 'Hide the comparison' : 'Compare with it'}
        </button>
      </p>
      {comparing && <ForkCompare trace={trace} />}
    </section>
  );
}

/** A node that carries a record name, with the record it stands for. */
interface Named {
  record: string;
  node: TraceNode;
}

/**
 * Every node of a trace that carries a record name (model calls, tool executions; an
 * answered approval as its own record beside its tool's), child runs included, in about the
 * order their records were made.
 */
export function namedNodes(trace: Trace): Named[] {
  const found: Named[] = [];
  const visit = (node: TraceNode) => {
    if (node.record) {
      if (node.approval && node.approval.status !== 'pending')
        found.push({ record: node.record.replace(/^tool /, 'approval '), node });
      found.push({ record: node.record, node });
    }
    node.children.forEach(visit);
    const child = childTraceOf(node);
    if (child) visit(child.root);
  };
  visit(trace.root);
  // a model call is recorded as its answer comes, before the tools it asked for run; an
  // approval when it is answered; a tool execution when it ends
  const recordedAt = ({ record, node }: Named) =>
    Date.parse(
      record.startsWith('approval ')
        ? (node.approval?.answeredAt ?? node.startedAt)
        : node.kind === 'model'
          ? node.startedAt
          : (node.endedAt ?? node.startedAt),
    );
  return found
    .map((named, index) => ({ named, index }))
    .sort((a, b) => recordedAt(a.named) - recordedAt(b.named) || a.index - b.index)
    .map(({ named }) => named);
}

/** The trace of the run a fork came from, once read, or why it could not be. */
function useParentTrace(runId: string): { parent?: Trace; error?: string } {
  const [state, setState] = useState<{ parent?: Trace; error?: string }>({});
  useEffect(() => {
    let live = true;
    void fetchTrace(runId).then((found) => {
      if (live) setState('trace' in found ? { parent: found.trace } : { error: found.error });
    });
    return () => {
      live = false;
    };
  }, [runId]);
  return state;
}

/** One side's node of a record, in a few words. */
function said(named: Named | undefined): string {
  if (!named) return 'not recorded';
  const { node, record } = named;
  if (record.startsWith('approval ')) {
    const approval = node.approval!;
    return `${approval.status}${approval.reason ? `: ${approval.reason}` : ''}`;
  }
  if (node.kind === 'model') return `${node.name}${node.replayed ? ' (replayed)' : ''}`;
  if (node.output !== undefined) {
    const output = (node.output as { trace?: unknown; output?: unknown })?.trace
      ? (node.output as { output?: unknown }).output
      : node.output;
    const text = typeof output === 'string' ? output : JSON.stringify(output);
    return text.length > 160 ? `${text.slice(0, 157)}...` : text;
  }
  return node.status;
}

/**
 * A fork beside the run it was forked from: the records they share before the fork point
 * (folded, counted), the changed record on both sides, then each side's records after it.
 */
export function ForkCompare({ trace }: { trace: Trace }) {
  const from = trace.forkedFrom!;
  const { parent, error } = useParentTrace(from.runId);
  if (error)
    return (
      <p class="notice-error" data-testid="fork-compare-error">
        Studio cannot read {from.runId}: {error}
      </p>
    );
  if (!parent) return <p class="muted">Loading {from.runId}...</p>;
  const before = namedNodes(parent);
  const mine = namedNodes(trace);
  const at = before.findIndex((named) => named.record === from.record);
  const shared = at < 0 ? [] : before.slice(0, at);
  const sharedNames = new Set(shared.map((named) => named.record));
  const theirs = at < 0 ? before : before.slice(at + 1);
  const ours = mine.filter(
    (named) => !sharedNames.has(named.record) && named.record !== from.record,
  );
  const changedHere = mine.find((named) => named.record === from.record);
  return (
    <div class="fork-compare" data-testid="fork-compare">
      <SharedRecords shared={shared} />
      <table class="fork-sides">
        <thead>
          <tr>
            <th />
            <th>{from.runId} (recorded)</th>
            <th>{trace.runId} (fork)</th>
          </tr>
        </thead>
        <tbody>
          <tr class="fork-changed" data-testid="fork-changed">
            <th class="mono">{from.record}</th>
            <td>{at < 0 ? 'not found' : said(before[at])}</td>
            <td>{said(changedHere)}</td>
          </tr>
          <tr class="fork-after">
            <th>after it</th>
            <td data-testid="fork-after-parent">
              <SideList items={theirs} />
            </td>
            <td data-testid="fork-after-fork">
              <SideList items={ours} />
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** The records both runs share before the fork point, folded and counted. */
function SharedRecords({ shared }: { shared: Named[] }) {
  const [showShared, setShowShared] = useState(false);
  return (
    <div class="fork-shared" data-testid="fork-shared">
      <button class="link" onClick={() => setShowShared(!showShared)}>
        {showShared ? '▾' : '▸'} {shared.length} shared record{shared.length === 1 ? '' : 's'}{' '}
        before the fork point (replayed, nothing made again)
      </button>
      {showShared && (
        <ul class="mono">
          {shared.map((named) => (
            <li key={named.record}>{named.record}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SideList({ items }: { items: Named[] }) {
  if (items.length === 0) return <p class="muted">nothing</p>;
  return (
    <ol>
      {items.map((named, index) => (
        <li key={`${named.record}-${index}`}>
          <span class="mono">{named.record}</span>: {said(named)}
        </li>
      ))}
    </ol>
  );
}
