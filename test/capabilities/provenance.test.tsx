// What an agent records about its tools: plain data in the shape the capability page shows.
import {
  Agent,
  defineCapabilities,
  Inherit,
  inspect,
  Namespace,
  RequireApproval,
  run,
  Step,
  Tool,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alpha, beta, gamma, model } from './support.js';

function agentNodes(node: TraceNode): TraceNode[] {
  return [...(node.kind === 'agent' ? [node] : []), ...node.children.flatMap(agentNodes)];
}

/** True when `value` holds nothing but JSON: no functions, no class instances, no undefined. */
function isPlainJson(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as object).every(isPlainJson);
}

describe("the capabilities of an agent's trace node", () => {
  const workflow = (
    <Agent model={model}>
      <Tool name="files" value={alpha} />
      <Agent model={model}>
        <Namespace name="github">
          <Tool name="search" value={beta} />
        </Namespace>
        <Tool
          name="research"
          description="Research a question"
          input={z.object({ question: z.string() })}
        >
          {({ question }: { question: string }) => (
            <Agent model={model}>
              <Step id="findings" prompt={`Research: ${question}`} />
            </Agent>
          )}
        </Tool>
        <Inherit capabilities={['files']} />
        <Step id="work" prompt="go" />
      </Agent>
    </Agent>
  );

  it('match the shape on the capability page, exactly', async () => {
    const result = await run(workflow, {
      model: scriptedModel({ steps: { work: [{ text: 'ok' }] } }),
    }).result;
    const [outer, inner] = agentNodes(result.trace.root);
    expect(outer!.capabilities).toEqual([{ name: 'files', source: '<Tool name="files">' }]);
    expect(inner!.capabilities).toEqual([
      { name: 'github_search', source: '<Tool name="search"> in <Namespace name="github">' },
      { name: 'research', source: '<Tool name="research">', composite: true },
      {
        name: 'files',
        source: '<Inherit capabilities={["files"]}>',
        granted: '<Tool name="files"> in the enclosing <Agent>',
      },
    ]);
    expect(JSON.stringify(inner!.capabilities)).toBe(
      '[{"name":"github_search","source":"<Tool name=\\"search\\"> in <Namespace name=\\"github\\">"},' +
        '{"name":"research","source":"<Tool name=\\"research\\">","composite":true},' +
        '{"name":"files","source":"<Inherit capabilities={[\\"files\\"]}>","granted":"<Tool name=\\"files\\"> in the enclosing <Agent>"}]',
    );
  });

  it('are plain data: JSON round-trips to an equal value, with no functions or tools inside', async () => {
    const handle = run(workflow, { model: scriptedModel({ steps: { work: [{ text: 'ok' }] } }) });
    const events = [];
    for await (const event of handle.events) events.push(event);
    const result = await handle.result;
    for (const node of agentNodes(result.trace.root)) {
      expect(isPlainJson(node.capabilities)).toBe(true);
      expect(JSON.parse(JSON.stringify(node.capabilities))).toEqual(node.capabilities);
    }
    const starts = events.filter((event) => event.type === 'agent-start');
    expect(starts.map((event) => event.capabilities?.map((c) => c.name))).toEqual([
      ['files'],
      ['github_search', 'research', 'files'],
    ]);
    expect(isPlainJson(starts.map((event) => event.capabilities))).toBe(true);
  });

  it('list bundles and wrappers outermost first', async () => {
    const Inner = defineCapabilities(() => <Tool name="t" value={alpha} />, { name: 'Inner' });
    const Outer = defineCapabilities(
      () => (
        <RequireApproval>
          <Namespace name="n">
            <Inner />
          </Namespace>
        </RequireApproval>
      ),
      { name: 'Outer' },
    );
    const report = await inspect(
      <Agent model={model}>
        <Outer />
      </Agent>,
    );
    expect(report.agents[0]!.tools).toEqual([
      {
        name: 'n_t',
        needsApproval: true,
        source:
          '<Tool name="t"> in <Outer> in <RequireApproval> in <Namespace name="n"> in <Inner>',
      },
    ]);
  });

  it("never hold a bundle's props, such as a command's cwd or env", async () => {
    const Shell = defineCapabilities(
      ({ cwd, env }: { cwd: string; env: Record<string, string> }) => (
        <Tool name={cwd ? 'shell' : 'none'} value={env ? alpha : beta} />
      ),
      {
        name: 'Shell',
      },
    );
    const workflowWithSecrets = (
      <Agent model={model}>
        <Shell cwd="/home/secret-project" env={{ API_TOKEN: 'sk-do-not-leak' }} />
        <Step id="s" prompt="go" />
      </Agent>
    );
    const result = await run(workflowWithSecrets, {
      model: scriptedModel({ steps: { s: [{ text: 'ok' }] } }),
    }).result;
    const recorded = JSON.stringify(agentNodes(result.trace.root).map((node) => node.capabilities));
    expect(recorded).toBe('[[{"name":"shell","source":"<Tool name=\\"shell\\"> in <Shell>"}]]');
    expect(JSON.stringify(await inspect(workflowWithSecrets))).not.toContain('secret');
  });

  it('are absent for an agent that only uses the tools prop; tools prop entries show beside declarations', async () => {
    const handle = run(
      <Agent model={model} tools={{ a: alpha }}>
        <Step id="one" prompt="go" />
        <Agent model={model} tools={{ b: beta }}>
          <Tool name="c" value={gamma} />
          <Step id="two" prompt="go" />
        </Agent>
      </Agent>,
      { model: scriptedModel({ steps: { one: [{ text: 'ok' }], two: [{ text: 'ok' }] } }) },
    );
    const starts = [];
    for await (const event of handle.events) if (event.type === 'agent-start') starts.push(event);
    const [onlyProp, mixed] = agentNodes((await handle.result).trace.root);
    expect('capabilities' in onlyProp!).toBe(false);
    expect('capabilities' in starts[0]!).toBe(false);
    expect(starts[0]!.tools).toEqual(['a']);
    expect(mixed!.capabilities).toEqual([
      { name: 'c', source: '<Tool name="c">' },
      { name: 'b', source: 'tools={{ b }}' },
    ]);
  });

  it('a granted composite tool still says it runs a workflow of its own', async () => {
    const report = await inspect(
      <Agent model={model}>
        <Tool
          name="research"
          description="Research a question"
          input={z.object({ question: z.string() })}
        >
          {({ question }: { question: string }) => (
            <Agent model={model}>
              <Step id="findings" prompt={question} />
            </Agent>
          )}
        </Tool>
        <Agent model={model}>
          <Inherit capabilities={['research']} />
        </Agent>
      </Agent>,
    );
    expect(report.agents[1]!.tools).toEqual([
      {
        name: 'research',
        needsApproval: false,
        source: '<Inherit capabilities={["research"]}>',
        granted: '<Tool name="research"> in the enclosing <Agent>',
        composite: true,
      },
    ]);
  });

  it("inspect() reports the same provenance, with each tool's approval", async () => {
    const report = await inspect(workflow);
    expect(report.agents[1]!.tools).toEqual([
      {
        name: 'github_search',
        needsApproval: false,
        source: '<Tool name="search"> in <Namespace name="github">',
      },
      { name: 'research', needsApproval: false, source: '<Tool name="research">', composite: true },
      {
        name: 'files',
        needsApproval: false,
        source: '<Inherit capabilities={["files"]}>',
        granted: '<Tool name="files"> in the enclosing <Agent>',
      },
    ]);
    expect(isPlainJson(report)).toBe(true);
  });
});
