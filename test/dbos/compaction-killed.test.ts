// `<Agent compact>` over DBOS: a summary is a model call the worker records by its place
// (`<agent>@compact`), so a worker killed after its compactions and recovered gives the
// recorded summaries back: no summary is written twice, no finished model call is made
// again, the tool runs once, and the resumed call starts from the same summary.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('a compacting agent over DBOS, its worker killed', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let client: RunClient | undefined;
  let worker: WorkerProcess | undefined;
  const start = async () => {
    worker = await startWorker(project.dir, database, 'compacting', {
      files: ['compacting.tsx'],
    });
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_compaction');
    project = tempProject();
    project.write(
      'compacting.tsx',
      readFileSync(new URL('./fixtures/compacting.tsx', import.meta.url), 'utf8'),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('a recovered run gives its recorded summaries back: nothing is summarized, called or run twice', async () => {
    const dir = project.folder('logs');
    await start();
    client = await RunClient.connect(database);
    await client.enqueue({
      workflow: 'compacting',
      runId: 'compacted',
      props: { dir, hold: true },
    });
    // s4 starts from a compacted conversation, and its model call holds: the worker dies there
    await waitFor(() => lines(dir, 'models.log').includes('s4|1'), 60_000, "s4's model call");
    const before = lines(dir, 'models.log');
    expect(before.filter((line) => line.startsWith('helper@compact'))).toHaveLength(3);
    await worker!.kill();
    await start();
    project.write('logs/release', '');

    const { trace } = await client.result('compacted');
    expect(trace.status).toBe('succeeded');
    expect(lines(dir, 'effects.log')).toEqual(['note ship']);
    // the recovery made only the call that was in flight again: each summary, and every
    // other call, came back from its record
    expect(lines(dir, 'models.log')).toEqual([...before, 's4|1']);
    expect(lines(dir, 'summaries.log')).toEqual([
      's3|summary 1',
      's3|summary 2',
      's4|summary 3',
      's4|summary 3',
    ]);
    const agent = trace.root.children.find((node) => node.kind === 'agent')!;
    expect(agent.compactions?.map((c) => [c.step, c.summary])).toEqual([
      ['s3', 'summary 1'],
      ['s3', 'summary 2'],
      ['s4', 'summary 3'],
    ]);
  }, 180_000);
});

describe.runIf(missing)('a compacting agent over DBOS, its worker killed', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
