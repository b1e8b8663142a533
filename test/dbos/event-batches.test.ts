// A run's events reach its followers in batches: the events of a burst (a model call's answer,
// the tool calls it asks for, the next call) go out as one stream write, not one write for the
// first event and another for the rest; each value is plain JSON (DBOS's portable format), and
// what the stream holds, in order, is what a follower reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunClient } from 'june/dbos';
import type { PgClient } from '../../src/dbos/pg-driver.js';
import { postgresMissing } from '../helpers/postgres.js';
import { ledgerDatabase, type LedgerDatabase } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)("a run's events over DBOS: batched writes", () => {
  let setup: LedgerDatabase | undefined;
  let project: LedgerDatabase['project'];
  let client: RunClient;
  let db: PgClient;

  beforeAll(async () => {
    setup = await ledgerDatabase('june_event_batches', 'batches');
    ({ project, client, db } = setup);
  }, 120_000);

  afterAll(() => setup?.close());

  it('writes each burst of events once, as plain JSON, in the order followers read', async () => {
    const runId = await client.enqueue({ workflow: 'ledger', props: { dir: project.logs, n: 1 } });
    const read: string[] = [];
    for await (const event of client.events(runId)) read.push(event.type);
    expect((await client.result(runId)).output).toBe('done 1');
    const { rows } = await db.query(
      `SELECT value, serialization FROM dbos.streams WHERE workflow_uuid = $1 AND key = 'june.events' ORDER BY "offset"`,
      [runId],
    );
    expect(rows.map((row) => row.serialization)).toEqual(rows.map(() => 'portable_json'));
    const batches = rows.map(
      (row) =>
        JSON.parse(String(row.value)) as { events: Array<{ type: string }>; first?: unknown },
    );
    expect(batches[0]!.first).toEqual({ executor: 'batches' });
    expect(batches.slice(1).filter((batch) => batch.first !== undefined)).toEqual([]);
    const written = batches.flatMap((batch) => batch.events.map((event) => event.type));
    expect(written).toEqual(read);
    expect(written[0]).toBe('run-start');
    expect(written.at(-1)).toBe('run-finish');
    // the first burst (run, agent and step start, up to the first model call) is one write,
    // not the run's start alone; a run's 30 events take a handful of writes, not one per burst's head
    expect(batches[0]!.events.length).toBeGreaterThan(1);
    expect(batches.length).toBeLessThanOrEqual(written.length / 2);
  }, 60_000);
});
