import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { errorMessage, SystemError } from '../errors/index.js';
import { oneLine } from './format.js';

/** What {@link checkEvalStore} found: evalite and its store load in this Node. */
export interface EvalStoreCheck {
  /** evalite's version, from its package.json. */
  evalite: string;
  /** better-sqlite3's version, from its package.json. */
  sqlite: string;
  /** The better-sqlite3 folder evalite loads, absolute. */
  sqliteDir: string;
}

/**
 * Loads evalite's results store the way evalite does, before evalite runs: resolves
 * `evalite` from `cwd`, then `better-sqlite3` from evalite's own folder, and opens an
 * in-memory database with it (which loads its native addon).
 *
 * @param cwd - the folder evalite would run in.
 * @throws {SystemError} `eval-runner-missing` when `cwd` cannot import evalite;
 *   `eval-store-unloadable` when better-sqlite3 is missing or does not load in this Node
 *   (built for another one: `NODE_MODULE_VERSION` differs). The message ends with the exact
 *   command that rebuilds it.
 * @example
 * ```ts
 * const { evalite, sqlite } = checkEvalStore(process.cwd()); // { evalite: '0.19.0', sqlite: '12.4.1', ... }
 * ```
 */
export function checkEvalStore(cwd: string): EvalStoreCheck {
  const fromCwd = createRequire(join(cwd, 'noop.js'));
  let evaliteMain: string;
  try {
    evaliteMain = fromCwd.resolve('evalite');
  } catch (error) {
    throw new SystemError(
      'eval-runner-missing',
      `june: cannot find evalite from ${cwd}: install it in the project with npm install --save-dev evalite vitest.`,
      { cause: error },
    );
  }
  const evaliteDir = packageDir(evaliteMain);
  const fromEvalite = createRequire(evaliteMain);
  let sqliteMain: string;
  try {
    sqliteMain = fromEvalite.resolve('better-sqlite3');
  } catch (error) {
    throw new SystemError(
      'eval-store-unloadable',
      `june: evalite (${evaliteDir}) cannot find better-sqlite3, where it keeps its results. Install it again in the project: npm install --save-dev evalite.`,
      { cause: error },
    );
  }
  const sqliteDir = packageDir(sqliteMain);
  try {
    const Database = fromEvalite(sqliteMain) as new (file: string) => { close(): void };
    new Database(':memory:').close();
  } catch (error) {
    throw new SystemError('eval-store-unloadable', unloadableMessage(error, sqliteDir), {
      cause: error,
    });
  }
  return {
    evalite: versionOf(fromEvalite, evaliteDir),
    sqlite: versionOf(fromEvalite, sqliteDir),
    sqliteDir,
  };
}

/** The message for a better-sqlite3 that does not load, with the command that rebuilds it. */
function unloadableMessage(error: unknown, sqliteDir: string): string {
  const text = oneLine(errorMessage(error)).replace(/\.$/, '');
  const built = /NODE_MODULE_VERSION (\d+)/.exec(text)?.[1];
  const why =
    built !== undefined && built !== process.versions.modules
      ? `was built for another Node.js (NODE_MODULE_VERSION ${built}), and this one (${process.version}) needs NODE_MODULE_VERSION ${process.versions.modules}`
      : `does not load in Node.js ${process.version}: ${text}`;
  return `june: evalite cannot open its results database: better-sqlite3 (${sqliteDir}) ${why}. Rebuild it for this Node: ${rebuildCommand(sqliteDir)}`;
}

/**
 * `cd <project> && npm rebuild better-sqlite3`, with `npm_config_nodedir` set to this Node's
 * own folder when it has its headers: npm would otherwise build with the headers its config
 * names (an older system Node's, with `nodedir=/usr`), the mistake that made the mismatch.
 */
export function rebuildCommand(sqliteDir: string): string {
  const project = dirname(dirname(sqliteDir));
  const nodeDir = dirname(dirname(process.execPath));
  const headers = existsSync(join(nodeDir, 'include', 'node', 'node_version.h'));
  const env = headers ? `npm_config_nodedir=${shellWord(nodeDir)} ` : '';
  return `cd ${shellWord(project)} && ${env}npm rebuild better-sqlite3`;
}

/** The package folder of a file a package's entry resolved to: the folder under `node_modules`. */
function packageDir(entry: string): string {
  const parts = entry.split(sep);
  const at = parts.lastIndexOf('node_modules');
  const name = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + name).join(sep);
}

function versionOf(load: NodeJS.Require, dir: string): string {
  try {
    return (load(join(dir, 'package.json')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function shellWord(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
