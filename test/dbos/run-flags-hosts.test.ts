// The same `june run` flags on both hosts: a run in this process over the runs folder, and
// a run over the database followed with `--follow` (PostgreSQL and a worker). For each flag
// set both end alike: the exit code, what the tools did, how each approval was decided, and
// the `june:` line of a refusal. What still differs between the two is written down in
// docs/cli.md ("The same flags on both hosts").
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, repoRoot, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, type WorkerProcess } from './support.js';

const missing = postgresMissing();

/** The progress lines that say what a run did: tool calls, their results, approvals, the end. */
function doings(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => /^\s*(→|←|✓ approved|✗ denied|✓ succeeded|✗ failed|■ aborted)/.test(line))
    .map((line) =>
      line
        .trim()
        // the run's length and who answered (the terminal's user, a policy) are the host's
        .replace(/ in \d+(\.\d+)?\s?(ms|s)\b.*$/, '')
        .replace(/ after \d+(\.\d+)?\s?(ms|s)\b.*$/, '')
        .replace(/ \((by|from) [^)]*\)$/, ''),
    );
}

describe.runIf(!missing)('the same june run flags on the local and database hosts', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let worker: WorkerProcess;
  let database: string;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_run_flags_hosts');
    project = tempProject();
    for (const name of ['release.tsx', 'release.script.json', 'CHANGELOG.md', 'threads.tsx'])
      copyFileSync(join(repoRoot, 'examples', name), join(project.dir, name));
    worker = await startWorker(project.dir, database, 'flags-hosts', { files: ['release.tsx'] });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  const both = async (flags: string[]) => {
    const local = await june(['run', 'release.tsx', ...flags], project.dir);
    const followed = await june(
      ['run', 'release.tsx', '--database', database, '--follow', ...flags],
      project.dir,
    );
    return { local, followed };
  };

  it.each([
    ['--approve all', ['--approve', 'all']],
    ['--approve none', ['--approve', 'none']],
    ['--approve all --strict', ['--approve', 'all', '--strict']],
  ])(
    '%s: the same exit code, tool calls and decisions',
    async (_name, flags) => {
      const { local, followed } = await both(['--script', 'release.script.json', ...flags]);
      expect(followed.code).toBe(local.code);
      expect(local.code).toBe(0);
      expect(doings(followed.stdout)).toEqual(doings(local.stdout));
      // both answered by the request's policy, where the run runs: recorded as automatic
      expect(doings(local.stdout)).toContain(
        flags.includes('all')
          ? '✓ approved deploy (automatic)'
          : '✗ denied deploy: denied by --approve none (automatic)',
      );
    },
    120_000,
  );

  it('--props its props schema refuses: the same exit code and june: line, and nothing queued', async () => {
    const flags = ['--props', '{"message":5}'];
    const local = await june(['run', 'threads.tsx', ...flags], project.dir);
    const followed = await june(
      ['run', 'threads.tsx', '--database', database, '--follow', ...flags],
      project.dir,
    );
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/^june: .*message/);
    expect(followed.code).toBe(local.code);
    expect(followed.stderr).toBe(local.stderr);
    const runs = await june(['runs', '--database', database, '--json'], project.dir);
    expect(runs.stdout).not.toContain('threads');
  }, 120_000);

  it('--props the workflow does not take: the same exit code and june: line', async () => {
    const { local, followed } = await both(['--props', '[1]']);
    expect(followed.code).toBe(local.code);
    expect(followed.stderr).toBe(local.stderr);
  }, 120_000);
});
