import { isUnreadable, type RunListEntry } from '../../src/host/run-list.js';

/**
 * What the run list shows: runs of one workflow (`''`: all), of one thread (`''`: all; its
 * runs then in their order in the thread), of one status (`''`: all),
 * only those waiting for an approval, only those with failures inside, started on or after
 * `from` and on or before `to` (local dates, `YYYY-MM-DD`; `''`: no bound).
 */
export interface RunFilter {
  workflow: string;
  thread: string;
  status: string;
  waiting: boolean;
  failures: boolean;
  from: string;
  to: string;
}

/** No filter: every run. */
export const NO_FILTER: RunFilter = {
  workflow: '',
  thread: '',
  status: '',
  waiting: false,
  failures: false,
  from: '',
  to: '',
};

/** True when `filter` leaves some run out. */
export function isFiltering(filter: RunFilter): boolean {
  return (Object.keys(NO_FILTER) as Array<keyof RunFilter>).some(
    (key) => filter[key] !== NO_FILTER[key],
  );
}

/** The runs `filter` keeps; files Studio could not read show only when nothing is filtered. */
export function filterRuns(runs: RunListEntry[], filter: RunFilter): RunListEntry[] {
  if (!isFiltering(filter)) return runs;
  const from = filter.from ? localDay(filter.from) : undefined;
  const to = filter.to ? localDay(filter.to) + 24 * 60 * 60 * 1000 : undefined;
  const kept = runs.filter((run) => {
    if (isUnreadable(run)) return false;
    const started = Date.parse(run.startedAt);
    return (
      (filter.workflow === '' || (run.workflow ?? '') === filter.workflow) &&
      (filter.thread === '' || run.thread?.id === filter.thread) &&
      (filter.status === '' || run.status === filter.status) &&
      (!filter.waiting || (run.pendingApprovals ?? 0) > 0 || run.status === 'waiting') &&
      (!filter.failures || run.failures !== undefined) &&
      (from === undefined || started >= from) &&
      (to === undefined || started < to)
    );
  });
  // a thread's runs read as its conversation goes: first run first
  if (filter.thread !== '') kept.sort((a, b) => threadOrder(a) - threadOrder(b));
  return kept;
}

function threadOrder(run: RunListEntry): number {
  return isUnreadable(run) ? 0 : (run.thread?.order ?? Date.parse(run.startedAt));
}

/** Midnight of a `YYYY-MM-DD` day in local time, in ms since the epoch. */
function localDay(day: string): number {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date!).getTime();
}
