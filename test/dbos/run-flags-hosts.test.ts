// The same `june run` flags on both hosts: a run in this process over the runs folder, and
// a run over the database followed with `--follow` (PostgreSQL and a worker). For each flag
// set both end alike: the exit code, what the tools did, how each approval was decided, and
// the `june:` line of a refusal. What still differs between the two is written down in
// docs/cli.md ("The same flags on both hosts").
import { copyFileSync, readFileSync } from 'node:fs';
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

  it("--trace: both write the run's trace to the file, with the same status and tool calls", async () => {
    const { local, followed } = await both([
      '--script',
      'release.script.json',
      '--approve',
      'all',
      '--trace',
      'trace.json',
    ]);
    expect(followed.code).toBe(local.code);
    expect(local.stdout).toContain('trace: .june/runs/');
    expect(followed.stdout).toContain('trace: trace.json\n');
    // the followed run wrote last: its file is the trace of the run over the database
    const written = JSON.parse(readFileSync(join(project.dir, 'trace.json'), 'utf8')) as {
      runId: string;
      status: string;
    };
    expect(written.status).toBe('succeeded');
    expect(followed.stdout).toContain(written.runId);
    const localTrace = /trace: (\S+)/.exec(local.stdout)![1]!;
    const tools = (file: string) => {
      const names: string[] = [];
      const walk = (node: { kind: string; name: string; children?: unknown[] }) => {
        if (node.kind === 'tool') names.push(node.name);
        for (const child of node.children ?? []) walk(child as typeof node);
      };
      walk((JSON.parse(readFileSync(join(project.dir, file), 'utf8')) as { root: never }).root);
      return names;
    };
    expect(tools('trace.json')).toEqual(tools(localTrace));
    expect(tools('trace.json')).toContain('deploy');
  }, 120_000);

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

  it('no --props where the props schema wants some: the same exit code and june: line as --props {}, and nothing queued', async () => {
    const local = await june(['run', 'threads.tsx'], project.dir);
    const followed = await june(
      ['run', 'threads.tsx', '--database', database, '--follow'],
      project.dir,
    );
    const empty = await june(['run', 'threads.tsx', '--props', '{}'], project.dir);
    expect(local.code).toBe(2);
    expect(local.stderr).toBe(empty.stderr);
    expect(local.stderr).toMatch(
      /^june: the props do not fit threads\.tsx's props schema: message: /,
    );
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
