// A tool that throws something other than an Error (`throw undefined`) is recorded with a
// message that says so, on its trace node, in its tool-error event and in the journal.
import { tool } from 'ai';
import { Agent, run, Step, Tool, type RunEvent, memoryJournalStore } from 'june';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

test('a tool that throws undefined: its node, event and journal record say "undefined was thrown instead of an Error"', async () => {
  const boom = tool({
    description: 'Fails badly',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw undefined;
    },
  });
  const model = streamModel([
    { toolCalls: [{ id: 'c1', name: 'boom', input: {} }] },
    { text: 'It failed.' },
  ]);
  const store = memoryJournalStore();
  const handle = run(
    <Agent model={model}>
      <Tool name="boom" value={boom} />
      <Step id="try" prompt="Try it" />
    </Agent>,
    { journal: store },
  );
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;

  const expected = { name: 'Error', message: 'undefined was thrown instead of an Error' };
  const node = result.trace.root.children[0]!.children[0]!.children.find(
    (child) => child.kind === 'tool',
  );
  expect(node).toMatchObject({ status: 'failed', error: expected });
  expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ error: expected });
  expect(
    (await store.read(handle.runId)).find((record) => record.type === 'tool-call'),
  ).toMatchObject({ error: expected });
});
