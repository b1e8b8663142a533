/** Formats a duration in ms: `450 ms`, `1.25 s`, `3 m 05 s`, `2 h 04 m`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600)
    return `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(seconds / 3600)} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')} m`;
}

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
