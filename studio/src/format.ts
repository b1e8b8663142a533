/** A duration for people: the CLI's form (`450 ms`, `1.2 s`, `3 min 5 s`, `2 h 4 min`). */
export { formatDuration } from '../../src/trace/format-duration.js';
/** A cost for people, as the CLI writes it (`$0.0056`), and a subtree's in words (`$0.0056 (cost unknown for 2 calls)`). */
export { formatUsd, costText } from '../../src/trace/subtree-cost.js';

/** Formats a token count with thousands separators: `12,345`; empty when unknown. */
export function formatTokens(tokens: number | undefined): string {
  return tokens === undefined ? '' : tokens.toLocaleString('en-US');
}

/** Formats an ISO 8601 time in local time: `2026-11-29 19:03:10`. */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** How long something took: its `durationMs`, or the time since it started while it runs. */
export function elapsedMs(
  startedAt: string,
  durationMs: number | undefined,
  running: boolean,
  now: number,
): number | undefined {
  if (durationMs !== undefined) return durationMs;
  if (!running) return undefined;
  const started = Date.parse(startedAt);
  return Number.isNaN(started) ? undefined : Math.max(0, now - started);
}
