import { tool } from 'ai';
import { Agent, Step, Tool, memoryJournalStore, run, type RunEvent, type TraceNode } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { toolResults } from '../helpers/mock-stream-model.js';

class Release {
  constructor(readonly version: string) {}
}

const cyclic = () => {
  const node: Record<string, unknown> = { name: 'root' };
  node.self = node;
  return node;
};

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

/** A run whose only tool returns `value`, with the scripted model and a journal. */
async function runWith(value: () => unknown) {
  const model = scriptedModel({
    steps: { s: [{ toolCalls: [{ tool: 'stat', id: 'c1' }] }, { text: 'Done.' }] },
  });
  const stat = tool({ inputSchema: z.object({}), execute: async (): Promise<unknown> => value() });
  const store = memoryJournalStore();
  const handle = run(
    <Agent model={model}>
      <Tool name="stat" value={stat} />
      <Step id="s" prompt="Stat the file" />
    </Agent>,
    { journal: store },
  );
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;
  const sent = toolResults(model.calls[1]!.prompt)[0]!.output;
  const journaled = (await store.read(handle.runId)).find((record) => record.type === 'tool-call');
  const node = allNodes(result.trace.root).find((n) => n.kind === 'tool')!;
  return { result, events, sent, journaled, node };
}

describe('a tool output that is not plain JSON has one JSON form everywhere', () => {
  const odd = () => ({
    bytes: 10n,
    missing: undefined,
    ratio: Number.NaN,
    at: new Date(0),
    owners: new Map([['alice', 1]]),
    tags: new Set(['a', 'b']),
    head: new Uint8Array([1, 2]),
    release: new Release('1.2.0'),
    close: () => {},
  });
  const form = {
    bytes: '10',
    ratio: null,
    at: '1970-01-01T00:00:00.000Z',
    owners: { alice: 1 },
    tags: ['a', 'b'],
    head: [1, 2],
    release: { version: '1.2.0' },
  };

  test('BigInt, undefined, NaN, a Date, a Map, a Set, a typed array, a class instance and a function: the run goes on; the model, the event, the trace and the journal get the same JSON', async () => {
    const { result, events, sent, journaled, node } = await runWith(odd);
    expect(result.output).toBe('Done.');
    expect(sent).toEqual({ type: 'json', value: form });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ output: form });
    expect(node.output).toEqual(form);
    expect(journaled).toMatchObject({ output: form });
    expect(JSON.parse(JSON.stringify(result.trace))).toEqual(result.trace);
  });

  test('a value with no JSON form (a cycle) becomes a tool error the model sees; the run and the journal go on', async () => {
    const { result, events, sent, journaled, node } = await runWith(cyclic);
    const message =
      'june: the tool "stat" returned a value with no JSON form: it refers to itself at output.self (a cycle). Return plain data (objects, arrays, strings, numbers, booleans, null).';
    expect(result.output).toBe('Done.');
    expect(sent).toEqual({ type: 'error-text', value: message });
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({
      error: { code: 'tool-output-invalid', message },
    });
    expect(node).toMatchObject({ status: 'failed', error: { code: 'tool-output-invalid' } });
    expect(journaled).toMatchObject({ error: { code: 'tool-output-invalid', message } });
  });

  test('a tool that returns nothing gives null, the same everywhere', async () => {
    const { sent, events, node, journaled } = await runWith(() => undefined);
    expect(sent).toEqual({ type: 'json', value: null });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ output: null });
    expect(node.output).toBeNull();
    expect(journaled).toMatchObject({ output: null });
  });
});
