// A run's records by place, read in one statement as the run (or its recovery) starts: the
// rows it stored, and for a run with none, whether an older June recorded its calls as DBOS
// steps (it goes on with DBOS steps); before June's table or DBOS's exist, nothing and no
// error. A PostgreSQL of its own, with DBOS's step table as DBOS makes it (the columns read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRecords } from '../../src/dbos/call-records.js';
import { pgClient, type PgClient } from '../../src/dbos/pg-driver.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const missing = postgresMissing();

describe.runIf(!missing)('CallRecords.forRun', () => {
  let pg: TestPostgres;
  let db: PgClient;
  let records: CallRecords;

  beforeAll(async () => {
    pg = await startPostgres();
    const admin = pgClient({ connectionString: pg.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE june_call_records');
    await admin.end();
    db = pgClient({ connectionString: pg.url('june_call_records') });
    await db.connect();
    records = new CallRecords(pg.url('june_call_records'));
  }, 60_000);

  afterAll(async () => {
    await records?.close();
    await db?.end().catch(() => {});
    await pg?.stop();
  });

  it('reads nothing, and no older run, before either table exists', async () => {
    const { records: run, legacy } = await records.forRun('new-run');
    expect(legacy).toBe(false);
    expect(run.get('model work#0')).toBeUndefined();
  });

  it("gives a run its stored records, tells an older June's run by its DBOS steps, and neither for a new run", async () => {
    await db.query('CREATE SCHEMA dbos');
    await db.query('CREATE TABLE dbos.operation_outputs (workflow_uuid text, function_name text)');
    await db.query(
      `INSERT INTO dbos.operation_outputs VALUES ('old-run', 'june.model work#0'), ('old-run', 'june.events'), ('events-only', 'june.events')`,
    );
    const first = await records.forRun('placed');
    await first.records.store('tool work|c1', {
      tool: 'note',
      input: { text: 'hi' },
      output: 'ok',
    });
    await first.records.store('model work#0', { answer: { at: new Date(0) } });

    const again = await records.forRun('placed');
    expect(again.legacy).toBe(false);
    expect(again.records.get('tool work|c1')).toEqual({
      tool: 'note',
      input: { text: 'hi' },
      output: 'ok',
    });
    expect(again.records.get('model work#0')).toEqual({ answer: { at: new Date(0) } });
    expect((await records.forRun('old-run')).legacy).toBe(true);
    // June's own publishing step is no call: a run that only published is a new run
    expect((await records.forRun('events-only')).legacy).toBe(false);
    expect((await records.forRun('nothing')).legacy).toBe(false);
    // the first record stored for a place stands
    expect(await again.records.store('tool work|c1', { tool: 'note', output: 'late' })).toEqual({
      tool: 'note',
      input: { text: 'hi' },
      output: 'ok',
    });
  });
});
