import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, nodesOf, onlyTrace, startJune, tempProject, traces } from './cli-harness.js';

// Workflows written to a project outside the repository (no tsconfig.json there: June's JSX
// settings apply), each run in a folder of its own so each has its own .june/runs/.
let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  project.write(
    'greet.tsx',
    `import { Agent, Step } from 'june';
import { scriptedModel } from 'june/testing';

const model = scriptedModel({ steps: { greet: [{ text: 'Hello!' }] } });

export default function Greet({ name = 'nobody' }: { name?: string }) {
  return (
    <Agent model={model}>
      <Step id="greet" prompt={\`Say hello to \${name}\`} />
    </Agent>
  );
}
`,
  );
  project.write(
    'greet.script.json',
    JSON.stringify({
      $comment: 'Test fixture: one turn too many',
      steps: { greet: [{ text: 'Hi there.' }, { text: 'never used' }] },
    }),
  );
  project.write(
    'wait.tsx',
    `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

// A tool that only ends when the run is aborted.
const wait = tool({
  description: 'Wait until aborted',
  inputSchema: z.object({}),
  execute: (_input, { abortSignal }) =>
    new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(new Error('stopped')))),
});
const model = scriptedModel({ steps: { wait: [{ toolCalls: [{ tool: 'wait' }], usage: { inputTokens: 100, outputTokens: 10 } }, { text: 'never' }] } });

export default function Wait() {
  return (
    <Agent model={model}>
      <Tool name="wait" value={wait} />
      <Step id="wait" prompt="Wait" />
    </Agent>
  );
}
`,
  );
});
afterAll(() => project.remove());

const folder = (name: string) => project.folder(name);

describe('june run', () => {
  it('runs a workflow in a folder with no tsconfig.json, passing --props to its root component', async () => {
    const cwd = folder('props');
    const result = await june(['run', '../greet.tsx', '--props', '{"name":"Ada"}'], cwd);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('▸ greet Say hello to Ada');
    expect(result.stdout).toContain('Hello!');
    const trace = onlyTrace(cwd);
    expect(trace.workflow).toBe('greet.tsx');
    expect(nodesOf(trace).find((node) => node.kind === 'step')?.prompt).toBe('Say hello to Ada');
  });

  it('runs a workflow whose package is not ES modules, or that has no package.json, with the files it imports', async () => {
    // a .tsx file and the .ts files it imports are ES modules by their syntax, whatever the
    // package says: without "type": "module" (or a package.json at all) they load all the same
    const workflow = `import { Agent, Step } from 'june';
import { scriptedModel } from 'june/testing';
import { greeting } from './greeting.js';

const model = scriptedModel({ steps: { greet: [{ text: greeting('Ada') }] } });

export default function Greet() {
  return (
    <Agent model={model}>
      <Step id="greet" prompt="Say hello" />
    </Agent>
  );
}
`;
    const helper = 'export const greeting = (name: string): string => `Hello, ${name}!`;\n';
    const bare = tempProject();
    try {
      rmSync(join(bare.dir, 'package.json'));
      project.write('commonjs/package.json', '{ "name": "commonjs" }\n');
      for (const at of [project.folder('commonjs'), bare.dir]) {
        writeFileSync(join(at, 'greet.tsx'), workflow);
        writeFileSync(join(at, 'greeting.ts'), helper);
        const result = await june(['run', 'greet.tsx'], at);
        expect(result.stderr).toBe('');
        expect(result.stdout).toContain('Hello, Ada!');
        expect(result.stdout).toContain('✓ succeeded');
        expect(result.code).toBe(0);
      }
    } finally {
      bare.remove();
    }
  });

  it('--script answers every model call from the script and warns about turns that never ran', async () => {
    const cwd = folder('script');
    const result = await june(['run', '../greet.tsx', '--script', '../greet.script.json'], cwd);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Hi there.');
    expect(result.stderr.trim().split('\n')).toEqual([
      'june: warning: the model script ../greet.script.json has 1 turn that never ran: step "greet" turn 2. Remove it from the script, or find why the workflow stopped before it.',
    ]);
  });

  it('on Ctrl-C (SIGINT) aborts the run, writes its trace as aborted and exits 130', async () => {
    const cwd = folder('interrupt');
    const running = startJune(['run', '../wait.tsx'], cwd);
    for (let tries = 0; !running.output().stdout.includes('→ wait') && tries < 300; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(running.output().stdout).toContain('→ wait');
    process.kill(running.pid, 'SIGINT');
    const result = await running.done;

    expect(result.code).toBe(130);
    expect(result.stderr).toContain('june: interrupted; aborting the run');
    expect(result.stdout).toContain('■ aborted after');
    // the model call that asked for the tool finished: its tokens are kept
    expect(result.stdout).toContain('110 tokens (100 in, 10 out)');
    const trace = onlyTrace(cwd);
    expect(trace.status).toBe('aborted');
    expect(trace.root.error?.code).toBe('run-aborted');
    expect(trace.root.usage?.totalTokens).toBe(110);
  });
});

describe('june run with a broken workflow', () => {
  it('a <Step> outside an <Agent> fails with exit 1, one june: line naming the step and its place, and a failed trace', async () => {
    const cwd = folder('broken');
    project.write(
      'broken/broken.tsx',
      `import { Step } from 'june';\n\nexport default function Broken() {\n  return <Step id="lost" prompt="Where is my agent?" />;\n}\n`,
    );
    const result = await june(['run', 'broken.tsx'], cwd);

    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^june: <Step id="lost"> at .*broken\.tsx:4:10 has no <Agent> around it/,
    );
    const trace = onlyTrace(cwd);
    expect(trace.status).toBe('failed');
    expect(trace.workflow).toBe('broken.tsx');
    expect(trace.root.error?.code).toBe('step-outside-agent');
  });

  it("an error thrown by the workflow's own code names the file and line", async () => {
    const cwd = folder('throws');
    project.write(
      'throws/throws.tsx',
      `import { Agent } from 'june';\n\nexport default function Throws() {\n  const settings: any = undefined;\n  return <Agent model={settings.model} />;\n}\n`,
    );
    const result = await june(['run', 'throws.tsx'], cwd);

    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "june: the workflow failed: Cannot read properties of undefined (reading 'model') (at throws.tsx:5:33)\n",
    );
    expect(onlyTrace(cwd).status).toBe('failed');
  });

  it.each([
    [
      'no default export',
      'export function Release() { return null; }\n',
      /^june: nodefault\.tsx has no default export; .*It exports Release: did you mean export default Release\?/,
    ],
    [
      'a default export that is not a function',
      'export default { model: 1 };\n',
      /^june: the default export of nodefault\.tsx is an object, not a component; export a function component/,
    ],
    [
      'a syntax error',
      'export default function W() { return <Agent model= />; }\n',
      /^june: cannot load nodefault\.tsx: .*nodefault\.tsx:1:\d+: ERROR: /,
    ],
    [
      'an error at load',
      "throw new Error('no config');\nexport default function W() { return null; }\n",
      /^june: cannot load nodefault\.tsx: no config$/,
    ],
  ])('%s: exit 1 with one june: line, and no run', async (_case, source, message) => {
    const name = `load-${_case.replace(/\W+/g, '-')}`;
    const cwd = folder(name);
    project.write(`${name}/nodefault.tsx`, source);
    const result = await june(['run', 'nodefault.tsx'], cwd);

    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(result.stdout).toBe('');
    expect(traces(cwd).size).toBe(0);
  });
});
