import {
  isUnreadable,
  type RunListEntry,
  type RunSummary,
  type UnreadableRun,
} from '../../src/host/run-list.js';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { elapsedMs, formatDuration, formatTime, formatTokens, formatUsd } from './format.js';
import { RunFilterBar } from './run-filter-bar.js';
import { filterRuns, type RunFilter } from './run-filter.js';
import { StatusBadge } from './status-badge.js';
import { runHref } from './use-hash-route.js';
import type { LiveRuns } from './use-live-runs.js';
import { useNow } from './use-now.js';

/** How long a running run's file may go unchanged before the list says so, in ms. */
const STALE_MS = 60_000;
/** A run row's height before it is measured, in px (an unreadable run's row is taller). */
const RUN_ROW_HEIGHT = 37;

/** The runs in the directory, newest first, updated live; `filter` picks which (see `RunFilter`). */
export function RunsList(props: {
  live: LiveRuns;
  filter: RunFilter;
  onFilter(filter: RunFilter): void;
}) {
  const { live, filter, onFilter } = props;
  const scroller = useRef<HTMLElement>(null);
  const runs = live.runs ? sortRuns([...live.runs.values()]) : undefined;
  const now = useNow(runs?.some((run) => !isUnreadable(run) && run.status === 'running') ?? false);
  if (live.error && !runs)
    return <p class="notice notice-error">Studio could not list the runs: {live.error}</p>;
  if (!runs) return <p class="notice">Loading runs...</p>;
  if (runs.length === 0) {
    return (
      <div class="empty">
        <h2>No runs yet</h2>
        <p>
          Studio shows the traces in <code>{live.dir}</code>. Run a workflow (
          <code>npx june run workflow.tsx</code>) and it appears here as it starts.
        </p>
      </div>
    );
  }
  const shown = filterRuns(runs, filter);
  return (
    <main class="runs" ref={scroller}>
      <RunFilterBar runs={runs} filter={filter} shown={shown.length} onChange={onFilter} />
      <RunsTable runs={shown} now={now} scroller={scroller} />
    </main>
  );
}

/**
 * The runs as a table, one row each, virtual (TanStack Virtual): only the rows in view (and
 * a few around) are in the page, between two spacer rows that keep the table's height, so a
 * folder of thousands of runs lists like one of ten.
 */
