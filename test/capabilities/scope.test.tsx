// Scope: what an agent has is what its own children declare, found through fragments,
// arrays, conditions and bundles, resolved once when the agent renders.
import {
  Agent,
  defineCapabilities,
  Inherit,
  inspect,
  Namespace,
  run,
  Step,
  Tool,
  type JuneNode,
  type RunEvent,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { alpha, beta, gamma, makeTool, model, recordingModel, toolsOf } from './support.js';

describe('an agent and its children', () => {
  it('a nested agent starts empty, whatever its parent has', async () => {
    expect(
      await toolsOf(
        <Agent model={model} tools={{ fromProp: beta }}>
          <Tool name="a" value={alpha} />
          <Agent model={model}>
            <Step id="inner" prompt="go" />
          </Agent>
        </Agent>,
      ),
    ).toEqual([{ a: false, fromProp: false }, {}]);
  });

  it('a condition adds a tool only when it holds', async () => {
    const Tree = ({ writable }: { writable: boolean }) => (
      <Agent model={model}>
        <Tool name="read" value={alpha} />
        {writable && <Tool name="write" value={beta} />}
        {writable ? null : <Tool name="readOnlyNotice" value={gamma} />}
      </Agent>
    );
    expect(await toolsOf(<Tree writable />)).toEqual([{ read: false, write: false }]);
    expect(await toolsOf(<Tree writable={false} />)).toEqual([
      { read: false, readOnlyNotice: false },
    ]);
  });

  it('fragments and arrays, nested, are walked in document order', async () => {
    const names = ['c1', 'c2'];
    expect(
      await toolsOf(
        <Agent model={model}>
          <>
            <Tool name="f1" value={alpha} />
            <>
              <Tool name="f2" value={alpha} />
            </>
          </>
          {[<Tool key="a1" name="a1" value={beta} />, [<Tool key="a2" name="a2" value={beta} />]]}
          {names.map((name) => (
            <Tool key={name} name={name} value={gamma} />
          ))}
        </Agent>,
      ),
    ).toEqual([{ f1: false, f2: false, a1: false, a2: false, c1: false, c2: false }]);
  });

  it("capabilities declared after a step are still the agent's, for every step", async () => {
    const recording = recordingModel();
    await run(
      <Agent model={recording}>
        <Step id="first" prompt="go" />
        <Tool name="late" value={alpha} />
        <Step id="second" prompt="again" />
      </Agent>,
    ).result;
    const toolNames = recording.doStreamCalls.map((call) => (call.tools ?? []).map((t) => t.name));
    expect(toolNames).toEqual([['late'], ['late']]);
  });
});

describe('bundles', () => {
  const readFile = makeTool('readFile');
  const writeFile = makeTool('writeFile');

  it('are called with their props, and add what they return to the agent they are in', async () => {
    const Files = defineCapabilities(
      ({ writable = false }: { writable?: boolean }) => (
        <>
          <Tool name="readFile" value={readFile} />
          {writable && <Tool name="writeFile" value={writeFile} />}
        </>
      ),
      { name: 'Files' },
    );
    expect(
      await toolsOf(
        <Agent model={model}>
          <Files />
        </Agent>,
      ),
    ).toEqual([{ readFile: false }]);
    expect(
      await toolsOf(
        <Agent model={model}>
          <Files writable />
        </Agent>,
      ),
    ).toEqual([{ readFile: false, writeFile: false }]);
  });

  it("are transparent: no scope of their own, so their tools collide with the agent's", async () => {
    const One = defineCapabilities(() => <Tool name="same" value={alpha} />, { name: 'One' });
    const report = await inspect(
      <Agent model={model}>
        <One />
        <Tool name="other" value={beta} />
      </Agent>,
    );
    expect(report.agents[0]!.tools.map((t) => t.name)).toEqual(['same', 'other']);
    await expect(
      inspect(
        <Agent model={model}>
          <One />
          <Tool name="same" value={beta} />
        </Agent>,
      ),
    ).rejects.toMatchObject({ code: 'capability-collision' });
  });

  it('nest: a bundle returns bundles, wrappers, fragments and conditions on its props', async () => {
    const Search = defineCapabilities(() => <Tool name="search" value={alpha} />, {
      name: 'Search',
    });
    const GitHub = defineCapabilities(
      ({ canClose }: { canClose: boolean }) => (
        <Namespace name="github">
          <Search />
          {canClose && <Tool name="close" value={beta} />}
        </Namespace>
      ),
      { name: 'GitHub' },
    );
    const Everything = defineCapabilities(
      ({ admin }: { admin: boolean }) => [<GitHub key="g" canClose={admin} />, <Search key="s" />],
      { name: 'Everything' },
    );
    const report = await inspect(
      <Agent model={model}>
        <Everything admin />
      </Agent>,
    );
    expect(report.agents[0]!.tools.map((t) => [t.name, t.source])).toEqual([
      [
        'github_search',
        '<Tool name="search"> in <Everything> in <GitHub> in <Namespace name="github"> in <Search>',
      ],
      [
        'github_close',
        '<Tool name="close"> in <Everything> in <GitHub> in <Namespace name="github">',
      ],
      ['search', '<Tool name="search"> in <Everything> in <Search>'],
    ]);
  });

  it("are named by the name option, else their function's name, else <Capabilities>", async () => {
    const named = defineCapabilities(() => <Tool name="x" value={alpha} />, { name: 'Named' });
    const byFunction = defineCapabilities(function FromFunction() {
      return <Tool name="x" value={alpha} />;
    });
    const anonymous = defineCapabilities(() => <Tool name="x" value={alpha} />);
    const sourceOf = async (Bundle: (props: object) => JuneNode) =>
      (
        await inspect(
          <Agent model={model}>
            <Bundle />
          </Agent>,
        )
      ).agents[0]!.tools[0]!.source;
    expect(await sourceOf(named)).toBe('<Tool name="x"> in <Named>');
    expect(await sourceOf(byFunction)).toBe('<Tool name="x"> in <FromFunction>');
    expect(await sourceOf(anonymous)).toBe('<Tool name="x"> in <Capabilities>');
    await expect(
      inspect(
        <Agent model={model}>
          {(() => {
            const Named = named;
            const FromFunction = byFunction;
            return [<Named key="1" />, <FromFunction key="2" />];
          })()}
        </Agent>,
      ),
    ).rejects.toThrow('<Tool name="x"> in <Named> (');
  });
});

describe('resolution happens once per agent, when it renders', () => {
  it('inspect() calls a bundle once per agent that renders it', async () => {
    const calls: string[] = [];
    const Counted = defineCapabilities(({ label }: { label: string }) => {
      calls.push(label);
      return <Tool name="t" value={alpha} />;
    });
    await inspect(
      <Agent model={model}>
        <Counted label="outer" />
        <Step id="one" prompt="go" />
        <Step id="two" prompt="go" />
        <Agent model={model}>
          <Counted label="inner" />
          <Step id="three" prompt="go" />
        </Agent>
      </Agent>,
    );
    expect(calls).toEqual(['outer', 'inner']);
  });

  it('in a run, an agent resolves before its first step and not again for later steps', async () => {
    let resolutions = 0;
    const Counted = defineCapabilities(() => {
      resolutions += 1;
      return <Tool name="t" value={alpha} />;
    });
    const seenByModelCalls: number[] = [];
    const recording = recordingModel(() => seenByModelCalls.push(resolutions));
    await run(
      <Agent model={recording}>
        <Counted />
        <Step id="one" prompt="go" />
        <Step id="two" prompt="go" />
        <Step id="three" prompt="go" />
      </Agent>,
    ).result;
    // One resolution in the check before the first model call, one when the agent renders;
    // none per step.
    expect(seenByModelCalls).toEqual([2, 2, 2]);
    expect(recording.doStreamCalls.map((call) => (call.tools ?? []).map((t) => t.name))).toEqual([
      ['t'],
      ['t'],
      ['t'],
    ]);
  });

  it("an agent rendered by a step's child resolves then, with what the step returned", async () => {
    const script = scriptedModel({ steps: { triage: [{ text: 'yes' }], act: [{ text: 'done' }] } });
    const resolvedAt: string[] = [];
    const Picked = defineCapabilities(({ answer }: { answer: string }) => {
      resolvedAt.push(`${answer} after ${script.calls.map((c) => c.step).join(',')}`);
      return answer === 'yes' ? (
        <Tool name="fix" value={alpha} />
      ) : (
        <Tool name="report" value={beta} />
      );
    });
    const handle = run(
      <Agent model={script}>
        <Tool name="notes" value={gamma} />
        <Step id="triage" prompt="Is it a bug?">
          {(answer: string) => (
            <Agent model={script}>
              <Picked answer={answer} />
              <Inherit capabilities={['notes']} />
              <Step id="act" prompt="Act on it" />
            </Agent>
          )}
        </Step>
      </Agent>,
    );
    const agentTools: string[][] = [];
    for await (const event of handle.events as AsyncIterable<RunEvent>) {
      if (event.type === 'agent-start') agentTools.push(event.tools);
    }
    await handle.result;
    // Not resolved by the check before the run (the answer was not known), once after triage.
    expect(resolvedAt).toEqual(['yes after triage']);
    // The new agent's parent is the agent of the step that rendered it.
    expect(agentTools).toEqual([['notes'], ['fix', 'notes']]);
    script.assertAllTurnsUsed();
  });

  it("a capability rendered by a step's child, after the agent resolved, fails", async () => {
    const script = scriptedModel({ steps: { first: [{ text: 'ok' }] } });
    const handle = run(
      <Agent model={script}>
        <Step id="first" prompt="go">
          {() => <Tool name="late" value={alpha} />}
        </Step>
      </Agent>,
    );
    await expect(handle.result).rejects.toMatchObject({
      code: 'capability-in-component',
      message: expect.stringContaining('<Tool name="late">'),
    });
  });
});
