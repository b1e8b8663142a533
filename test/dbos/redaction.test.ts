// A run over DBOS keeps its secrets out of what PostgreSQL stores and what its client shows:
// a tool result and the model requests that carry it are recorded redacted, and a run
// stopped by journal-mismatch on recovery stores its error (comparison, trace) redacted, as
// a file journal's records are.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
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
const token = 'vault-token-7f3a9c2e5b1d';
const vaultSource = readFileSync(new URL('./fixtures/vault.tsx', import.meta.url), 'utf8');

describe.runIf(!missing)('a run over DBOS stopped by journal-mismatch', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_redaction');
    project = ledgerProject();
    project.write('vault.tsx', vaultSource);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('keeps the token out of the recorded steps, the stored error, its comparison and trace', async () => {
    const files = ['vault.tsx'];
    worker = await startWorker(project.dir, database, 'vault', {
      files,
      env: { VAULT_TOKEN: token },
    });
    client = await RunClient.connect(database); // the worker created the database
    // a folder of the run's own for its hold files
    const dir = project.folder('vault-1');
    await client.enqueue({ workflow: 'vault', runId: 'vault-1', props: { dir } });
    await waitFor(() => existsSync(join(dir, 'holding')), 60_000, 'the tool to hold');
    await worker.kill();
    worker = await startWorker(project.dir, database, 'vault', {
      files,
      env: { VAULT_TOKEN: token, VAULT_VARIANT: '2' },
    });

    const error = await client.result('vault-1').then(
      () => undefined,
      (failure: unknown) => failure as Record<string, unknown>,
    );
    expect(error).toMatchObject({
      code: 'journal-mismatch',
      comparison: { recorded: expect.anything(), current: expect.anything() },
    });
    const { comparison } = error as { comparison: { recorded: unknown; current: unknown } };
    expect(JSON.stringify(comparison.recorded)).toContain('with the token [redacted]');
    expect(JSON.stringify(comparison.current)).toContain('with the token [redacted] (variant 2)');
    // what june run --database --follow and Studio show: message, comparison, trace
    expect(JSON.stringify({ ...error, message: error?.message })).not.toContain(token);

    const dump = pgDump(database);
    expect(dump).toContain('vault-1');
    expect(linesWith(dump, [token])).toEqual([]);
  }, 120_000);
});

describe.runIf(missing)('a run over DBOS stopped by journal-mismatch', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
