// Crashes and bad input over DBOS. Both workers are killed with SIGKILL while their runs sit
// at three moments (inside a model call, inside a tool, waiting for an approval); restarted
// with the same executor ids, they finish every run, and only the step in flight at the kill
// ran twice. An approval waits across the restart of every worker. `june cancel` fires a
// running tool's abort signal. A changed workflow stops a recovered run with
// journal-mismatch before any tool runs; bad databases and unknown runs give june: errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { june } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import {
  counts,
  ledgerProject,
  lines,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('runs over DBOS: crashes, cancel and bad input', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient;
  const workers = new Set<WorkerProcess>();
  const start = async (executor: string, env?: Record<string, string>) => {
    const worker = await startWorker(project.dir, database, executor, env ? { env } : {});
    workers.add(worker);
    return worker;
  };
  const props = (n: number, more: Record<string, unknown> = {}) => ({
    dir: project.logs,
    n,
    ...more,
  });
  const held = (n: number) => () => lines(project.logs, `holding-${n}`).length > 0;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_recovery');
    project = ledgerProject();
    project.write('other.tsx', 'export default function Other() { return null; }\n');
    await start('worker-a');
    await start('worker-b');
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([...workers].map((worker) => worker.stop().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it('finishes runs killed in a model call, in a tool and waiting for approval, on restart', async () => {
    await client.enqueue({
      workflow: 'ledger',
      runId: 'in-model',
      props: props(1, { hold: 'model' }),
    });
    await client.enqueue({
      workflow: 'ledger',
      runId: 'in-tool',
      props: props(2, { hold: 'tool' }),
    });
    await client.enqueue({
      workflow: 'ledger',
      runId: 'waiting',
      props: props(3, { approve: true }),
    });
    await waitFor(held(1), 60_000, 'the model call to hold');
    await waitFor(held(2), 60_000, 'the tool to hold');
    await waitFor(async () => (await client.waiting('waiting')).length > 0, 60_000, 'the approval');
    const owners = new Map((await client.list()).map((run) => [run.runId, run.worker]));

    // every worker dies; a worker lacking a workflow its runs need refuses to start
    for (const worker of workers) await worker.kill();
    workers.clear();
    const lacking = await june(
      ['worker', 'other.tsx', '--database', database, '--executor', owners.get('in-tool')!],
      project.dir,
    );
    expect(lacking.code).toBe(1);
    expect(lacking.stderr).toContain(
      `june: the worker ${owners.get('in-tool')} has runs in flight of "ledger", which it was not given`,
    );

    for (const n of [1, 2]) writeFileSync(join(project.logs, `release-${n}`), '');
    await start('worker-a');
    await start('worker-b');
    // the approval waited across the restart of every worker
    expect((await client.waiting('waiting')).map((request) => request.id)).toEqual(['entry#2.0']);
    const answered = await june(
      ['approve', 'waiting', 'entry#2.0', '--database', database],
      project.dir,
    );
    expect(answered.stdout).toBe('approved entry#2.0 of run waiting\n');

    for (const [runId, n] of [
      ['in-model', 1],
      ['in-tool', 2],
      ['waiting', 3],
    ] as const) {
      expect((await client.result(runId)).output).toBe(`done ${n}`);
      // a restarted worker puts its runs back on their queue, and either worker may take one
      expect(['worker-a', 'worker-b']).toContain((await client.get(runId)).worker);
    }
    const paid = counts(lines(project.logs, 'models.log'));
    const effects = counts(
      lines(project.logs, 'effects.log').map((l) => l.split(' ').slice(0, 2).join(' ')),
    );
    // only the step in flight at the kill ran again
    expect(paid.get('1|entry|1')).toBe(2);
    expect(effects.get('append e2')).toBe(2);
    for (const [call, times] of paid) if (call !== '1|entry|1') expect(times, call).toBe(1);
    for (const [effect, times] of effects)
      if (effect !== 'append e2') expect(times, effect).toBe(1);
    expect(effects.get('publish p3')).toBe(1);
  }, 400_000);

  it('cancels a running run: the tool sees its abort signal and the run ends cancelled', async () => {
    await client.enqueue({
      workflow: 'ledger',
      runId: 'to-cancel',
      props: props(5, { hold: 'abort' }),
    });
    await waitFor(held(5), 60_000, 'the tool to start');
    const cancelled = await june(['cancel', 'to-cancel', '--database', database], project.dir);
    expect(cancelled.stdout).toBe('cancelled run to-cancel\n');
    await waitFor(
      () => lines(project.logs, 'effects.log').includes('aborted e5'),
      30_000,
      'the abort',
    );
    expect((await client.get('to-cancel')).status).toBe('cancelled');
    // cancelled once, it has ended: a second cancel says so and exits 1
    const again = await june(['cancel', 'to-cancel', '--database', database], project.dir);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      'june: the run to-cancel has ended (aborted); there is nothing to cancel.\n',
    );
    const unknown = await june(['cancel', 'no-such-run', '--database', database], project.dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'june: there is no run no-such-run in the database; see june runs --database for the runs there.\n',
    );
  }, 120_000);

  it('keeps a run of a workflow no worker has queued, and says so for unknown runs and requests', async () => {
    const runId = await client.enqueue({ workflow: 'unknown-flow', props: {} });
    expect((await client.get(runId)).status).toBe('queued');
    const unknownRun = await june(
      ['approve', 'no-such-run', '--all', '--database', database],
      project.dir,
    );
    expect(unknownRun.code).toBe(1);
    expect(unknownRun.stderr).toBe(
      'june: there is no run no-such-run in the database; see june runs --database for the runs there.\n',
    );
    await client.enqueue({ workflow: 'ledger', runId: 'asks', props: props(6, { approve: true }) });
    await waitFor(async () => (await client.waiting('asks')).length > 0, 60_000, 'the approval');
    const unknownRequest = await june(
      ['approve', 'asks', 'entry#9.9', '--database', database],
      project.dir,
    );
    expect(unknownRequest.code).toBe(1);
    expect(unknownRequest.stderr).toBe(
      'june: run asks waits for no request "entry#9.9"; it waits for entry#2.0 (tool publish, step entry; key entry#2.0). Give one of those request ids or keys, or --all.\n',
    );
    await june(
      ['approve', 'asks', '--all', '--deny', '--reason', 'not today', '--database', database],
      project.dir,
    );
    expect((await client.result('asks')).output).toBe('done 6');
    expect(lines(project.logs, 'effects.log').some((line) => line.startsWith('publish p6'))).toBe(
      false,
    );
  }, 120_000);

  it('says what is wrong with an unreachable database or a wrong password', async () => {
    const unreachable = await june(
      ['runs', '--database', 'postgresql://postgres:pw@127.0.0.1:1/june'],
      project.dir,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^june: cannot reach the database at postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/june: nothing answers there .*Start PostgreSQL, or fix the host and port of --database\.\n$/,
    );
    const wrong = await june(
      ['runs', '--database', database.replace(/:[^:@]*@/, ':wrong@')],
      project.dir,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^june: the database at .* refused the connection: wrong user or password/,
    );
    expect(wrong.stderr).not.toContain('wrong@');
  }, 60_000);

  it('stops a run recovered with a changed workflow with journal-mismatch before any tool runs', async () => {
    for (const worker of workers) await worker.stop();
    workers.clear();
    const solo = await start('worker-c');
    await client.enqueue({
      workflow: 'ledger',
      runId: 'changed',
      props: props(7, { hold: 'tool' }),
    });
    await waitFor(held(7), 60_000, 'the tool to hold');
    await solo.kill();
    workers.delete(solo);
    await start('worker-c', { LEDGER_VARIANT: '2' });
    await expect(client.result('changed')).rejects.toThrow(
      /^june: the workflow no longer matches run changed: model call 1 of step "entry" asks something else/,
    );
    // the stored error is the run's error as June records it: its code and what differs
    await expect(client.result('changed')).rejects.toMatchObject({
      code: 'journal-mismatch',
      comparison: { recorded: expect.anything(), current: expect.anything() },
    });
    expect(
      lines(project.logs, 'effects.log').filter((line) => line.startsWith('append e7')),
    ).toHaveLength(1);
    expect((await client.get('changed')).status).toBe('failed');
  }, 120_000);
});

describe.runIf(missing)('runs over DBOS: crashes', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
