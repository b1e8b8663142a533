import { tool, type LanguageModel } from 'ai';
import { Agent, defineAgent, Inherit, run, Step, Tool, type CompositeToolResult, type RunEvent } from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callsAt, findNode, nextEvent, recordEvents, recordingModel, toolNamesOf, toolResultsOf } from './support.js';

/** The calling agent's tools; `ran` records each execution. */
function callerTools() {
  const ran: string[] = [];
  const readFile = tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      ran.push(`readFile ${path}`);
      return `contents of ${path}`;
    },
  });
  const deploy = tool({
    description: 'Deploy',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      ran.push(`deploy ${env}`);
      return `deployed to ${env}`;
    },
  });
  const search = tool({ inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => `results for ${query}` });
  return { readFile, deploy, search, ran };
}

function Caller({ model, names, tools }: { model: LanguageModel; names: string[]; tools: ReturnType<typeof callerTools> }) {
  const { readFile, deploy, search } = tools;
  return (
    <Agent model={model}>
      <Tool name="readFile" value={readFile} />
      <Tool name="deploy" value={deploy} />
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }) => (
          <Agent model={model}>
            <Inherit capabilities={names} />
            <Tool name="search" value={search} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Research the README" />
    </Agent>
  );
}

describe('<Inherit> inside a composite tool', () => {
  it('reaches the calling agent\'s named tool, and nothing else of the caller', async () => {
    const tools = callerTools();
    const model = recordingModel({
      report: [{ toolCalls: [{ tool: 'research', input: { question: 'What is in README.md?' } }] }, { text: 'Reported.' }],
      'research:findings': [{ toolCalls: [{ tool: 'readFile', input: { path: 'README.md' } }] }, { text: 'README says hello.' }],
    });
    const result = await run(<Caller model={model} names={['readFile']} tools={tools} />).result;

    expect(toolNamesOf(callsAt(model, 'report')[0]!)).toEqual(['readFile', 'deploy', 'research']);
    expect(toolNamesOf(callsAt(model, 'research:findings')[0]!)).toEqual(['readFile', 'search']);
    expect(tools.ran).toEqual(['readFile README.md']);
    expect(toolResultsOf(callsAt(model, 'research:findings')[1]!.prompt)[0]!.output).toEqual({ type: 'text', value: 'contents of README.md' });
    const child = (findNode(result.trace.root, 'tool', 'research').output as CompositeToolResult).trace;
    expect(findNode(child.root, 'agent', 'agent').capabilities).toEqual([
      { name: 'readFile', source: '<Inherit capabilities={["readFile"]}>', granted: '<Tool name="readFile"> in the enclosing <Agent>' },
      { name: 'search', source: '<Tool name="search">' },
    ]);
  });

  it('a granted tool keeps its approval, asked with the child\'s step path', async () => {
    const tools = callerTools();
    const model = recordingModel({
      report: [{ toolCalls: [{ tool: 'research', input: { question: 'Ship it?' } }] }, { text: 'Reported.' }],
      'research:findings': [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Deployed.' }],
    });
    const handle = run(<Caller model={model} names={['deploy']} tools={tools} />);
    const { request } = await nextEvent(handle, (e): e is Extract<RunEvent, { type: 'approval-request' }> => e.type === 'approval-request');
    expect(request).toMatchObject({ tool: 'deploy', step: 'research:findings', input: { env: 'staging' } });
    handle.approve(request.id);
    await handle.result;
    expect(tools.ran).toEqual(['deploy staging']);
  });

  it('a name the caller lacks fails the call with inherit-unknown-name, listing the caller\'s names', async () => {
    const tools = callerTools();
    const model = recordingModel({
      report: [{ toolCalls: [{ tool: 'research', input: { question: 'Anything?' } }] }, { text: 'The research tool is misconfigured.' }],
      'research:findings': [{ text: 'never' }],
    });
    const handle = run(<Caller model={model} names={['writeFile']} tools={tools} />);
    const { events, done } = recordEvents(handle);
    const result = await handle.result;
    await done;

    const seen = toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output as { type: string; value: string };
    expect(seen.type).toBe('error-text');
    expect(seen.value).toMatch(/^june: the tool "research" failed: <Inherit capabilities=\{\["writeFile"\]\}>.* names "writeFile", but the enclosing <Agent> has no tool of that name; it has "readFile", "deploy", "research"\./);
    const childFinish = events.find((e): e is Extract<RunEvent, { type: 'run-finish' }> => e.type === 'run-finish' && e.runId !== handle.runId)!;
    expect(childFinish).toMatchObject({ status: 'failed', error: { code: 'inherit-unknown-name' } });
    expect(callsAt(model, 'research:findings')).toHaveLength(0);
    expect(result.output).toBe('The research tool is misconfigured.');
  });

  it('works the same in a defined agent\'s capabilities', async () => {
    const tools = callerTools();
    const model = recordingModel({
      write: [{ toolCalls: [{ tool: 'reader', input: { path: 'README.md' } }] }, { text: 'Written.' }],
      'reader:answer': [{ toolCalls: [{ tool: 'readFile', input: { path: 'README.md' } }] }, { text: 'It says hello.' }],
    });
    const Reader = defineAgent({
      name: 'reader',
      input: z.object({ path: z.string() }),
      model,
      prompt: ({ path }) => `Summarize ${path}`,
      capabilities: () => <Inherit capabilities={['readFile']} />,
    });
    await run(
      <Agent model={model}>
        <Tool name="readFile" value={tools.readFile} />
        <Tool name="deploy" value={tools.deploy} />
        <Reader />
        <Step id="write" prompt="Write about the README" />
      </Agent>,
    ).result;
    expect(toolNamesOf(callsAt(model, 'reader:answer')[0]!)).toEqual(['readFile']);
    expect(tools.ran).toEqual(['readFile README.md']);
    model.scripted.assertAllTurnsUsed();
  });

  it('an agent nested inside the workflow inherits from the workflow\'s agent, not from the caller', async () => {
    const tools = callerTools();
    const model = recordingModel({
      report: [{ toolCalls: [{ tool: 'research', input: { question: 'Anything?' } }] }, { text: 'Failed.' }],
    });
    await run(
      <Agent model={model}>
        <Tool name="readFile" value={tools.readFile} />
        <Tool name="research" input={z.object({ question: z.string() })}>
          {() => (
            <Agent model={model}>
              <Tool name="search" value={tools.search} />
              <Agent model={model}>
                <Inherit capabilities={['readFile']} />
                <Step id="findings" prompt="Read" />
              </Agent>
            </Agent>
          )}
        </Tool>
        <Step id="report" prompt="Research" />
      </Agent>,
    ).result;
    const seen = toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output as { value: string };
    // names the agent the <Inherit> stands in, and the agent it takes from
    expect(seen.value).toMatch(/<Inherit capabilities=\{\["readFile"\]\}> at \S+:144:17 in <Agent> at \S+:143:15 names "readFile", but the enclosing <Agent> at \S+:141:13 has no tool of that name; it has "search"\./);
  });
});
