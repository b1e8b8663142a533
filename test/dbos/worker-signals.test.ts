// `june worker` stopped by SIGTERM, SIGINT or SIGHUP while its run is in a <Bash> command
// (which ignores SIGTERM, as does the `sleep` it started), while an MCP server starts, or
// during a model call: the worker exits 0 within the run's abort grace, no process it
// started is left (checked by pid), and the run stays pending: a worker started again with
// the same executor id takes it up, and a follower (`june run --follow`) sees it through to
// its end without ever seeing it aborted. A second signal quits at once; kill -9 leaves
// nothing running either.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { startJune, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, waitFor, type WorkerProcess } from './support.js';
import { isRunning, pidsIn } from '../helpers/processes.js';

const missing = postgresMissing();
const server = fileURLToPath(new URL('../fixtures/mcp/slow-server.mjs', import.meta.url));
const stoppableSource = readFileSync(new URL('./fixtures/stoppable.tsx', import.meta.url), 'utf8');
/** The run's abort grace (DEFAULT_ABORT_GRACE_MS), in ms. */
const GRACE_MS = 5000;
/** What a loaded machine adds to a stop: DBOS's shutdown, process exit. */
const SLACK_MS = 5000;

describe.runIf(!missing)('june worker stopped by a signal', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let client: RunClient;
  const workers = new Set<WorkerProcess>();
  const start = async (executor: string) => {
    const worker = await startWorker(project.dir, database, executor, {
      files: ['stoppable.tsx'],
    });
    workers.add(worker);
    return worker;
  };
  /** Sends `signal` to the worker; what it printed, its exit code and how long it took. */
  const stop = async (worker: WorkerProcess, signal: NodeJS.Signals) => {
    const sentAt = Date.now();
    process.kill(worker.running.pid, signal);
    const result = await worker.running.done;
    workers.delete(worker);
    return { ...result, tookMs: Date.now() - sentAt };
  };
  const enqueue = async (runId: string, phase: string) => {
    const dir = project.folder(runId);
    await client.enqueue({ workflow: 'stoppable', runId, props: { dir, phase, server } });
    return dir;
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_signals');
    project = tempProject();
    project.write('stoppable.tsx', stoppableSource);
    // the first worker sets the database up
    await (await start('setup')).stop();
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([...workers].map((worker) => worker.kill().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it('stops within the grace on SIGTERM, SIGINT and SIGHUP during a command, leaves nothing running, and the run goes on when the worker is back', async () => {
    const dir = project.folder('bash-run');
    const props = JSON.stringify({ dir, phase: 'bash', server });
    const follower = startJune(
      [
        'run',
        'stoppable.tsx',
        '--database',
        database,
        '--follow',
        '--props',
        props,
        '--approve',
        'all',
      ],
      project.dir,
    );
    for (const [attempt, signal] of (['SIGTERM', 'SIGINT', 'SIGHUP'] as const).entries()) {
      const worker = await start('keeper');
      await waitFor(
        () =>
          pidsIn(join(dir, `sleep-${attempt}.pid`)).length === 1 &&
          pidsIn(join(dir, `bash-${attempt}.pid`)).length === 1,
        60_000,
        `attempt ${attempt} of the command`,
      );
      const children = [
        ...pidsIn(join(dir, `bash-${attempt}.pid`)),
        ...pidsIn(join(dir, `sleep-${attempt}.pid`)),
        ...pidsIn(join(dir, 'server.pid')),
      ];
      expect(children).toHaveLength(4);
      expect(children.every(isRunning)).toBe(true);

      const result = await stop(worker, signal);
      expect(result.code, result.stderr).toBe(0);
      expect(result.tookMs).toBeLessThan(GRACE_MS + SLACK_MS);
      expect(children.filter(isRunning)).toEqual([]);
      expect(result.stderr).toMatch(
        /june: worker keeper stopped; run \S+ stays pending until a worker with --executor keeper starts/,
      );
      expect(result.stderr).not.toMatch(/^\s+at /m);
      const [run] = await client.list({ limit: 1 });
      expect(run).toMatchObject({ status: 'running', worker: 'keeper' });
    }
    // the fourth attempt of the command finishes at once
    const worker = await start('keeper');
    const followed = await follower.done;
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stdout).toContain('finished on attempt 3');
    expect(followed.stdout).not.toContain('aborted');
    const [run] = await client.list({ limit: 1 });
    expect(run).toMatchObject({ status: 'succeeded', worker: 'keeper' });
    expect((await stop(worker, 'SIGTERM')).stderr).toContain('june: worker keeper stopped\n');
  }, 400_000);

  it.each([
    { phase: 'mcp-start', signal: 'SIGINT' as const },
    { phase: 'model', signal: 'SIGHUP' as const },
  ])(
    'stops within the grace on $signal while $phase, leaving no process behind',
    async ({ phase, signal }) => {
      const runId = `${phase}-run`;
      const worker = await start(`${phase}-worker`);
      const dir = await enqueue(runId, phase);
      const marker = phase === 'model' ? 'model-called' : 'initialize';
      await waitFor(() => existsSync(join(dir, marker)), 60_000, `the ${phase} phase`);
      const children = pidsIn(join(dir, 'server.pid'));
      expect(children).toHaveLength(2);
      expect(children.every(isRunning)).toBe(true);

      const result = await stop(worker, signal);
      expect(result.code, result.stderr).toBe(0);
      expect(result.tookMs).toBeLessThan(GRACE_MS + SLACK_MS);
      expect(children.filter(isRunning)).toEqual([]);
      expect(result.stderr).toContain(`run ${runId} stays pending`);
      expect((await client.get(runId)).status).toBe('running');
    },
    120_000,
  );

  it('quits at once on a second SIGTERM, killing the command that ignores SIGTERM', async () => {
    const worker = await start('twice');
    const dir = await enqueue('twice-run', 'bash');
    await waitFor(() => pidsIn(join(dir, 'sleep-0.pid')).length === 1, 60_000, 'the command');
    const children = [
      ...pidsIn(join(dir, 'bash-0.pid')),
      ...pidsIn(join(dir, 'sleep-0.pid')),
      ...pidsIn(join(dir, 'server.pid')),
    ];
    process.kill(worker.running.pid, 'SIGTERM');
    await waitFor(
      () => worker.running.output().stderr.includes('signal again to quit at once'),
      10_000,
      'the first signal',
    );
    const sentAt = Date.now();
    process.kill(worker.running.pid, 'SIGTERM');
    const result = await worker.running.done;
    workers.delete(worker);
    expect(result.code).toBe(143);
    expect(Date.now() - sentAt).toBeLessThan(1500);
    await waitFor(() => !children.some(isRunning), 2000, 'every process the run started to end');
  }, 120_000);

  it('leaves nothing running when killed with SIGKILL during a command', async () => {
    const worker = await start('killed');
    const dir = await enqueue('killed-run', 'bash');
    await waitFor(() => pidsIn(join(dir, 'sleep-0.pid')).length === 1, 60_000, 'the command');
    const children = [
      ...pidsIn(join(dir, 'bash-0.pid')),
      ...pidsIn(join(dir, 'sleep-0.pid')),
      ...pidsIn(join(dir, 'server.pid')),
    ];
    await worker.kill();
    workers.delete(worker);
    // the watchdogs: SIGTERM, then SIGKILL after the 2 s grace
    await waitFor(() => !children.some(isRunning), 15_000, 'every process the run started to end');
  }, 120_000);
});
