import { tool } from 'ai';
import { Agent, Inherit, JuneError, Step, Tool, inspect, run } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

// A composite tool whose body has a tree error (an <Inherit> typo): its calling model sees a
// tool error and answers anyway, so the run succeeds. The failure must not stay hidden.
const readFile = tool({
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async () => 'text',
});
const script = () =>
  scriptedModel({
    steps: {
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'What changed?' } }] },
        { text: 'Research failed; here is what I know.' },
      ],
    },
  });

function Report() {
  return (
    <Agent model={script()}>
      <Tool name="readFile" value={readFile} />
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }: { question: string }) => (
          <Agent model={script()}>
            <Inherit capabilities={['readFlie']} />
            <Step id="findings" prompt={question} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Write the report" />
    </Agent>
  );
}

describe('failures inside a run that succeeded', () => {
  test("are counted on the trace's run node", async () => {
    const model = script();
    const result = await run(<Report />, { model }).result;
    expect(result.trace.status).toBe('succeeded');
    expect(result.trace.root.failures).toEqual({ tools: 1, caught: 0 });
    expect(result.output).toBe('Research failed; here is what I know.');
  });

  test('a run with nothing failed has no failures field', async () => {
    const model = scriptedModel({ steps: { hello: [{ text: 'Hi' }] } });
    const result = await run(
      <Agent model={model}>
        <Step id="hello" prompt="Hi" />
      </Agent>,
    ).result;
    expect(result.trace.root.failures).toBeUndefined();
  });

  test('strict fails the run on a workflow error at any depth, naming it', async () => {
    const error = await run(<Report />, { model: script(), strict: true }).result.catch(
      (caught: unknown) => caught,
    );
    expect(JuneError.isInstance(error)).toBe(true);
    expect((error as JuneError).code).toBe('run-strict-failed');
    expect((error as JuneError).message).toMatch(
      /^june: strict: the tool "research" failed with a workflow error \(inherit-unknown-name\): <Inherit capabilities=\{\["readFlie"\]\}> .* names "readFlie", but the enclosing <Agent> has no tool of that name; it has "readFile", "research"\..* Without strict, the run goes on past it; fix the workflow\.$/,
    );
    expect(
      (error as { trace: { status: string; root: { failures?: unknown } } }).trace,
    ).toMatchObject({ status: 'failed', root: { failures: { tools: 1, caught: 0 } } });
  });

  test('strict fails the run on scripted turns that never ran', async () => {
    const model = scriptedModel({ steps: { hello: [{ text: 'Hi' }, { text: 'never used' }] } });
    const error = await run(
      <Agent model={model}>
        <Step id="hello" prompt="Hi" />
      </Agent>,
      { model, strict: true },
    ).result.catch((caught: unknown) => caught);
    expect((error as JuneError).code).toBe('run-strict-failed');
    expect((error as JuneError).message).toMatch(/^june: strict: .*hello/);
  });
});

describe('inspect() with sample inputs for composite tools', () => {
  test('does not look into composite bodies by default', async () => {
    const report = await inspect(<Report />);
    expect(report.agents.map((agent) => agent.path)).toEqual(['agent']);
  });

  test("renders a composite tool's body for its sample input, finding its tree errors before any model call", async () => {
    const error = await inspect(<Report />, {
      compositeInputs: { research: { question: 'What changed?' } },
    }).catch((caught: unknown) => caught);
    expect((error as JuneError).code).toBe('inherit-unknown-name');
  });

  test("reports the body's agents by path, with what they inherit", async () => {
    function Fixed() {
      return (
        <Agent model={script()}>
          <Tool name="readFile" value={readFile} />
          <Tool name="research" input={z.object({ question: z.string() })}>
            {({ question }: { question: string }) => (
              <Agent model={script()}>
                <Inherit capabilities={['readFile']} />
                <Step id="findings" prompt={question} />
              </Agent>
            )}
          </Tool>
        </Agent>
      );
    }
    const report = await inspect(<Fixed />, {
      compositeInputs: { research: { question: 'What changed?' } },
    });
    expect(report.agents.map((agent) => agent.path)).toEqual(['agent', 'research:agent']);
    expect(report.agents[1]!.tools).toEqual([
      {
        name: 'readFile',
        needsApproval: false,
        source: '<Inherit capabilities={["readFile"]}>',
        granted: '<Tool name="readFile"> in the enclosing <Agent>',
      },
    ]);
    const unknown = await inspect(<Fixed />, { compositeInputs: { reserch: {} } }).catch(
      (caught: unknown) => caught,
    );
    expect((unknown as JuneError).code).toBe('inspect-composite-unknown');
  });
});
