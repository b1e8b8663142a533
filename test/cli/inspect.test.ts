import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, repoRoot, tempProject } from './cli-harness.js';

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  project.write(
    'nested.tsx',
    `import { tool } from 'ai';
import { Agent, Inherit, Namespace, RequireApproval, Step, Tool } from 'june';
import { z } from 'zod';

const search = tool({ description: 'Search', inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => query });
const close = tool({ description: 'Close', inputSchema: z.object({ id: z.number() }), execute: async ({ id }) => id });
const model = {} as any;

export default function Triage({ writable = false }: { writable?: boolean }) {
  return (
    <Agent model={model} name="triage">
      <Namespace name="github">
        <Tool name="search" value={search} />
        {writable && (
          <RequireApproval>
            <Tool name="close" value={close} />
          </RequireApproval>
        )}
      </Namespace>
      <Agent model={model} name="helper">
        <Inherit capabilities={['github_search']} />
        <Step id="help" prompt="Help" />
      </Agent>
    </Agent>
  );
}
`,
  );
});
afterAll(() => project.remove());

describe('june inspect', () => {
  it('prints each agent and its tools as a tree, with the approval flag, without a model or an API key', async () => {
    const result = await june(['inspect', join(repoRoot, 'examples', 'release.tsx')], project.dir);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'agent',
        '├─ readFile  <Tool name="readFile">',
        '└─ deploy    <Tool name="deploy">  needs approval',
        '',
      ].join('\n'),
    );
  });

  it('shows wrappers, grants into nested agents, and props from --props', async () => {
    const result = await june(
      ['inspect', 'nested.tsx', '--props', '{"writable":true}'],
      project.dir,
    );

    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'triage',
      '├─ github_search  <Tool name="search"> in <Namespace name="github">',
      '└─ github_close   <Tool name="close"> in <Namespace name="github"> in <RequireApproval>  needs approval',
      'triage > helper',
      '└─ github_search  <Inherit capabilities={["github_search"]}>  granted: <Tool name="search"> in <Namespace name="github"> in the enclosing <Agent>',
      '',
    ]);
  });

  it('--json prints the inspect() report', async () => {
    const result = await june(['inspect', 'nested.tsx', '--json'], project.dir);

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.agents.map((agent: { path: string }) => agent.path)).toEqual([
      'triage',
      'triage > helper',
    ]);
    expect(report.agents[0].tools).toEqual([
      {
        name: 'github_search',
        needsApproval: false,
        source: '<Tool name="search"> in <Namespace name="github">',
      },
    ]);
  });

  it('a tree error exits 1 with the same june: message a run would give', async () => {
    project.write(
      'collide.tsx',
      `import { tool } from 'ai';\nimport { Agent, Tool } from 'june';\nimport { z } from 'zod';\nconst t = tool({ inputSchema: z.object({}), execute: async () => 1 });\nexport default function C() {\n  return (\n    <Agent model={{} as any}>\n      <Tool name="x" value={t} />\n      <Tool name="x" value={t} />\n    </Agent>\n  );\n}\n`,
    );
    const result = await june(['inspect', 'collide.tsx'], project.dir);

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^june: .*"x"/);
  });
});
