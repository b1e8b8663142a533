/**
 * The other side of a database of runs (`databaseRunHost`): the worker process that runs
 * them. `june worker` starts it here, so that the CLI reaches the database through the host
 * layer only, as every entry point does (`src/host/`). Loaded on demand: it needs
 * `@dbos-inc/dbos-sdk`.
 *
 * - `startWorker(options)`: connects to the database, registers the workflows by name and
 *   takes their queued runs (see `june/dbos`'s `startWorker`);
 * - `safeUrl(url)`: the database URL without its password, for messages.
 *
 * @example
 * ```ts
 * const { startWorker } = await databaseWorker();
 * const worker = await startWorker({ database: url, workflows: { release: { component: Release } } });
 * ```
 */
export async function databaseWorker() {
  const { startWorker, safeUrl } = await import('../dbos/cli-support.js');
  return { startWorker, safeUrl };
}
