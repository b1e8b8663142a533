// A run id given to RunClient.enqueue names one request: the same request again is the same
// run, queued once; another request (another workflow, other props) under an id the database
// already has is refused with a june: error, never answered with the older run's result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JuneError } from 'june';
import { RunClient } from 'june/dbos';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { lines, ledgerProject, startWorker, type WorkerProcess } from './support.js';

const missing = postgresMissing();

const NOTE = `import { Agent, Step } from 'june';
import { scriptedModel } from 'june/testing';
export default function Note({ text }: { text: string }) {
  const model = scriptedModel({ steps: { note: [{ text: 'noted ' + text }] } });
  return (
    <Agent name="noter" model={model}>
      <Step id="note" prompt={'Note ' + text} />
    </Agent>
  );
}
`;

describe.runIf(!missing)('a run id reused over the database', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let worker: WorkerProcess | undefined;
  let client: RunClient;

  beforeAll(async () => {
    pg = await startPostgres();
    project = ledgerProject();
    project.write('note.tsx', NOTE);
    const database = pg.url('june_run_ids');
    worker = await startWorker(project.dir, database, 'ids', { files: ['ledger.tsx', 'note.tsx'] });
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => expect.fail('the enqueue should be refused'),
      (caught: unknown) => caught,
    );
    expect(JuneError.isInstance(error)).toBe(true);
    return error as JuneError;
  };

  it('refuses a finished run of another workflow, and queues nothing', async () => {
    await client.enqueue({ workflow: 'note', runId: 'X', props: { text: 'a' } });
    expect((await client.result('X')).output).toBe('noted a');

    const error = await refusal(
      client.enqueue({ workflow: 'ledger', runId: 'X', props: { dir: project.logs, n: 1 } }),
    );
    expect(error.code).toBe('dbos-run-exists');
    expect(error.message).toBe(
      'june: the database already has a run X, a run of "note" (succeeded); a run of "ledger" cannot take its id. Leave out the run id for a new run, or pick another one.',
    );
    // the ledger never ran, and X is still the note's run
    expect(lines(project.logs, 'effects.log')).toEqual([]);
    expect((await client.get('X')).workflow).toBe('note');
    expect((await client.result('X')).output).toBe('noted a');
  });

  it('refuses the same workflow with other props', async () => {
    await client.enqueue({ workflow: 'note', runId: 'Y', props: { text: 'b' } });
    const error = await refusal(
      client.enqueue({ workflow: 'note', runId: 'Y', props: { text: 'c' } }),
    );
    expect(error.code).toBe('dbos-run-exists');
    expect(error.message).toMatch(
      /^june: the database already has a run Y, a run of "note" with other props or settings \(/,
    );
    expect((await client.result('Y')).output).toBe('noted b');
  });

  it('takes the same request twice, or at once, as one run', async () => {
    const request = { workflow: 'note', runId: 'Z', props: { text: 'z' } };
    expect(await Promise.all([client.enqueue(request), client.enqueue(request)])).toEqual([
      'Z',
      'Z',
    ]);
    expect(await client.enqueue(request)).toBe('Z');
    expect((await client.result('Z')).output).toBe('noted z');
    const runs = await client.list();
    expect(runs.filter((run) => run.runId === 'Z')).toHaveLength(1);
  });

  it('of two requests under one new id at once, one is the run and the other is refused', async () => {
    const settled = await Promise.allSettled([
      client.enqueue({ workflow: 'note', runId: 'W', props: { text: 'first' } }),
      client.enqueue({ workflow: 'note', runId: 'W', props: { text: 'second' } }),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as JuneError).code).toBe('dbos-run-exists');
    const output = (await client.result('W')).output;
    const kept = settled.findIndex((s) => s.status === 'fulfilled');
    expect(output).toBe(kept === 0 ? 'noted first' : 'noted second');
  });

  it('with onlyNew, of ten enqueues of the same request at once one queues it, nine are refused', async () => {
    const request = { workflow: 'note', runId: 'V', props: { text: 'v' } };
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, () => client.enqueue(request, { onlyNew: true })),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    for (const refused of settled.filter((s) => s.status === 'rejected')) {
      const error = refused.reason as JuneError;
      expect(error.code).toBe('dbos-run-exists');
      expect(error.message).toMatch(
        /^june: the database already has a run V \((queued|running|succeeded)\); onlyNew queues a run only under an id no run has\./,
      );
    }
    expect((await client.result('V')).output).toBe('noted v');
    expect((await client.list()).filter((run) => run.runId === 'V')).toHaveLength(1);
    // without onlyNew, the same request is still that run
    expect(await client.enqueue(request)).toBe('V');
  });
});
