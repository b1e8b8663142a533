// `june run --thread` makes runs one conversation in .june/runs; `june threads` lists the
// threads, `june threads show` a thread's runs in order and its conversation, and
// `june threads delete` removes its runs (journals and traces) and the thread.
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../mcp/support.js';
import { june, onlyTrace, repoRoot, startJune, tempProject, traces } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'threads.tsx');
const script = join(repoRoot, 'examples', 'threads.script.json');

/** When the process holding `thread` took it, as its hold file says. */
const ownerSince = (dir: string, thread: string): string =>
  (
    JSON.parse(
      readFileSync(join(dir, '.june', 'runs', '.threads', thread, 'owner.json'), 'utf8'),
    ) as { startedAt: string }
  ).startedAt;

/** A support agent whose refund waits for approval. */
const refunds = `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const refund = tool({
  inputSchema: z.object({ order: z.string() }),
  needsApproval: true,
  execute: async ({ order }) => 'refunded ' + order,
});

export default function Refunds() {
  return (
    <Agent name="support" model={openai('gpt-5-mini')}>
      <Tool name="refund" value={refund} />
      <Step id="reply" prompt="Refund A-1." />
    </Agent>
  );
}
`;

describe('june run --thread and june threads', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  const say = (message: string) =>
    june(
      [
        'run',
        example,
        '--thread',
        'ana',
        '--props',
        JSON.stringify({ message }),
        '--script',
        script,
      ],
      project.dir,
    );

  it('three runs of a thread: the last goes on from the first two; show lists them in order; delete removes them', async () => {
    for (const message of [
      'Hi, my order A-1001 has not arrived.',
      'Can you check it again?',
      'Thanks, that is all.',
    ]) {
      const result = await say(message);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    // in the order they ran (two runs may start within one second: their ids do not sort so)
    const runIds = [...traces(project.dir)]
      .sort(([, a], [, b]) => a.root.startedAt.localeCompare(b.root.startedAt))
      .map(([name]) => name.replace(/\.json$/, ''));
    expect(runIds).toHaveLength(3);

    const listed = await june(['threads'], project.dir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ana  3 runs  last: ${runIds[2]} succeeded `));

    const shown = await june(['threads', 'show', 'ana'], project.dir);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'thread ana · 3 runs',
      expect.stringMatching(new RegExp(`^1\\. ${runIds[0]}  succeeded  `)),
      expect.stringMatching(new RegExp(`^2\\. ${runIds[1]}  succeeded  `)),
      expect.stringMatching(new RegExp(`^3\\. ${runIds[2]}  succeeded  `)),
    ]);
    // the conversation the third run left holds the first two runs' turns
    expect(lines.filter((line) => line.startsWith('user: '))).toEqual([
      'user: Hi, my order A-1001 has not arrived.',
      'user: Can you check it again?',
      'user: Thanks, that is all.',
    ]);
    expect(shown.stdout).toContain(
      'assistant: Your order A-1001 shipped on 2 December and arrives on 5 December.',
    );

    const json = await june(['threads', 'show', 'ana', '--json'], project.dir);
    const thread = JSON.parse(json.stdout) as { runs: Array<{ runId: string; order: number }> };
    expect(thread.runs.map((run) => [run.runId, run.order])).toEqual([
      [runIds[0], 1],
      [runIds[1], 2],
      [runIds[2], 3],
    ]);

    const deleted = await june(['threads', 'delete', 'ana'], project.dir);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`deleted thread ana: 3 runs (${runIds.join(', ')})\n`);
    for (const runId of runIds) {
      expect(existsSync(join(project.dir, '.june', 'runs', runId))).toBe(false);
      expect(existsSync(join(project.dir, '.june', 'runs', `${runId}.json`))).toBe(false);
    }
    expect((await june(['threads'], project.dir)).stdout).toBe('no threads in .june/runs\n');
  });

  it("a run whose script's turns the thread's earlier runs used up says so", async () => {
    const oneTurn = project.write(
      'one-turn.script.json',
      JSON.stringify({
        $comment: 'Test fixture: one answer, for the first run of a thread only',
        steps: { reply: [{ text: 'Hello, Ana.' }] },
      }),
    );
    const sayOnce = (message: string) =>
      june(
        [
          'run',
          example,
          '--thread',
          'ana',
          '--props',
          JSON.stringify({ message }),
          '--script',
          oneTurn,
        ],
        project.dir,
      );
    expect((await sayOnce('Hi')).code).toBe(0);
    const second = await sayOnce('Hi again');
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `has no turn left for step "reply": the thread's earlier runs used its one turn. Add a turn to steps["reply"] in the script for this run.`,
    );
  });

  it('--thread with --resume is refused: a resumed run stays in its own thread', async () => {
    const result = await june(['run', example, '--thread', 'ana', '--resume', 'r1'], project.dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^june: --thread starts a new run of a thread; a resumed run stays/,
    );
  });

  it('a second process refused while a run of the thread waits for approval: thread-busy names the run, and delete is refused until it ends', async () => {
    project.write('refunds.tsx', refunds);
    const script = project.write(
      'refunds.script.json',
      JSON.stringify({
        $comment: 'Test fixture: a refund that waits for approval',
        steps: {
          reply: [
            { toolCalls: [{ tool: 'refund', input: { order: 'A-1' } }] },
            { text: 'Refunded.' },
          ],
        },
      }),
    );
    const waiting = startJune(
      ['run', 'refunds.tsx', '--thread', 'ana', '--script', script, '--approve', 'wait'],
      project.dir,
    );
    await waitUntil(
      () => waiting.output().stdout.includes('? refund needs approval'),
      'the refund to wait for approval',
      30_000,
    );
    const { runId } = onlyTrace(project.dir);

    const second = await june(
      ['run', 'refunds.tsx', '--thread', 'ana', '--script', script],
      project.dir,
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `june: thread ana is busy: run ${runId} of it is running in process ${waiting.pid}`,
    );
    expect(second.stderr).toContain(
      'Wait for that run to end, or stop it first; a new run waits for it with june run --wait-for-owner',
    );
    // the refused run never started (refused before it runs): it prints no run, leaves no
    // trace, names none, and june runs lists only the first
    expect(second.stdout).not.toContain('✗ failed');
    expect(second.stdout).not.toContain('trace:');
    expect([...traces(project.dir).keys()]).toEqual([`${runId}.json`]);
    const listed = await june(['runs'], project.dir);
    expect(listed.stdout.split('\n').filter((line) => /\d{8}-\d{6}-/.test(line))).toHaveLength(1);
    const deleting = await june(['threads', 'delete', 'ana'], project.dir);
    expect(deleting.code).toBe(1);
    expect(deleting.stderr).toContain(`june: thread ana is busy: run ${runId}`);

    process.kill(waiting.pid, 'SIGINT');
    expect((await waiting.done).code).toBe(130);
    const deleted = await june(['threads', 'delete', 'ana'], project.dir);
    expect(deleted.stdout).toBe(`deleted thread ana: 1 run (${runId})\n`);
  });

  it("--wait-for-owner waits for the run that holds the thread, says so, then takes the script turn after that run's", async () => {
    project.write('refunds.tsx', refunds);
    const script = project.write(
      'refunds.script.json',
      JSON.stringify({
        $comment: 'Test fixture: a refund that waits for approval, then the next run of the thread',
        steps: {
          reply: [
            { toolCalls: [{ tool: 'refund', input: { order: 'A-1' } }] },
            { text: 'Refunded.' },
            { text: 'Anything else?' },
          ],
        },
      }),
    );
    const first = startJune(
      ['run', 'refunds.tsx', '--thread', 't2', '--script', script, '--approve', 'wait'],
      project.dir,
    );
    await waitUntil(
      () => first.output().stdout.includes('? refund needs approval'),
      'the refund to wait for approval',
      30_000,
    );
    const { runId } = onlyTrace(project.dir);
    const second = startJune(
      ['run', 'refunds.tsx', '--thread', 't2', '--wait-for-owner', '--script', script],
      project.dir,
    );
    await waitUntil(
      () => second.output().stderr.includes('waiting for it to let go'),
      'the second run to wait for the thread',
      30_000,
    );
    expect(second.output().stderr).toBe(
      `june: thread t2 is being run by run ${runId} in process ${first.pid} on host ${hostname()} (this machine) since ${ownerSince(project.dir, 't2')}; waiting for it to let go\n`,
    );
    const approved = await june(['approve', runId, '--all'], project.dir);
    expect(approved.code).toBe(0);
    expect((await first.done).code).toBe(0);

    // the second run read the thread once it held it: its call takes the turn after the first run's
    const done = await second.done;
    expect(done.stderr).not.toContain('june: warning');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Anything else?');
    expect(done.stdout).not.toContain('Refunded.');
  });
});