function RunsTable(props: {
  runs: RunListEntry[];
  now: number;
  scroller: RefObject<HTMLElement | null>;
}) {
  const { runs, now, scroller } = props;
  const body = useRef<HTMLTableSectionElement>(null);
  const [offset, setOffset] = useState(0);
  const virtualizer = useVirtualizer({
    count: runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => RUN_ROW_HEIGHT,
    overscan: 20,
    scrollMargin: offset,
    getItemKey: (index) => runs[index]!.runId,
    initialRect: { width: 0, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  useLayoutEffect(() => {
    // where the rows start in the scroller (below the filters and the table's head)
    if (body.current) setOffset(body.current.offsetTop);
    // each row rendered is measured (rows differ in height), by its index in the list
    body.current?.querySelectorAll<HTMLElement>(':scope > tr.run-row').forEach((row, at) => {
      row.dataset.index = String(items[at]?.index ?? 0);
      virtualizer.measureElement(row);
    });
  });
  if (runs.length === 0) return <p class="notice">No run matches these filters.</p>;
  const before = items.length ? items[0]!.start - offset : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items.at(-1)!.end - offset) : 0;
  return (
    <table class="runs-table" data-testid="runs">
      <thead>
        <tr>
          <th>Workflow</th>
          <th>Run</th>
          <th>Started</th>
          <th class="num">Duration</th>
          <th>Status</th>
          <th class="num">Tokens</th>
          <th class="num">Cost</th>
        </tr>
      </thead>
      <tbody ref={body}>
        {before > 0 && (
          <tr class="run-spacer" aria-hidden="true" style={{ height: `${before}px` }} />
        )}
        {items.map(({ index }) => {
          const run = runs[index]!;
          return isUnreadable(run) ? (
            <UnreadableRunRow key={run.runId} run={run} />
          ) : (
            <RunRow key={run.runId} run={run} now={now} />
          );
        })}
        {after > 0 && <tr class="run-spacer" aria-hidden="true" style={{ height: `${after}px` }} />}
      </tbody>
    </table>
  );
}

/** A run whose trace file Studio could not read: its file, why, and when it last changed. */
function UnreadableRunRow({ run }: { run: UnreadableRun }) {
  return (
    <tr class="run-row run-unreadable" data-run-id={run.runId} onClick={openRow(run.runId)}>
      <td>
        <a href={runHref(run.runId)}>{run.file}</a>
        <div class="run-reason">{run.unreadable}</div>
      </td>
      <td class="mono">{run.runId}</td>
      <td class="nowrap">{formatTime(run.updatedAt)}</td>
      <td class="num" />
      <td>
        <StatusBadge status="unreadable" />
      </td>
      <td class="num" />
      <td class="num" />
    </tr>
  );
}

/**
 * A run: workflow, id, start, duration (ticking while it runs), status with what failed
 * inside, tokens, cost (empty when no call had a price; its title says how many had none).
 */
function RunRow({ run, now }: { run: RunSummary; now: number }) {
  const running = run.status === 'running' || run.status === 'waiting';
  return (
    <tr
      class="run-row"
      data-run-id={run.runId}
      data-status={run.status}
      onClick={openRow(run.runId)}
    >
      <td>
        <a href={runHref(run.runId)}>{run.workflow ?? run.runId}</a>
        {run.thread && (
          <>
            {' '}
            <span class="muted run-thread" data-testid="run-thread">
              thread {run.thread.id}
              {run.thread.order !== undefined ? ` #${run.thread.order}` : ''}
            </span>
          </>
        )}
      </td>
      <td class="mono">{run.runId}</td>
      <td class="nowrap">{formatTime(run.startedAt)}</td>
      <td class="num">{formatDuration(elapsedMs(run.startedAt, run.durationMs, running, now))}</td>
      <td>
        <StatusBadge status={run.status} />
        {run.failures && (
          <span class="badge-failures run-failures" title="Failed inside a run that went on">
            {failuresText(run.failures)}
          </span>
        )}
        {run.pendingApprovals !== undefined && (
          <span class="badge-waiting" data-testid="waiting-approval">
            {run.pendingApprovals} waiting for approval
          </span>
        )}
        {run.status === 'running' && now - Date.parse(run.updatedAt) > STALE_MS && (
          <span
            class="stale muted"
            title="A run that stopped without ending (a crash, a kill) stays running in its file"
          >
            no change for {formatDuration(now - Date.parse(run.updatedAt))}
          </span>
        )}
      </td>
      <td class="num">{formatTokens(run.totalTokens)}</td>
      <td
        class="num"
        data-testid="run-cost"
        title={
          run.unpricedCalls
            ? `cost unknown for ${run.unpricedCalls} call${run.unpricedCalls === 1 ? '' : 's'}`
            : undefined
        }
      >
        {run.costUsd !== undefined ? formatUsd(run.costUsd) : ''}
      </td>
    </tr>
  );
}

function sortRuns(runs: RunListEntry[]): RunListEntry[] {
  const time = (run: RunListEntry) =>
    Date.parse(isUnreadable(run) ? run.updatedAt : run.startedAt) || 0;
  return runs.sort((a, b) => time(b) - time(a) || a.runId.localeCompare(b.runId));
}

/** `1 tool failed · 1 child run failed · 1 failure caught`: what failed inside a run without failing it. */
function failuresText(failures: NonNullable<RunSummary['failures']>): string {
  const childRuns = failures.childRuns ?? 0;
  const tools = failures.tools - childRuns;
  const parts: string[] = [];
  if (tools > 0) parts.push(`${tools} tool${tools === 1 ? '' : 's'} failed`);
  if (childRuns > 0) parts.push(`${childRuns} child run${childRuns === 1 ? '' : 's'} failed`);
  if (failures.caught > 0)
    parts.push(`${failures.caught} failure${failures.caught === 1 ? '' : 's'} caught`);
  return parts.join(' · ');
}

/**
 * Opens the run when its row is clicked anywhere, but for a click on a link or button of its
 * own, or one that ends a text selection (copying a run id).
 */
function openRow(runId: string) {
  return (event: MouseEvent) => {
    const target = event.target as Element | null;
    if (target?.closest('a, button, input, select')) return;
    if ((getSelection()?.toString() ?? '') !== '') return;
    location.hash = runHref(runId);
  };
}
