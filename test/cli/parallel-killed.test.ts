// `june run` killed (SIGKILL) in the middle of a <Parallel> fan-out of five branches, then
// taken up with --resume in a new process (test/engine/fixtures/parallel-fan-out.tsx): the
// first process finished the branches' tools e, d, c, b and was killed while a's ran; the
// resumed one goes on a, b, c, d, e. Each branch's calls are found by the branch's key.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent, TraceNode } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, onlyTrace, repoRoot, startJune, tempProject } from './cli-harness.js';

const fixtures = new URL('../engine/fixtures/', import.meta.url);

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  for (const file of readdirSync(fixtures))
    project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
  project.write('parallel.tsx', "export { default } from './fixtures/parallel-fan-out.tsx';\n");
});
afterAll(() => project?.remove());

const lines = (dir: string, name: string) =>
  existsSync(join(dir, name))
    ? readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)
    : [];

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether the `--json` events printed so far have the step's `step-finish`. */
const finished = (stdout: string, step: string) =>
  stdout
    .split('\n')
    .slice(0, -1)
    .some((line) => {
      const event = JSON.parse(line) as RunEvent;
      return event.type === 'step-finish' && event.step === step;
    });

const count = (list: string[]) => {
  const counts: Record<string, number> = {};
  for (const item of list) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
};

describe('june run killed during a <Parallel> fan-out', () => {
  it('resumes with the branches going on in another order: no tool runs twice, no finished branch calls its model again', async () => {
    const cwd = project.folder('killed');
    const props = JSON.stringify({ dir: cwd });
    const first = startJune(['run', '../parallel.tsx', '--props', props, '--json'], cwd);
    await until(
      () =>
        lines(cwd, 'effects.log').length === 4 &&
        lines(cwd, 'started.log').includes('a') &&
        ['b', 'c', 'd', 'e'].every((item) => finished(first.output().stdout, `do-${item}`)),
      'four branches done and the fifth working',
    );
    process.kill(first.pid, 'SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    expect(lines(cwd, 'effects.log')).toEqual(['work e', 'work d', 'work c', 'work b']);
    const printed = first.output().stdout;
    const runId = (JSON.parse(printed.slice(0, printed.indexOf('\n'))) as RunEvent).runId;
    const before = lines(cwd, 'models.log');

    writeFileSync(join(cwd, 'recovering'), '');
    writeFileSync(join(cwd, 'go'), '');
    const second = await june(
      ['run', '../parallel.tsx', '--props', props, '--resume', runId, '--json'],
      cwd,
    );
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);

    // a's tool was in flight at the kill: it ran again (it had not finished); nothing else did
    expect(lines(cwd, 'effects.log')).toEqual(['work e', 'work d', 'work c', 'work b', 'work a']);
    const models = lines(cwd, 'models.log');
    // only a's second turn and the step after the join were asked after the resume
    expect(models.slice(before.length)).toEqual(['do-a|2', 'sum|1']);
    expect(Object.values(count(models)).every((n) => n === 1)).toBe(true);

    const trace = onlyTrace(cwd);
    const parallel = findNode(trace.root, 'parallel')!;
    expect(parallel.children.map((node) => [node.name, node.status])).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((key) => [key, 'succeeded']),
    );
    expect(trace.status).toBe('succeeded');
  }, 180_000);
});

describe('june run of a <Parallel>', () => {
  it('prints the fan-out and names the step of each line while steps run at once', async () => {
    const cwd = project.folder('printed');
    const done = await june(
      [
        'run',
        join(repoRoot, 'examples', 'parallel.tsx'),
        '--script',
        join(repoRoot, 'examples', 'parallel.script.json'),
      ],
      cwd,
    );
    expect(done.code).toBe(0);
    const printed = done.stdout.split('\n');
    expect(printed).toContain(
      '⇉ parallel: 4 branches (cart.ts, price.ts, user.ts, stock.ts), 2 at once',
    );
    expect(printed).toContain('  review-cart › → readFile {"path":"cart.ts"}');
    expect(printed).toContain(
      '  review-stock › stock.ts: a count of 0 is reported as in stock; use count > 0.',
    );
    // the step after the join runs alone: its lines are not named
    expect(printed.some((line) => line.startsWith('  1. user.ts'))).toBe(true);
  }, 60_000);

  it('prints the text of branches streaming at once in whole lines, each under its step', async () => {
    const cwd = project.folder('streaming');
    project.write(
      'streaming/two.tsx',
      `import { Agent, Parallel, Step } from 'june';
import { openai } from 'june/sdk/openai';
export default () => (
  <Agent model={openai('gpt-5-mini')}>
    <Parallel>
      <Step key="cart" id="review-cart" prompt="Review cart.ts" />
      <Step key="price" id="review-price" prompt="Review price.ts" />
    </Parallel>
  </Agent>
);
`,
    );
    // the scripted model streams one word at a time, so both answers stream at once
    project.write(
      'streaming/two.script.json',
      JSON.stringify({
        steps: {
          'review-cart': [
            { text: 'cart.ts: reduce without an initial value throws.\nPass 0 as the start.' },
          ],
          'review-price': [{ text: 'price.ts looks fine to me, no bug here.' }],
        },
      }),
    );
    const done = await june(['run', 'two.tsx', '--script', 'two.script.json'], cwd);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const printed = done.stdout.split('\n');
    const named = printed.filter((line) => line.includes(' › '));
    expect(named.toSorted()).toEqual([
      '  review-cart › Pass 0 as the start.',
      '  review-cart › cart.ts: reduce without an initial value throws.',
      '  review-price › price.ts looks fine to me, no bug here.',
    ]);
    // each branch's last line comes before its step's own end
    const at = (line: string) => printed.indexOf(line);
    expect(at('  review-cart › Pass 0 as the start.')).toBeLessThan(
      printed.findIndex((line) => line.startsWith('✓ review-cart ·')),
    );
    expect(at('  review-price › price.ts looks fine to me, no bug here.')).toBeLessThan(
      printed.findIndex((line) => line.startsWith('✓ review-price ·')),
    );
  }, 60_000);
});

function findNode(node: TraceNode, kind: TraceNode['kind']): TraceNode | undefined {
  if (node.kind === kind) return node;
  for (const child of node.children) {
    const found = findNode(child, kind);
    if (found) return found;
  }
  return undefined;
}
