import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Agent, Step, Tool, memoryJournalStore, run, type RunEvent, type TraceNode } from 'june';
import { mockUsage } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { toolResults } from '../helpers/mock-stream-model.js';

type Call = { id: string; name: string; input: unknown };

/** One model turn as raw provider stream parts. */
function turn(options: {
  text?: string;
  calls?: Call[];
  finish?: 'stop' | 'tool-calls';
  inputDeltas?: number;
}): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (options.text !== undefined)
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: options.text },
      { type: 'text-end', id: 't' },
    );
  for (const call of options.calls ?? []) {
    const json = JSON.stringify(call.input);
    if (options.inputDeltas) {
      // the input as many small deltas, as some providers stream it
      parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
      const size = Math.ceil(json.length / options.inputDeltas);
      for (let at = 0; at < json.length; at += size)
        parts.push({ type: 'tool-input-delta', id: call.id, delta: json.slice(at, at + size) });
      parts.push({ type: 'tool-input-end', id: call.id });
    }
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: json });
  }
  const finish = options.finish ?? (options.calls?.length ? 'tool-calls' : 'stop');
  parts.push({
    type: 'finish',
    finishReason: { unified: finish, raw: finish },
    usage: mockUsage(10, 5),
  });
  return parts;
}

function modelOf(turns: LanguageModelV4StreamPart[][]) {
  let index = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const parts = turns[index++];
      if (!parts) throw new Error(`unscripted model call #${index}`);
      return {
        stream: new ReadableStream({
          start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()),
        }),
      };
    },
  });
}

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

/** Runs one step with an `echo` tool (which records its inputs) and a journal; returns what a user sees. */
async function runQuirk(turns: LanguageModelV4StreamPart[][]) {
  const ran: unknown[] = [];
  const echo = tool({
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => (ran.push(text), `echo ${text}`),
  });
  const model = modelOf(turns);
  const handle = run(
    <Agent model={model}>
      <Tool name="echo" value={echo} />
      <Step id="s" prompt="Go" />
    </Agent>,
    { journal: memoryJournalStore() },
  );
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;
  const tools = allNodes(result.trace.root).filter((node) => node.kind === 'tool');
  return { result, events, ran, tools, model };
}

describe('provider quirks in the tool loop', () => {
  test('an id repeated across turns: each call runs, has its own trace node, and the model gets each result', async () => {
    const { result, ran, tools, model } = await runQuirk([
      turn({ calls: [{ id: 'call_0', name: 'echo', input: { text: 'a' } }] }),
      turn({ calls: [{ id: 'call_0', name: 'echo', input: { text: 'b' } }] }),
      turn({ text: 'Both done.' }),
    ]);
    expect(result.output).toBe('Both done.');
    expect(ran).toEqual(['a', 'b']);
    expect(tools.map((node) => [node.toolCallId, node.input, node.output, node.status])).toEqual([
      ['call_0', { text: 'a' }, 'echo a', 'succeeded'],
      ['call_0', { text: 'b' }, 'echo b', 'succeeded'],
    ]);
    expect(toolResults(model.doStreamCalls[2]!.prompt).map((part) => part.output)).toEqual([
      { type: 'text', value: 'echo a' },
      { type: 'text', value: 'echo b' },
    ]);
  });

  test('an id repeated within one turn: both calls run and both nodes settle', async () => {
    const { result, ran, tools } = await runQuirk([
      turn({
        calls: [
          { id: 'dup', name: 'echo', input: { text: 'a' } },
          { id: 'dup', name: 'echo', input: { text: 'b' } },
        ],
      }),
      turn({ text: 'Done.' }),
    ]);
    expect(result.output).toBe('Done.');
    expect(ran.sort()).toEqual(['a', 'b']);
    expect(tools).toHaveLength(2);
    expect(tools.every((node) => node.status === 'succeeded')).toBe(true);
    expect(tools.map((node) => node.output).sort()).toEqual(['echo a', 'echo b']);
  });

  test.each([
    ['an empty id', ''],
    ['an id with odd characters', 'call/1 ü "quoted" \\ :: \n'],
  ])('%s: the call runs and the trace and events carry the id as given', async (_name, id) => {
    const { result, ran, tools, events } = await runQuirk([
      turn({ calls: [{ id, name: 'echo', input: { text: 'x' } }] }),
      turn({ text: 'Done.' }),
    ]);
    expect(result.output).toBe('Done.');
    expect(ran).toEqual(['x']);
    expect(tools.map((node) => [node.toolCallId, node.status])).toEqual([[id, 'succeeded']]);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      toolCallId: id,
      output: 'echo x',
    });
  });

  test('tool input streamed in many deltas: the tool gets the whole input once', async () => {
    const text = 'a fairly long input that arrives in many small pieces';
    const { result, ran, tools, events } = await runQuirk([
      turn({ calls: [{ id: 'c1', name: 'echo', input: { text } }], inputDeltas: 20 }),
      turn({ text: 'Done.' }),
    ]);
    expect(result.output).toBe('Done.');
    expect(ran).toEqual([text]);
    expect(tools.map((node) => node.input)).toEqual([{ text }]);
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(1);
  });

  test('finish reason tool-calls with no calls: the step ends with its text, no further model call', async () => {
    const { result, ran, tools, model } = await runQuirk([
      turn({ text: 'Nothing to call.', finish: 'tool-calls' }),
    ]);
    expect(result.output).toBe('Nothing to call.');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(ran).toEqual([]);
    expect(tools).toEqual([]);
  });

  test('text and tool calls in one turn: the text streams, the tool runs, and the step answers with the last turn', async () => {
    const { result, ran, events, model } = await runQuirk([
      turn({ text: 'Let me check. ', calls: [{ id: 'c1', name: 'echo', input: { text: 'x' } }] }),
      turn({ text: 'Checked.' }),
    ]);
    expect(result.output).toBe('Checked.');
    expect(ran).toEqual(['x']);
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => (event as { delta: string }).delta),
    ).toEqual(['Let me check. ', 'Checked.']);
    const assistant = model.doStreamCalls[1]!.prompt.find(
      (message) => message.role === 'assistant',
    )!;
    expect((assistant.content as Array<{ type: string }>).map((part) => part.type)).toEqual([
      'text',
      'tool-call',
    ]);
  });
});
