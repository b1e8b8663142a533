// A run over DBOS is priced by the worker that runs it (`june worker --prices`), and a run
// recovered by a worker with other prices still reports its recorded calls at the price
// they were made at: the price is stored with each model call in the database.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtreeCost, type TraceNode } from 'june';
import { RunClient } from 'june/dbos';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { modelNodes } from '../helpers/trace-nodes.js';
import { ledgerProject, lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();

/** The model nodes of a trace, child runs included, in the order the calls started. */
const startedModelNodes = (node: TraceNode) =>
  modelNodes(node).sort((a, b) => a.startedAt.localeCompare(b.startedAt));

describe.runIf(!missing)('the cost of runs over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient | undefined;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_costs');
    project = ledgerProject();
    // the ledger's model is `ledger` of the provider `ledger`
    project.write(
      'cheap.json',
      JSON.stringify({ 'ledger:ledger': { inputPerMTok: 1, outputPerMTok: 10 } }),
    );
    project.write(
      'dear.json',
      JSON.stringify({ 'ledger:ledger': { inputPerMTok: 100, outputPerMTok: 1000 } }),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it("a recovered run reports the calls made before the crash at their recorded price, the rest at the new worker's", async () => {
    const start = (prices: string) =>
      startWorker(project.dir, database, 'costs', { args: ['--prices', prices] });
    worker = await start('cheap.json');
    client = await RunClient.connect(database);
    await client.enqueue({
      workflow: 'ledger',
      runId: 'priced',
      props: { dir: project.logs, n: 1, hold: 'tool' },
    });
    // the first model call is made and recorded; its tool holds: the worker dies there
    await waitFor(() => lines(project.logs, 'holding-1').length > 0, 60_000, 'the tool to hold');
    await worker.kill();
    worker = await start('dear.json');
    writeFileSync(join(project.logs, 'release-1'), '');

    const { trace } = await client.result('priced');
    const calls = startedModelNodes(trace.root);
    expect(calls.length).toBeGreaterThan(2);
    const [first, ...later] = calls;
    expect(first!.replayed).toBe(true);
    expect(first!.price).toEqual({
      source: 'prices',
      model: 'ledger:ledger',
      rates: { input_mtok: 1, output_mtok: 10 },
    });
    for (const call of later)
      expect(call.price).toMatchObject({ rates: { input_mtok: 100, output_mtok: 1000 } });
    const costAt = (call: TraceNode, input: number, output: number) =>
      (call.usage!.inputTokens! * input + call.usage!.outputTokens! * output) * 1e-6;
    expect(first!.costUsd).toBeCloseTo(costAt(first!, 1, 10), 12);
    for (const call of later) expect(call.costUsd).toBeCloseTo(costAt(call, 100, 1000), 12);
    expect(subtreeCost(trace.root).usd).toBeCloseTo(
      calls.reduce((sum, call) => sum + call.costUsd!, 0),
      12,
    );
  }, 120_000);
});

describe.runIf(missing)('the cost of runs over DBOS', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
