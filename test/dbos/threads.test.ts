// Threads over DBOS: runs of one thread queued through the database continue one
// conversation (`june.threads` keeps each run's place and its agent's conversation), one run
// of a thread is queued or runs at a time (`thread-busy`), a worker killed mid-run of a thread
// recovers it from the same history, and a thread is deleted with its runs.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { pgClient, type PgClient } from '../../src/dbos/pg-driver.js';
import { june, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();

/** One model call the fixture logged: the run's message, the turn, the request's messages. */
interface ModelCall {
  message: string;
  turn: number;
  prompt: string[];
}

/** What a finished run of the fixture adds to its thread's conversation. */
const exchange = (message: string) => [
  `user: ${message}`,
  'assistant: [call lookup]',
  'tool: [result lookup]',
  `assistant: Answered: ${message}`,
];

describe.runIf(!missing)('threads over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let dir: string;
  let client: RunClient;
  let db: PgClient;
  let worker: WorkerProcess | undefined;
  const start = async () => {
    worker = await startWorker(project.dir, database, 'threads', { files: ['support.tsx'] });
  };
  const calls = (): ModelCall[] => lines(dir, 'models.log').map((line) => JSON.parse(line));
  const enqueue = (thread: string, message: string, hold = false) =>
    client.enqueue({
      workflow: 'support',
      thread,
      props: { dir, message, ...(hold ? { hold: true } : {}) },
    });

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_threads');
    project = tempProject();
    project.write(
      'support.tsx',
      readFileSync(new URL('./fixtures/support-thread.tsx', import.meta.url), 'utf8'),
    );
    dir = project.folder('logs');
    await start();
    client = await RunClient.connect(database);
    db = pgClient({ connectionString: database });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await db?.end().catch(() => {});
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it("a thread's third run starts from the first two runs' conversation, and the thread lists its runs in order", async () => {
    const first = await enqueue('ana', 'Where is order A-1001?');
    await client.result(first);
    const second = await enqueue('ana', 'Can you check it again?');
    await client.result(second);
    // the third run is queued from the command line
    const queued = await june(
      [
        'run',
        'support.tsx',
        '--database',
        database,
        '--thread',
        'ana',
        '--props',
        JSON.stringify({ dir, message: 'Thanks!' }),
        '--json',
      ],
      project.dir,
    );
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    const third = (JSON.parse(queued.stdout) as { runId: string }).runId;
    const { trace } = await client.result(third);
    expect(trace.status).toBe('succeeded');

    const thirdCall = calls().find((call) => call.message === 'Thanks!' && call.turn === 1)!;
    expect(thirdCall.prompt).toEqual([
      ...exchange('Where is order A-1001?'),
      ...exchange('Can you check it again?'),
      'user: Thanks!',
    ]);
    expect((await client.listThread('ana')).map((run) => [run.order, run.runId])).toEqual([
      [1, first],
      [2, second],
      [3, third],
    ]);
    expect(await client.listThreads()).toContain('ana');
    expect((await client.get(third)).thread).toEqual({ id: 'ana', order: 3 });
    const { messages, runId } = await client.threadConversation('ana');
    expect(runId).toBe(third);
    expect(messages).toHaveLength(12);

    const shown = await june(['threads', 'show', 'ana', '--database', database], project.dir);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`1. ${first}  succeeded`);
    expect(shown.stdout).toContain(`3. ${third}  succeeded`);
    expect(shown.stdout).toContain(`conversation of support (as run ${third} left it):`);
  }, 180_000);

  it('refuses a second run of a busy thread, and a worker killed mid-run recovers it with the same history', async () => {
    const opening = await enqueue('ben', 'Hello');
    await client.result(opening);
    const held = await enqueue('ben', 'My parcel is late', true);
    await waitFor(
      () => calls().some((call) => call.message === 'My parcel is late' && call.turn === 2),
      60_000,
      "the held run's second model call",
    );

    // while the run holds the thread, another run of it is refused, from any process
    const refused = await enqueue('ben', 'Hello again?').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'thread-busy', runId: held });
    expect((refused as Error).message).toMatch(
      /^june: thread ben is busy: run \S+ of it is running/,
    );
    const cli = await june(
      [
        'run',
        'support.tsx',
        '--database',
        database,
        '--thread',
        'ben',
        '--props',
        JSON.stringify({ dir, message: 'Hello again?' }),
      ],
      project.dir,
    );
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain(`june: thread ben is busy: run ${held}`);
    await expect(client.deleteThread('ben')).rejects.toMatchObject({ code: 'thread-busy' });
    expect(calls().filter((call) => call.message === 'Hello again?')).toEqual([]);

    // the worker dies in the run's second model call; a worker with its id recovers it
    const before = calls();
    await worker!.kill();
    await start();
    await waitFor(() => calls().length > before.length, 60_000, "the recovered run's model call");
    // still held while it is recovered
    await expect(enqueue('ben', 'Hello again?')).rejects.toMatchObject({
      code: 'thread-busy',
      runId: held,
    });
    project.write('logs/release', '');
    const { trace } = await client.result(held);
    expect(trace.status).toBe('succeeded');

    // finished work was not done again: the first turn and the tool ran once; only the call
    // in flight was made again, from the same history
    const ofHeld = calls().filter((call) => call.message === 'My parcel is late');
    expect(ofHeld.map((call) => call.turn)).toEqual([1, 2, 2]);
    expect(ofHeld[2]!.prompt).toEqual(ofHeld[1]!.prompt);
    expect(ofHeld[1]!.prompt.slice(0, 5)).toEqual([
      ...exchange('Hello'),
      'user: My parcel is late',
    ]);
    expect(lines(dir, 'effects.log').filter((line) => line === 'lookup My parcel is late')).toEqual(
      ['lookup My parcel is late'],
    );

    // the thread is free again, and its next run goes on from the recovered run
    const next = await enqueue('ben', 'Hello again?');
    await client.result(next);
    const nextCall = calls().find((call) => call.message === 'Hello again?')!;
    expect(nextCall.prompt).toEqual([
      ...exchange('Hello'),
      ...exchange('My parcel is late'),
      'user: Hello again?',
    ]);
    expect((await client.listThread('ben')).map((run) => run.order)).toEqual([1, 2, 3]);
  }, 240_000);

  it('deletes a thread with its runs: a next run of its id starts a new conversation', async () => {
    const runs = await client.listThread('ana');
    expect(runs).toHaveLength(3);
    const deleted = await june(['threads', 'delete', 'ana', '--database', database], project.dir);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain('deleted thread ana: 3 runs');

    expect(await client.listThread('ana')).toEqual([]);
    expect(await client.listThreads()).toEqual(['ben']);
    for (const run of runs)
      await expect(client.get(run.runId)).rejects.toMatchObject({ code: 'dbos-run-unknown' });
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM june.calls WHERE run_id = ANY($1)',
      [runs.map((run) => run.runId)],
    );
    expect(rows[0]!.n).toBe(0);

    const fresh = await enqueue('ana', 'New question');
    await client.result(fresh);
    expect(calls().find((call) => call.message === 'New question')!.prompt).toEqual([
      'user: New question',
    ]);
    expect((await client.listThread('ana')).map((run) => run.order)).toEqual([1]);
  }, 180_000);
});

describe.runIf(missing)('threads over DBOS', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
