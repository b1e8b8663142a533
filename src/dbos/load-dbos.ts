import { SystemError } from '../errors/index.js';

/** The DBOS SDK module (`@dbos-inc/dbos-sdk`), an optional peer dependency of June. */
export type DbosSdk = typeof import('@dbos-inc/dbos-sdk');

let loaded: Promise<DbosSdk> | undefined;

/**
 * Loads `@dbos-inc/dbos-sdk` once. Only runs over a database need it, so it is an optional
 * peer dependency: install it beside June to use `june/dbos` or `--database`.
 *
 * @throws {SystemError} `dbos-missing` naming the package to install when it cannot be loaded.
 */
export function loadDbos(): Promise<DbosSdk> {
  loaded ??= import('@dbos-inc/dbos-sdk').catch((error: unknown) => {
    loaded = undefined;
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new SystemError(
        'dbos-missing',
        'june: runs over a database (--database, june worker, june/dbos) need the DBOS SDK, an optional peer dependency of june: run `npm install @dbos-inc/dbos-sdk@^5.3` in your project.',
        { cause: error },
      );
    throw error;
  });
  return loaded;
}
