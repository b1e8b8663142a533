/**
 * A duration for people, the one form the CLI and Studio print: `850 ms` under a second,
 * `1.2 s` under a minute, `2 min 5 s` under an hour, `1 h 4 min` after; an empty string for
 * a duration not known (`undefined`, `NaN`).
 *
 * @param durationMs - milliseconds (a trace node's `durationMs`); below 0 counts as 0.
 * @example
 * ```ts
 * formatDuration(1234); // '1.2 s'
 * formatDuration(125_000); // '2 min 5 s'
 * ```
 */
export function formatDuration(durationMs: number | undefined): string {
  if (durationMs === undefined || !Number.isFinite(durationMs)) return '';
  const ms = Math.max(0, durationMs);
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
