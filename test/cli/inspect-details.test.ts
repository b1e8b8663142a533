// Where each agent and tool is declared (inspect()'s `details`), in a project set up by
// `june init`: its tsconfig says "jsx": "react-jsx", whose runtime (jsx(), not jsxDEV())
// passes elements no source location. `june inspect --details` and inspect() in a script run
// with tsx both name the file and line of each declaration, across the project's files.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectReport } from 'june';
import { june, repoRoot, tempProject } from './cli-harness.js';

let project: ReturnType<typeof tempProject>;
beforeAll(async () => {
  project = tempProject();
  const init = await june(['init'], project.dir);
  expect(init.code, init.stderr).toBe(0);
  project.write(
    'agents/deployer.tsx',
    `import { tool } from 'ai';
import { Agent, RequireApproval, Tool } from 'june';
import { z } from 'zod';

const deploy = tool({
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  execute: async ({ env }) => env,
});

export function Deployer() {
  return (
    <Agent name="deployer" model={{} as never}>
      <RequireApproval>
        <Tool name="deploy" value={deploy} />
      </RequireApproval>
    </Agent>
  );
}
`,
  );
  project.write(
    'release.tsx',
    `import { tool } from 'ai';
import { Agent, Tool } from 'june';
import { z } from 'zod';
import { Deployer } from './agents/deployer.js';

const read = tool({ inputSchema: z.object({}), execute: async () => '## 1.2.1' });

export default function Release() {
  return (
    <Agent name="release" model={{} as never}>
      <Tool name="readChangelog" value={read} />
      <Deployer />
    </Agent>
  );
}
`,
  );
  project.write(
    'print-report.tsx',
    `import { inspect } from 'june';
import Release from './release.js';

const details = process.argv.includes('--details');
process.stdout.write(JSON.stringify(await inspect(Release, { details })));
`,
  );
});
afterAll(() => project.remove());

/** Each agent's and tool's declaration, by path and name. */
function declarations(report: InspectReport) {
  return report.agents.map((agent) => ({
    path: agent.path,
    declaration: agent.declaration,
    tools: agent.tools.map((tool) => [tool.name, tool.declaration]),
  }));
}

const expected = [
  {
    path: 'release',
    declaration: 'release.tsx:10:5',
    tools: [['readChangelog', 'release.tsx:11:7']],
  },
  {
    path: 'release > deployer',
    declaration: 'agents/deployer.tsx:12:5',
    tools: [['deploy', 'agents/deployer.tsx:14:9']],
  },
];

/** `node tsx <script> ...args` in the project, as `npx tsx` runs a script there. */
function tsx(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), ...args],
    {
      cwd: project.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('declarations with the tsconfig june init writes (react-jsx)', () => {
  it('is the setup june init writes', () => {
    const tsconfig = JSON.parse(readFileSync(join(project.dir, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions).toMatchObject({ jsx: 'react-jsx', jsxImportSource: 'june' });
  });

  it('june inspect --json --details gives each agent and tool its file:line:column', async () => {
    const result = await june(['inspect', 'release.tsx', '--json', '--details'], project.dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as InspectReport;
    expect(declarations(report)).toEqual(expected);
    expect(report.agents[1]!.tools[0]!.inputSchema).toMatchObject({
      properties: { env: { enum: ['staging', 'prod'] } },
    });
  });

  it('june inspect --details shows them in the tree', async () => {
    const result = await june(['inspect', 'release.tsx', '--details'], project.dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'release  at release.tsx:10:5',
      '└─ readChangelog  <Tool name="readChangelog">  at release.tsx:11:7',
      'release > deployer  at agents/deployer.tsx:12:5',
      '└─ deploy  <Tool name="deploy"> in <RequireApproval>  needs approval  at agents/deployer.tsx:14:9',
      '',
    ]);
  });

  it('inspect(Release, { details: true }) in a script run with tsx names them too', async () => {
    const result = await tsx(['print-report.tsx', '--details']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(declarations(JSON.parse(result.stdout) as InspectReport)).toEqual(expected);
  });

  it('adds none without details', async () => {
    const script = await tsx(['print-report.tsx']);
    expect(script.code, script.stderr).toBe(0);
    const cli = await june(['inspect', 'release.tsx', '--json'], project.dir);
    expect(cli.code, cli.stderr).toBe(0);
    for (const output of [script.stdout, cli.stdout])
      expect(output).not.toMatch(/declaration|inputSchema/);
  });
});
