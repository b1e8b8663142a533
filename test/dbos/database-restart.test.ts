// PostgreSQL restarted under a running worker, with a run in the middle of a tool: the
// worker says in one `june:` line that the database went away and in one that it
// reconnected (no driver error, no stack trace), the run in flight finishes, and the worker
// takes new runs after the restart.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { ledgerProject, lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('a worker when PostgreSQL restarts', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_restart');
    project = ledgerProject();
    worker = await startWorker(project.dir, database, 'steady');
  }, 120_000);

  afterAll(async () => {
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  const withClient = async <T>(work: (client: RunClient) => Promise<T>): Promise<T> => {
    const client = await RunClient.connect(database);
    try {
      return await work(client);
    } finally {
      await client.close();
    }
  };

  it('says once that the database went away and once that it reconnected, and keeps taking runs', async () => {
    const props = (n: number, more: Record<string, unknown> = {}) => ({
      dir: project.logs,
      n,
      ...more,
    });
    await withClient((client) =>
      client.enqueue({ workflow: 'ledger', runId: 'before', props: props(1, { hold: 'tool' }) }),
    );
    await waitFor(() => lines(project.logs, 'holding-1').length > 0, 60_000, 'the tool to hold');

    const stderr = () => worker!.running.output().stderr;
    const lost =
      /^june: worker steady lost the database at postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/june_restart \(.+\); its runs wait, and it reconnects when the database is back$/m;
    const back =
      /^june: worker steady reconnected to the database at postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/june_restart after [\d.]+ (?:ms|s); it takes runs again$/m;
    pg.shutDown();
    await waitFor(() => lost.test(stderr()), 30_000, 'the worker to say the database went away');
    pg.startAgain();
    await waitFor(() => back.test(stderr()), 60_000, 'the worker to say it reconnected');

    // the run in flight goes on, and a new one is taken
    writeFileSync(join(project.logs, 'release-1'), '');
    await withClient(async (client) => {
      expect((await client.result('before')).output).toBe('done 1');
      await client.enqueue({ workflow: 'ledger', runId: 'after', props: props(2) });
      expect((await client.result('after')).output).toBe('done 2');
    });

    const printed = stderr().split('\n').filter(Boolean);
    expect(printed.filter((line) => lost.test(line))).toHaveLength(1);
    expect(printed.filter((line) => back.test(line))).toHaveLength(1);
    // nothing but june: lines: no driver error, no stack trace
    expect(printed.filter((line) => !line.startsWith('june: '))).toEqual([]);
    expect(stderr()).not.toMatch(/Unexpected error|ECONNREFUSED|^\s+at /m);
  }, 240_000);
});
