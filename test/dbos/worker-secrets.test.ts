// Secrets of a run carried across machines: `june run --database` with --secret-props,
// --redact-env and --redact-pattern stores none of their values in PostgreSQL (secret props
// travel by name, variables by name, patterns as expressions), the worker gives the run the
// real values (its own --secret-props and environment) and redacts what it stores as june run
// would, with its own --redact-env on top; a recovering worker's journal-mismatch shows no
// secret the run redacts, even one recorded in clear.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { june } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import {
  ledgerProject,
  linesWith,
  pgDump,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

const missing = postgresMissing();
const keysSource = readFileSync(new URL('./fixtures/keys.tsx', import.meta.url), 'utf8');
const apiKey = 'ak-9f8e7d6c5b4a3210';
const pin = 'pin-4d5e6f7a8b9c';
// longer than the 80 characters a mismatch shows after the first difference
const root = `root-${'0a1b2c3d4e5f6a7b8c9d'.repeat(5)}`;
const live = 'sk-live-4c5d6e7f8a9b';

describe.runIf(!missing)('secrets of a run over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  const workers: WorkerProcess[] = [];
  const clients: RunClient[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    project = ledgerProject();
    project.write('keys.tsx', keysSource);
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const worker of workers) await worker.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  async function worker(database: string, executor: string, args: string[], env = {}) {
    const started = await startWorker(project.dir, database, executor, {
      files: ['keys.tsx', ...args],
      env: { KEYS_PIN: pin, KEYS_ROOT: root, ...env },
    });
    workers.push(started);
    return started;
  }

  it('stores no value of --secret-props, --redact-env or --redact-pattern; the worker gives the run the real ones', async () => {
    const database = pg.url('june_secrets');
    await worker(database, 'keys-a', [
      '--secret-props',
      JSON.stringify({ apiKey }),
      '--redact-env',
      'KEYS_ROOT',
    ]);
    const logs = project.folder('logs-a');
    const run = (props: Record<string, unknown>, extra: string[] = [], env = {}) =>
      june(
        [
          'run',
          'keys.tsx',
          '--database',
          database,
          '--props',
          JSON.stringify(props),
          '--secret-props',
          JSON.stringify({ apiKey }),
          '--redact-env',
          'KEYS_PIN',
          '--redact-pattern',
          'sk-live-[a-z0-9]+',
          ...extra,
        ],
        project.dir,
        env,
      );

    // KEYS_PIN is not set here: it travels by name, the worker redacts its value there
    const followed = await run({ dir: logs }, ['--follow', '--approve', 'all']);
    expect(followed.stderr).toBe('');
    expect(followed.code).toBe(0);
    expect(followed.stdout).toContain('[redacted]');
    expect(linesWith(followed.stdout, [apiKey, pin, root, live])).toEqual([]);
    // the run worked with the real values
    expect(readFileSync(join(logs, 'seen'), 'utf8')).toBe(`${apiKey}|${pin}|${root}`);

    // a prop holding a secret the run redacts is refused: props are stored
    const refused = await run({ dir: logs, note: `the pin is ${pin}` }, [], { KEYS_PIN: pin });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^june: the prop "note" of the run holds a secret/);

    const dump = pgDump(database);
    expect(dump).toContain('KEYS_PIN'); // names travel, values do not
    expect(linesWith(dump, [apiKey, pin, root, live])).toEqual([]);
  }, 120_000);

  it('fails a run whose secret props the worker was not given', async () => {
    const client = await RunClient.connect(pg.url('june_secrets'));
    clients.push(client);
    await client.enqueue({
      workflow: 'keys',
      runId: 'keys-missing',
      props: { dir: project.folder('logs-m') },
      secretProps: ['apiKey', 'region'],
    });
    await expect(client.result('keys-missing')).rejects.toMatchObject({
      code: 'dbos-secret-props-missing',
      message: expect.stringMatching(/^june: the run keys-missing takes the secret prop "region"/),
    });
  }, 60_000);

  it("shows a recovered run's journal-mismatch redacted with the run's redactor, even against a record kept in clear", async () => {
    const database = pg.url('june_mismatch');
    // the first worker is not told KEYS_ROOT is a secret: the run records it in clear
    const first = await worker(database, 'keys-m', []);
    const client = await RunClient.connect(database);
    clients.push(client);
    const logs = project.folder('logs-r');
    await client.enqueue({
      workflow: 'keys',
      runId: 'keys-r',
      props: { dir: logs, apiKey: 'plain', hold: true },
    });
    await waitFor(() => existsSync(join(logs, 'holding')), 60_000, 'the tool to hold');
    await first.kill();
    workers.splice(workers.indexOf(first), 1);
    // restarted told to redact it, with a changed workflow: the prompt differs just after it
    await worker(database, 'keys-m', ['--redact-env', 'KEYS_ROOT'], { KEYS_VARIANT: '2' });

    const error = (await client.result('keys-r').then(
      () => undefined,
      (failure: unknown) => failure,
    )) as { code?: string; message: string; comparison?: unknown } | undefined;
    expect(error?.code).toBe('journal-mismatch');
    expect(error?.message).toContain('recorded "…');
    expect(error?.message).toContain('[redacted] (variant 2)');
    // no piece of the root value either: a secret cut by the message is found by no redaction later
    const shown = JSON.stringify({ message: error?.message, comparison: error?.comparison });
    expect(shown).not.toContain(root.slice(0, 24));
    expect(shown).not.toContain(root.slice(-24));
  }, 120_000);
});

describe.runIf(missing)('secrets of a run over DBOS', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
