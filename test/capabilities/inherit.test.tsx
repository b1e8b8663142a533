// Grants: <Inherit> passes named tools of the directly enclosing agent, as that agent has them.
import {
  Agent,
  defineCapabilities,
  Inherit,
  inspect,
  Namespace,
  RequireApproval,
  Step,
  Tool,
} from 'june';
import { describe, expect, it } from 'vitest';
import { alpha, beta, gamma, makeTool, model, toolsOf } from './support.js';

describe('<Inherit>', () => {
  it('passes only the names it lists', async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <Tool name="a" value={alpha} />
          <Tool name="b" value={beta} />
          <Tool name="c" value={gamma} />
          <Agent model={model}>
            <Inherit capabilities={['a', 'c']} />
          </Agent>
        </Agent>,
      ),
    ).toEqual([
      { a: false, b: false, c: false },
      { a: false, c: false },
    ]);
  });

  it("reads the directly enclosing agent: a grandchild reaches the child's tools, not the grandparent's", async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <Tool name="top" value={alpha} />
          <Agent model={model}>
            <Tool name="middle" value={beta} />
            <Agent model={model}>
              <Inherit capabilities={['middle']} />
            </Agent>
          </Agent>
        </Agent>,
      ),
    ).toEqual([{ top: false }, { middle: false }, { middle: false }]);
    await expect(
      inspect(
        <Agent model={model}>
          <Tool name="top" value={alpha} />
          <Agent model={model}>
            <Tool name="middle" value={beta} />
            <Agent model={model}>
              <Inherit capabilities={['top']} />
            </Agent>
          </Agent>
        </Agent>,
      ),
    ).rejects.toMatchObject({
      code: 'inherit-unknown-name',
      message: expect.stringContaining('it has "middle"'),
    });
  });

  it('passes a tool two levels down when each level inherits it', async () => {
    const report = await inspect(
      <Agent model={model}>
        <Tool name="files" value={alpha} />
        <Agent model={model}>
          <Inherit capabilities={['files']} />
          <Agent model={model}>
            <Inherit capabilities={['files']} />
          </Agent>
        </Agent>
      </Agent>,
    );
    expect(report.agents.map((a) => a.tools.map((t) => [t.name, t.granted]))).toEqual([
      [['files', undefined]],
      [['files', '<Tool name="files"> in the enclosing <Agent>']],
      [['files', '<Inherit capabilities={["files"]}> in the enclosing <Agent>']],
    ]);
  });

  it("never reaches a sibling's tools", async () => {
    await expect(
      inspect(
        <Agent model={model}>
          <Tool name="shared" value={alpha} />
          <Agent model={model}>
            <Tool name="mine" value={beta} />
          </Agent>
          <Agent model={model}>
            <Inherit capabilities={['mine']} />
          </Agent>
        </Agent>,
      ),
    ).rejects.toMatchObject({
      code: 'inherit-unknown-name',
      message: expect.stringContaining('it has "shared"'),
    });
  });

  it("carries the parent's tool as the parent sees it: renamed, still waiting for approval", async () => {
    const report = await inspect(
      <Agent model={model}>
        <RequireApproval>
          <Namespace name="github">
            <Tool name="close" value={makeTool('close', false)} />
          </Namespace>
        </RequireApproval>
        <Agent model={model}>
          <Inherit capabilities={['github_close']} />
        </Agent>
      </Agent>,
    );
    expect(report.agents[1]!.tools).toEqual([
      {
        name: 'github_close',
        needsApproval: true,
        source: '<Inherit capabilities={["github_close"]}>',
        granted:
          '<Tool name="close"> in <RequireApproval> in <Namespace name="github"> in the enclosing <Agent>',
      },
    ]);
  });

  it("keeps a dynamic approval of the parent's tool, and the child's wrappers only add", async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <Tool name="maybe" value={makeTool('maybe', () => true)} />
          <Tool name="free" value={makeTool('free', false)} />
          <Agent model={model}>
            <Inherit capabilities={['maybe']} />
            <RequireApproval>
              <Namespace name="child">
                <Inherit capabilities={['free']} />
              </Namespace>
            </RequireApproval>
          </Agent>
        </Agent>,
      ),
    ).toEqual([
      { maybe: 'dynamic', free: false },
      { maybe: 'dynamic', child_free: true },
    ]);
  });

  it('works from a bundle in the nested agent: a bundle is transparent', async () => {
    const Grants = defineCapabilities(() => <Inherit capabilities={['a']} />, { name: 'Grants' });
    const report = await inspect(
      <Agent model={model}>
        <Tool name="a" value={alpha} />
        <Agent model={model}>
          <Grants />
        </Agent>
      </Agent>,
    );
    expect(report.agents[1]!.tools[0]).toMatchObject({
      name: 'a',
      source: '<Inherit capabilities={["a"]}> in <Grants>',
    });
  });

  it("can take a tool of the parent's tools prop by name; nothing of it crosses otherwise", async () => {
    const report = await inspect(
      <Agent model={model} tools={{ a: alpha, b: beta }}>
        <Step id="outer" prompt="go" />
        <Agent model={model}>
          <Inherit capabilities={['a']} />
        </Agent>
        <Agent model={model} />
      </Agent>,
    );
    expect(report.agents.map((agent) => agent.tools.map((t) => t.name))).toEqual([
      ['a', 'b'],
      ['a'],
      [],
    ]);
    expect(report.agents[1]!.tools[0]!.granted).toBe('tools={{ a }} in the enclosing <Agent>');
  });
});
