// The waits of a worker's runs for the answers to their approval requests (`AnswerWaits`),
// against a real PostgreSQL: each wait ends with its own request's answer, the first one
// stored in june.answers, whatever order the waits began in; a stored answer wakes its wait
// through PostgreSQL's notification, not a poll; past its deadline a request is denied, and
// that denial is stored like any answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerStore, createAnswersTable } from '../../src/dbos/answer-store.js';
import { AnswerWaits, TIMEOUT_REASON } from '../../src/dbos/answer-waits.js';
import type { DbosApprovalAnswer } from '../../src/dbos/dbos-engine.js';
import { pgClient } from '../../src/dbos/pg-driver.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const missing = postgresMissing();
/** A deadline no test reaches. */
const later = () => Date.now() + 3_600_000;
const approval = (id: string): DbosApprovalAnswer => ({
  id,
  approved: true,
  answeredBy: 'ana',
  answeredAt: new Date().toISOString(),
  source: 'studio',
});
const sendNothing = async () => {};

describe.runIf(!missing)('the waits for answers over PostgreSQL', () => {
  let pg: TestPostgres;
  let database: string;
  let store: AnswerStore;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('postgres');
    const db = pgClient({ connectionString: database });
    await db.connect();
    await createAnswersTable(db);
    await db.end();
    store = new AnswerStore(database);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await pg?.stop();
  });

  it('ends each wait with its own request’s answer as soon as it is stored, whichever order they began in', async () => {
    // a poll an hour: only a stored answer's notification (or the look taken once the
    // connection listens) ends these waits in time
    const waits = new AnswerWaits(database, 3_600_000);
    try {
      const { signal } = new AbortController();
      const a = waits.wait('run-1', 'fan#0.0/get#0.0', later(), signal);
      const b = waits.wait('run-1', 'fan#0.1/get#0.0', later(), signal);
      const settled: string[] = [];
      void a.then(() => settled.push('a'));
      expect(await store.store('run-1', approval('fan#0.1/get#0.0'), sendNothing)).toBeUndefined();
      expect(await b).toMatchObject({ id: 'fan#0.1/get#0.0', approved: true, answeredBy: 'ana' });
      expect(settled).toEqual([]);
      await store.store('run-1', { ...approval('fan#0.0/get#0.0'), approved: false }, sendNothing);
      expect(await a).toMatchObject({ id: 'fan#0.0/get#0.0', approved: false });
      // an answer stored before the wait began is given at once
      expect(await waits.wait('run-1', 'fan#0.1/get#0.0', later(), signal)).toEqual(await b);
    } finally {
      await waits.close();
    }
  });

  it('denies a request past its deadline with an answer stored like any other: a later answer is refused', async () => {
    const waits = new AnswerWaits(database, 20);
    try {
      const { signal } = new AbortController();
      const denial = await waits.wait('run-2', 'entry#0.0', Date.now() - 1, signal);
      expect(denial).toMatchObject({
        id: 'entry#0.0',
        approved: false,
        reason: TIMEOUT_REASON,
        answeredBy: 'the approval timeout',
        source: 'database',
      });
      expect(await store.store('run-2', approval('entry#0.0'), sendNothing)).toEqual(denial);
      expect(await store.answers('run-2')).toEqual(new Map([['entry#0.0', denial]]));
    } finally {
      await waits.close();
    }
  });

  it('ends a wait when its signal aborts, or the waits close', async () => {
    const waits = new AnswerWaits(database, 20);
    const stop = new AbortController();
    const aborted = waits.wait('run-3', 'entry#0.0', later(), stop.signal);
    stop.abort(new Error('the run ended'));
    await expect(aborted).rejects.toThrow('the run ended');
    const closed = waits.wait('run-3', 'entry#0.1', later(), new AbortController().signal);
    const ended = expect(closed).rejects.toThrow('june: the answer waits are closed');
    await waits.close();
    await ended;
    expect(await store.answers('run-3')).toEqual(new Map());
  });
});
