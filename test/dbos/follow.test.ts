// `june run --database`: `--follow` prints the progress a local run prints, from whichever
// worker runs it, and Ctrl-C on the follower leaves the run going; `--script` and `--props`
// travel with the run, so a run recovered after its worker was killed still answers from the
// enqueued script (its file gone by then).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { june, startJune } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import {
  counts,
  ledgerProject,
  lines,
  ledgerSource,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

const missing = postgresMissing();

/** Progress output with what differs between two runs (ids, times, the header) left out. */
function progress(stdout: string): string[] {
  return stdout
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('trace: ')) // a local run's trace file; the database keeps a run's trace
    .map((line) =>
      line.replace(/\d+(\.\d+)?\s?(ms|s)\b/g, 'T').replace(/\d{8}-\d{6}-[0-9a-f]+/g, 'ID'),
    );
}

describe.runIf(!missing)('june run --database: following, Ctrl-C, --script on recovery', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient;
  const workers = new Map<string, WorkerProcess>();
  const start = async (executor: string) => {
    workers.set(executor, await startWorker(project.dir, database, executor));
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_follow');
    project = ledgerProject();
    await start('worker-a');
    await start('worker-b');
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([...workers.values()].map((worker) => worker.stop().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it('--follow prints what a local run prints', async () => {
    const props = JSON.stringify({ dir: project.logs, n: 8 });
    const local = await june(['run', 'ledger.tsx', '--props', props], project.dir);
    const followed = await june(
      ['run', 'ledger.tsx', '--database', database, '--follow', '--props', props],
      project.dir,
    );
    expect(followed.code).toBe(0);
    expect(followed.stdout.split('\n')[0]).toMatch(
      /^june run ledger\.tsx · run \S+ · over the database$/,
    );
    expect(progress(followed.stdout)).toEqual(progress(local.stdout));
  });

  it("a follower reads a run's events when the worker writes them, not at its next poll", async () => {
    // reads that waited for their poll would take a minute each: only the workers'
    // notifications can bring the events in time
    const listening = await RunClient.connect(database, { followPollingMs: 60_000 });
    try {
      const dir = project.folder('logs-notified');
      const runId = await listening.enqueue({ workflow: 'ledger', props: { dir, n: 4 } });
      const started = Date.now();
      const types: string[] = [];
      for await (const event of listening.events(runId)) {
        types.push(event.type);
        if (event.type === 'run-finish') break;
      }
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(types[0]).toBe('run-start');
      expect(types).toContain('tool-result');
      expect((await client.result(runId)).output).toBe('done 4');
    } finally {
      await listening.close();
    }
  }, 45_000);

  it('Ctrl-C on a follower stops following, not the run', async () => {
    const dir = project.folder('logs-interrupt');
    const props = JSON.stringify({ dir, n: 10, hold: 'tool' });
    const follower = startJune(
      ['run', 'ledger.tsx', '--database', database, '--follow', '--props', props],
      project.dir,
    );
    // the worker may reach the tool before the follower's first line comes through its pipe
    const header = () => /· run (\S+) · over the database/.exec(follower.output().stdout);
    await waitFor(
      () => lines(dir, 'holding-10').length > 0 && header() !== null,
      60_000,
      'the tool to hold, and the follower to name the run',
    );
    const runId = header()![1]!;
    process.kill(follower.pid, 'SIGINT');
    const stopped = await follower.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain(
      `june: stopped following run ${runId}; it goes on in its worker (june cancel ${runId} --database … stops it).`,
    );
    expect(stopped.stderr).not.toContain(database);
    expect((await client.get(runId)).status).toBe('running');
    writeFileSync(join(dir, 'release-10'), '');
    expect((await client.result(runId)).output).toBe('done 10');
    expect((await client.get(runId)).status).toBe('succeeded');
  });

  it('says when a followed run stays queued with no worker of its workflow', async () => {
    project.write('unserved.tsx', ledgerSource);
    const props = JSON.stringify({ dir: project.folder('logs-unserved'), n: 11 });
    const follower = startJune(
      ['run', 'unserved.tsx', '--database', database, '--follow', '--props', props],
      project.dir,
    );
    await waitFor(
      () => follower.output().stderr.includes('is still queued'),
      30_000,
      'the queued notice',
    );
    const runId = /· run (\S+) · over the database/.exec(follower.output().stdout)![1]!;
    expect(follower.output().stderr).toContain(
      `june: run ${runId} is still queued: no worker of "unserved" has taken it yet (all busy, or none running; june worker unserved.tsx --database … starts one).`,
    );
    process.kill(follower.pid, 'SIGINT');
    expect((await follower.done).stderr).toContain(`stopped following run ${runId}`);
    expect((await client.get(runId)).status).toBe('queued');
    await client.cancel(runId);
  }, 60_000);

  it('a run recovered after its worker was killed answers from the enqueued --script', async () => {
    const dir = project.folder('logs-script');
    const script = project.write(
      'entry.script.json',
      JSON.stringify({
        $comment: 'Test fixture: the script that travels with the run',
        steps: {
          entry: [
            { toolCalls: [{ tool: 'append', input: { text: 'e7' } }] },
            { text: 'scripted 7' },
          ],
        },
      }),
    );
    const props = JSON.stringify({ dir, n: 7, hold: 'tool' });
    const queued = await june(
      ['run', 'ledger.tsx', '--database', database, '--script', script, '--props', props],
      project.dir,
    );
    const runId = /^queued run (\S+)$/m.exec(queued.stdout)![1]!;
    await waitFor(() => lines(dir, 'holding-7').length > 0, 60_000, 'the tool to hold');
    const owner = (await client.get(runId)).worker!;
    await workers.get(owner)!.kill();
    rmSync(script); // the run has its script in the database
    writeFileSync(join(dir, 'release-7'), '');
    await start(owner); // puts the run back on its queue; either worker takes it
    expect((await client.result(runId)).output).toBe('scripted 7');
    // the script answered every model call (the ledger's own model was never called), the
    // tool in flight at the kill ran again, and the props came with the run
    expect(lines(dir, 'models.log')).toEqual([]);
    expect(counts(lines(dir, 'effects.log').map((l) => l.split(' ')[1] ?? '')).get('e7')).toBe(2);
  });
});
