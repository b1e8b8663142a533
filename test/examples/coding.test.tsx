import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { inspect, run, type RunEvent, type Trace, type TraceNode } from 'june';
import { scriptedModel } from 'june/testing';
import FixFailingTest, { exerciseFiles } from '../../examples/coding.js';

const scriptPath = fileURLToPath(new URL('../../examples/coding.script.json', import.meta.url));
const examplePath = fileURLToPath(new URL('../../examples/coding.tsx', import.meta.url));
const cliPath = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'june-coding-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `node --test` in `dir`, as the agent's bash runs it. */
const nodeTest = (dir: string) =>
  spawnSync(process.execPath, ['--test'], { cwd: dir, encoding: 'utf8' });

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function toolNodes(node: TraceNode): TraceNode[] {
  return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(toolNodes)];
}

describe('examples/coding.tsx', () => {
  it('sets up a project whose test fails', async () => {
    const dir = tempDir();
    // inspect() renders the workflow (which writes the project) without calling a model.
    await inspect(<FixFailingTest dir={dir} />);
    expect(readFileSync(join(dir, 'sum.js'), 'utf8')).toBe(exerciseFiles['sum.js']);
    expect(nodeTest(dir).status).not.toBe(0);
  });

  it('fixes the failing test with the scripted model: read, read, write, then bash runs the tests', async () => {
    const dir = tempDir();
    const model = scriptedModel(scriptPath);
    const handle = run(<FixFailingTest dir={dir} />, { model, onApproval: () => true });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    const calls = toolNodes(result.trace.root);
    expect(calls.map((node) => [node.name, node.input])).toEqual([
      ['readFile', { path: 'sum.test.js' }],
      ['readFile', { path: 'sum.js' }],
      ['writeFile', { path: 'sum.js', text: expect.stringContaining('a + b') }],
      ['bash', { command: 'node --test' }],
    ]);
    expect(calls[0]!.output).toBe(exerciseFiles['sum.test.js']);
    // Only bash asked, and the policy's answer is recorded as automatic.
    expect(
      events
        .filter((event) => event.type === 'approval-request')
        .map((event) => event.type === 'approval-request' && event.request.tool),
    ).toEqual(['bash']);
    expect(calls[3]!.approval).toMatchObject({ status: 'approved', automatic: true });

    const lastResult = events.filter((event) => event.type === 'tool-result').at(-1);
    expect(lastResult).toMatchObject({
      tool: 'bash',
      // node --test prints TAP (`# fail 0`) when not on a terminal up to Node 22, and its spec
      // report (`ℹ fail 0`) from Node 24 on
      output: { exitCode: 0, timedOut: false, stdout: expect.stringMatching(/^(#|ℹ) fail 0$/m) },
    });
    expect(nodeTest(dir).status).toBe(0);
    expect(result.trace.root.children[0]!.capabilities).toEqual([
      { name: 'readFile', source: '<Tool name="readFile"> in <Coding>' },
      { name: 'writeFile', source: '<Tool name="writeFile"> in <Coding>' },
      { name: 'bash', source: '<Bash> in <Coding>' },
    ]);
    expect(JSON.stringify(result.trace)).not.toContain(dir);
    expect(result.steps.fix).toMatch(/passes/);
    model.assertAllTurnsUsed();
  });

  it('makes a fresh scratch directory under the temp directory when no dir is given', async () => {
    // a temp directory of this test's own (TMPDIR, which os.tmpdir() reads at each call): in
    // the system's, another test process may make a june-coding- folder at the same time
    const temp = tempDir();
    vi.stubEnv('TMPDIR', temp);
    try {
      const model = scriptedModel(scriptPath);
      await run(FixFailingTest, { model, onApproval: () => true }).result;
    } finally {
      vi.unstubAllEnvs();
    }

    const created = readdirSync(temp).filter((name) => name.startsWith('june-coding-'));
    expect(created).toHaveLength(1);
    expect(nodeTest(join(temp, created[0]!)).status).toBe(0);
  });

  it('keeps the file tools inside the scratch directory', async () => {
    const dir = tempDir();
    const model = scriptedModel({
      $comment: 'Test fixture: the model tries paths outside the project',
      steps: {
        fix: [
          {
            toolCalls: [
              { tool: 'readFile', input: { path: '../outside.txt' } },
              { tool: 'writeFile', input: { path: '/tmp/june-coding-escape.txt', text: 'x' } },
              { tool: 'readFile', input: { path: 'missing.js' } },
            ],
          },
          { text: 'Could not.' },
        ],
      },
    });
    const events = await collect(run(<FixFailingTest dir={dir} />, { model }).events);

    const errors = events.flatMap((event) =>
      event.type === 'tool-error' ? [event.error.message] : [],
    );
    expect(errors).toEqual([
      expect.stringContaining('"../outside.txt" is not a file inside the project directory'),
      expect.stringContaining(
        '"/tmp/june-coding-escape.txt" is not a file inside the project directory',
      ),
      'cannot read "missing.js": ENOENT',
    ]);
    expect(existsSync('/tmp/june-coding-escape.txt')).toBe(false);
    expect(JSON.stringify(events)).not.toContain(dir);
  });

  it(
    'runs with `june run --script --approve all` and exits 0 (the built CLI)',
    { timeout: 90_000 },
    async () => {
      expect(existsSync(cliPath), 'dist/ is missing: run npm run build').toBe(true);
      const dir = tempDir();
      const cwd = tempDir(); // the CLI writes .june/runs/ here
      const cli = spawnSync(
        process.execPath,
        [
          cliPath,
          'run',
          examplePath,
          '--script',
          scriptPath,
          '--approve',
          'all',
          '--props',
          JSON.stringify({ dir }),
        ],
        { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
      );

      expect(cli.status, cli.stderr).toBe(0);
      expect(nodeTest(dir).status).toBe(0);
      const [traceFile] = readdirSync(join(cwd, '.june', 'runs')).filter((name) =>
        name.endsWith('.json'),
      );
      const trace = JSON.parse(
        readFileSync(join(cwd, '.june', 'runs', traceFile!), 'utf8'),
      ) as Trace;
      expect(trace.status).toBe('succeeded');
      expect(trace.root.children[0]!.capabilities).toContainEqual({
        name: 'bash',
        source: '<Bash> in <Coding>',
      });
    },
  );
});
