import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, startJune, tempProject, type RunningJune } from '../cli/cli-harness.js';

// Two `june run --resume` of one run, in real processes: a run has one owner at a time. The
// deploy tool logs each execution (with its process id) to deploys.log, then waits for a
// `go` file, so the process that runs it holds the run while the test starts another.

const flow = `import { appendFileSync, existsSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const deploy = tool({
  description: 'Deploy',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync('deploys.log', env + ' ' + process.pid + '\\n');
    while (!existsSync('go')) await new Promise((resolve) => setTimeout(resolve, 20));
    return 'Deployed to ' + env;
  },
});

export default function Release() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy to staging" />
    </Agent>
  );
}
`;
const script = JSON.stringify({
  $comment: 'Test fixture: test/durable/cli-owner.test.ts',
  steps: {
    release: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
  },
});

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  project.write('flow.tsx', flow);
  project.write('flow.script.json', script);
});
afterAll(() => project.remove());

let cases = 0;
const lines = (cwd: string, name: string) =>
  existsSync(join(cwd, name)) ? readFileSync(join(cwd, name), 'utf8').trim().split('\n') : [];
const ownerFile = (cwd: string, runId: string) => join(cwd, '.june', 'runs', runId, 'owner.json');

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A run stopped (Ctrl-C) while its deploy waited for approval: its folder and id. */
async function stoppedRun(): Promise<{ cwd: string; runId: string }> {
  const cwd = project.folder(`case-${++cases}`);
  const first = startJune(
    ['run', '../flow.tsx', '--script', '../flow.script.json', '--json', '--approve', 'wait'],
    cwd,
  );
  await until(
    () => first.output().stdout.includes('"type":"approval-request"'),
    'the run asked for approval',
  );
  process.kill(first.pid, 'SIGINT');
  expect((await first.done).code).toBe(130);
  const runId = (JSON.parse(first.output().stdout.split('\n')[0]!) as { runId: string }).runId;
  expect(existsSync(ownerFile(cwd, runId))).toBe(false); // let go as it stopped
  return { cwd, runId };
}

const resume = (runId: string, ...more: string[]) => [
  'run',
  '../flow.tsx',
  '--script',
  '../flow.script.json',
  '--resume',
  runId,
  '--approve',
  'all',
  ...more,
];

const ownedBy = (runId: string, owner: RunningJune) =>
  new RegExp(
    `^june: run ${runId} is already being run by process ${owner.pid} on host ${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(this machine\\) since \\d{4}-\\d\\d-\\d\\dT`,
  );

describe('june run --resume: one owner per run', () => {
  it('two resumes started at once: one runs the approved tool, the other fails at once naming the owner', async () => {
    const { cwd, runId } = await stoppedRun();
    const a = startJune(resume(runId), cwd);
    const b = startJune(resume(runId), cwd);
    // the winner waits in the tool for `go`: the first to end is the loser
    const first = await Promise.race([
      a.done.then((done) => ({ loser: a, winner: b, done })),
      b.done.then((done) => ({ loser: b, winner: a, done })),
    ]);
    expect(first.done.code).toBe(1);
    expect(first.done.stderr).toMatch(ownedBy(runId, first.winner));
    expect(first.done.stderr.trim().split('\n')).toHaveLength(1);
    expect(first.done.stdout).toBe(''); // nothing ran: no headline, no trace written
    await until(() => lines(cwd, 'deploys.log').length === 1, 'the winner deploys');
    writeFileSync(join(cwd, 'go'), '');
    const won = await first.winner.done;
    expect(won.stderr).toBe('');
    expect(won.code).toBe(0);
    expect(lines(cwd, 'deploys.log')).toEqual([`staging ${first.winner.pid}`]);
    expect(existsSync(ownerFile(cwd, runId))).toBe(false);
  }, 120_000);

  it('--wait-for-owner waits for the owner to let go, then finds the work done and runs nothing again', async () => {
    const { cwd, runId } = await stoppedRun();
    const a = startJune(resume(runId), cwd);
    await until(() => lines(cwd, 'deploys.log').length === 1, 'the first resume deploys');
    const b = startJune(resume(runId, '--wait-for-owner'), cwd);
    await until(
      () => b.output().stderr.includes('waiting for it to let go'),
      'the second resume waits',
    );
    expect(b.output().stderr).toContain(`june: run ${runId} is being run by process ${a.pid}`);
    writeFileSync(join(cwd, 'go'), '');
    expect((await a.done).code).toBe(0);
    const waited = await b.done;
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain('resumed from its journal');
    expect(lines(cwd, 'deploys.log')).toEqual([`staging ${a.pid}`]);
  }, 120_000);

  it('after the owner is killed (kill -9) its lease is taken over and the resume works', async () => {
    const { cwd, runId } = await stoppedRun();
    const a = startJune(resume(runId), cwd);
    await until(() => lines(cwd, 'deploys.log').length === 1, 'the first resume deploys');
    expect(JSON.parse(readFileSync(ownerFile(cwd, runId), 'utf8'))).toMatchObject({
      pid: a.pid,
      hostname: hostname(),
    });
    process.kill(a.pid, 'SIGKILL');
    expect((await a.done).signal).toBe('SIGKILL');
    expect(existsSync(ownerFile(cwd, runId))).toBe(true); // a kill leaves the lease behind
    writeFileSync(join(cwd, 'go'), '');
    const b = await june(resume(runId), cwd);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    // the call in flight at the kill runs again (at least once), in the new owner
    expect(lines(cwd, 'deploys.log')).toHaveLength(2);
    expect(lines(cwd, 'deploys.log')[0]).toBe(`staging ${a.pid}`);
    expect(existsSync(ownerFile(cwd, runId))).toBe(false);
  }, 120_000);
});
