import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL server for one test file: its own data folder, a free port; over
 * TCP the user `postgres` logs in with the password {@link TEST_PASSWORD}.
 */
export interface TestPostgres {
  /** `postgresql://postgres:<password>@127.0.0.1:<port>/<name>` for a database named `name` (DBOS creates it on first launch). */
  url(name: string): string;
  /** The port the server listens on (127.0.0.1). */
  port: number;
  /**
   * Shuts the server down as an administrator would (`pg_ctl stop -m fast`: every session is
   * told `terminating connection due to administrator command`), keeping its data.
   */
  shutDown(): void;
  /** Starts the server again on the same port, with the same data (after {@link shutDown}). */
  startAgain(): void;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The password of the test server's `postgres` user. */
export const TEST_PASSWORD = 'june-test';

const HINT =
  'the DBOS tests need PostgreSQL server binaries (initdb, pg_ctl): on Debian/Ubuntu `apt-get install -y postgresql`, or put a PostgreSQL bin folder on PATH, or set JUNE_PG_BIN';

/** Where PostgreSQL's `initdb` and `pg_ctl` are: `JUNE_PG_BIN`, then PATH, then Debian's versioned folders; `undefined` when none. */
export function postgresBin(): string | undefined {
  const candidates = [
    process.env.JUNE_PG_BIN,
    ...(process.env.PATH ?? '').split(':'),
    ...['17', '16', '15', '14', '13'].map((v) => `/usr/lib/postgresql/${v}/bin`),
  ];
  return candidates.find(
    (dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
}

/** Why the DBOS tests cannot run here (no PostgreSQL), or `undefined` when they can. */
export function postgresMissing(): string | undefined {
  return postgresBin() ? undefined : HINT;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PostgreSQL in a new temp folder on a free port (as the `postgres` user when run as
 * root, since initdb refuses root). About 2 s on a quiet machine.
 * @throws {Error} naming what to install when PostgreSQL is missing.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(HINT);
  const dir = mkdtempSync(join(tmpdir(), 'june-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uid('postgres'), gid('postgres'));
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args;
    const result = spawnSync(asRoot ? 'runuser' : join(bin, cmd), full, { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`${cmd} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, TEST_PASSWORD);
  if (asRoot) chownSync(pwfile, uid('postgres'), gid('postgres'));
  run('initdb', [
    '-D',
    data,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    `--pwfile=${pwfile}`,
    '-U',
    'postgres',
    '--no-sync',
  ]);
  const port = await freePort();
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
  start();
  return {
    port,
    url: (name) => `postgresql://postgres:${TEST_PASSWORD}@127.0.0.1:${port}/${name}`,
    shutDown: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    startAgain: start,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function uid(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}
function gid(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}
