// Two answers to one approval request over the database, given at once from two `june
// approve` processes (one approving, one denying): the first answer stored applies, decided
// in PostgreSQL. Its process exits 0; the other exits 1 with a june: line naming the answer
// that stands; the tool ran as that answer says. With no worker running, the first answer is
// stored and waits for a worker, and a later one is refused.
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunLogEvent } from 'june';
import { june } from '../cli/cli-harness.js';
import { postgresMissing } from '../helpers/postgres.js';
import {
  ledgerDatabase,
  lines,
  startWorker,
  waitFor,
  type LedgerDatabase,
  type WorkerProcess,
} from './support.js';

const missing = postgresMissing();
const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.runIf(!missing)('runs over DBOS: two answers to one request at once', () => {
  let ledger: LedgerDatabase;
  let restarted: WorkerProcess | undefined;
  const user = userInfo().username;

  beforeAll(async () => {
    ledger = await ledgerDatabase('june_answer_race', 'worker-a');
  }, 120_000);

  afterAll(async () => {
    await restarted?.stop().catch(() => {});
    await ledger?.close();
  });

  /** Enqueues a ledger entry `n` that asks to publish, and waits until it asks. */
  const waitingRun = async (runId: string, n: number) => {
    await ledger.client.enqueue({
      workflow: 'ledger',
      runId,
      props: { dir: ledger.project.logs, n, approve: true },
    });
    await waitFor(
      async () => (await ledger.client.waiting(runId)).length > 0,
      60_000,
      `run ${runId} to ask for approval`,
    );
  };
  const approve = (runId: string, ...more: string[]) =>
    june(
      ['approve', runId, 'entry#2.0', ...more, '--database', ledger.database],
      ledger.project.dir,
    );
  const published = (n: number) =>
    lines(ledger.project.logs, 'effects.log').filter((line) => line.startsWith(`publish p${n} `));
  const responseOf = async (runId: string) => {
    for await (const event of ledger.client.events(runId))
      if (event.type === 'approval-response')
        return event as Extract<RunLogEvent, { type: 'approval-response' }>;
    return undefined;
  };

  it('june approve and june approve --deny at once: one exits 0, the other exits 1 naming the answer applied', async () => {
    const winners: string[] = [];
    for (let trial = 1; trial <= 5; trial++) {
      const runId = `race-${trial}`;
      const n = 10 + trial;
      await waitingRun(runId, n);
      const [approving, denying] = await Promise.all([
        approve(runId),
        approve(runId, '--deny', '--reason', 'not now'),
      ]);
      expect([approving.code, denying.code].sort(), `trial ${trial}`).toEqual([0, 1]);
      const approved = approving.code === 0;
      winners.push(approved ? 'approve' : 'deny');
      const [won, lost] = approved ? [approving, denying] : [denying, approving];
      expect(won.stdout).toBe(`${approved ? 'approved' : 'denied'} entry#2.0 of run ${runId}\n`);
      expect(won.stderr).not.toContain('answered already');
      expect(lost.stdout).toBe('');
      expect(lost.stderr).toMatch(
        new RegExp(
          `^june: the approval request "entry#2\\.0" of run ${runId} was answered already: ${approved ? 'approved' : 'denied \\(not now\\)'} through cli by ${escaped(user)} at ${ISO}\\. That answer stands; this ${approved ? 'denial' : 'approval'} was not applied\\.\n$`,
        ),
      );
      expect((await ledger.client.result(runId)).output).toBe(`done ${n}`);
      // the tool ran as the answer that applied says, and the run recorded that answer
      expect(published(n)).toHaveLength(approved ? 1 : 0);
      expect(await responseOf(runId)).toMatchObject({ approved, source: 'cli' });
    }
    console.log(`june approve vs --deny, winners by trial: ${winners.join(', ')}`);
  }, 300_000);

  it('lists what a run waits for without a warning, however the clock ticks between reads', async () => {
    await waitingRun('listed', 40);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'TimeoutNegativeWarning') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    // a clock that ticks every third reading, so some read's deadline falls on the tick
    const start = Date.now();
    let readings = 0;
    const clock = vi
      .spyOn(Date, 'now')
      .mockImplementation(() => start + Math.floor(readings++ / 3));
    try {
      for (let read = 0; read < 30; read++)
        expect((await ledger.client.waiting('listed')).map((request) => request.id)).toEqual([
          'entry#2.0',
        ]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      clock.mockRestore();
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
    expect((await approve('listed')).code).toBe(0);
    expect((await ledger.client.result('listed')).output).toBe('done 40');
  }, 120_000);

  it('with no worker running, the first answer is stored and waits for a worker; a later one is refused', async () => {
    await waitingRun('unworked', 30);
    await ledger.worker.kill();
    const first = await approve('unworked', '--deny', '--reason', 'too late');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('denied entry#2.0 of run unworked\n');
    expect(first.stderr).toBe(
      'june: the run unworked has not taken the answer yet: no worker is running it now, or every worker is busy. It is stored, and no other answer counts; the run goes on once a worker takes it up (june worker <file> --database <url>).\n',
    );
    const second = await approve('unworked');
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(
      new RegExp(
        `^june: the approval request "entry#2\\.0" of run unworked was answered already: denied \\(too late\\) through cli by ${escaped(user)} at ${ISO}\\. That answer stands; this approval was not applied\\.\n$`,
      ),
    );
    // answered, though no worker took it: nothing is listed as waiting
    expect(await ledger.client.waiting('unworked')).toEqual([]);
    restarted = await startWorker(ledger.project.dir, ledger.database, 'worker-a');
    expect((await ledger.client.result('unworked')).output).toBe('done 30');
    expect(published(30)).toEqual([]);
    expect(await responseOf('unworked')).toMatchObject({ approved: false, reason: 'too late' });
    // once the run ended: an answer to that request is told the one that stood; --all has nothing to answer
    const late = await approve('unworked');
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/was answered already: denied \(too late\) through cli/);
    const all = await june(
      ['approve', 'unworked', '--all', '--database', ledger.database],
      ledger.project.dir,
    );
    expect(all.code).toBe(1);
    expect(all.stderr).toBe(
      'june: the run unworked has ended (succeeded); there is nothing to approve.\n',
    );
  }, 180_000);
});
