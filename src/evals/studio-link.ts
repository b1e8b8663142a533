/** Where `june studio` serves by default: port 4000 on loopback (see docs/studio.md). */
export const DEFAULT_STUDIO_URL = 'http://127.0.0.1:4000/';

/**
 * The link that opens one run in June Studio: Studio's page with the run's route,
 * `#/runs/<runId>` (the id URI-encoded), the way Studio's own run list links to a run.
 * Anything after the page's path in `studio` (a hash, a query such as `?token=...`) is kept
 * but the hash, which becomes the run's.
 *
 * @param studio - where Studio serves, e.g. `http://127.0.0.1:4000/` or `studio.pageUrl`.
 * @example
 * ```ts
 * studioRunUrl('http://127.0.0.1:4000/', '20261130-120301-3fa94c1e27b0');
 * // 'http://127.0.0.1:4000/#/runs/20261130-120301-3fa94c1e27b0'
 * ```
 */
export function studioRunUrl(studio: string, runId: string): string {
  const url = new URL(studio);
  url.hash = `/runs/${encodeURIComponent(runId)}`;
  return url.href;
}
