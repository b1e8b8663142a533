// A <Catch> whose first attempt failed in a model call, recovered over DBOS: the worker is
// killed while the run waits for approval, and the run recovered by a new worker replays the
// failed attempt as failed (with the recorded error) and the retry as its own call, calling
// the model only for what had not finished.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { TraceNode } from 'june';
import { RunClient } from 'june/dbos';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { tempProject } from '../cli/cli-harness.js';
import { lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const source = readFileSync(new URL('./fixtures/catch-retry.tsx', import.meta.url), 'utf8');

const allNodes = (node: TraceNode): TraceNode[] => [node, ...node.children.flatMap(allNodes)];

describe.runIf(!missing)('a <Catch> retry recovered over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let logs: string;
  let database: string;
  let client: RunClient;
  let first: WorkerProcess;
  const workers = new Set<WorkerProcess>();
  const start = async () => {
    const worker = await startWorker(project.dir, database, 'worker-a', {
      files: ['catch-retry.tsx'],
    });
    workers.add(worker);
    return worker;
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_catch_history');
    project = tempProject();
    project.write('catch-retry.tsx', source);
    logs = project.folder('logs');
    first = await start();
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([...workers].map((worker) => worker.stop().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it('replays attempt 1 as failed and attempt 2 from its own record, with no model call for them', async () => {
    await client.enqueue({ workflow: 'catch-retry', runId: 'retried', props: { dir: logs } });
    await waitFor(async () => (await client.waiting('retried')).length > 0, 60_000, 'the approval');
    expect(lines(logs, 'models.log')).toEqual(['plan|1', 'plan|1', 'plan|2', 'ship|1']);

    await first.kill();
    workers.delete(first);
    await start();
    await waitFor(
      async () => (await client.waiting('retried')).length > 0,
      60_000,
      'the approval, asked again',
    );
    await client.approve('retried', { all: true, approved: true });
    const { output, trace } = await client.result('retried');

    expect(output).toEqual({ plan: 'the plan', ship: 'shipped' });
    // the recovered run called the model only for ship's last turn
    expect(lines(logs, 'models.log')).toEqual(['plan|1', 'plan|1', 'plan|2', 'ship|1', 'ship|2']);
    expect(lines(logs, 'effects.log')).toEqual(['check', 'deploy prod']);
    const attempts = allNodes(trace.root)
      .filter((node) => node.kind === 'catch')
      .map((node) => [node.name, node.status, node.error?.code, node.error?.message]);
    expect(attempts).toEqual([
      ['attempt 1', 'failed', 'scripted-model-error', 'june: the provider is overloaded'],
      ['attempt 2', 'succeeded', undefined, undefined],
    ]);
    // the tool's error, replayed from its record, is the error it threw
    const check = allNodes(trace.root).find(
      (node) => node.kind === 'tool' && node.name === 'check',
    );
    expect([check?.status, check?.error]).toEqual([
      'failed',
      { name: 'SystemError', code: 'mcp-tool-failed', message: 'june: the build check is down' },
    ]);
  }, 300_000);
});
