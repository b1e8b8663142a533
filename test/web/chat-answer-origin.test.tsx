import { tool } from 'ai';
import {
  memoryJournalStore,
  Agent,
  Tool,
  type RunConsumer,
  type RunLogEvent,
  type Trace,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput, type JuneUIMessage } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, chunksOf, readMessage, userMessage } from './support.js';

/** A shop whose refunds wait for approval; its runs' log and final traces are kept. */
function shop() {
  const model = scriptedModel({
    $comment: 'Test fixture: scripted turns for test/web',
    steps: {
      'turn-1': [
        { text: 'Checking A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
        { text: 'Refunded.' },
      ],
    },
  });
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => `refunded ${order}`,
  });
  function Shop({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model}>
        <Tool name="refund" value={refund} />
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  const log: RunLogEvent[] = [];
  const traces: Trace[] = [];
  const consumer: RunConsumer = {
    event: (event) => void log.push(event),
    end: async ({ trace }) => void traces.push(trace),
  };
  const journal = memoryJournalStore();
  const handler = chatHandler({
    workflow: Shop,
    journal,
    runOptions: { consumers: [consumer] },
    // the app's signed-in user, from its own header
    answeredBy: (request) => request.headers.get('x-user') || undefined,
  });
  return { handler, journal, log, traces };
}

const send = (handler: ReturnType<typeof shop>['handler'], body: unknown, user: string) =>
  handler(
    new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': user },
      body: JSON.stringify(body),
    }),
  );

function toolNode(trace: Trace): TraceNode {
  const stack = [trace.root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.kind === 'tool') return node;
    stack.push(...node.children);
  }
  throw new Error('no tool node');
}

describe('chatHandler: an answer from the page records web, who and when', () => {
  it('in the events, the trace, the journal and the UI message stream', async () => {
    const { handler, journal, log, traces } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first: JuneUIMessage = await readMessage(
      await send(handler, { id: 'chat1', messages: [user] }, 'ana'),
    );
    const runId = first.metadata!.runId;
    const before = new Date().toISOString();
    const approved = answered(first, 'tool-refund', false, 'not this one');
    const chunks = await chunksOf(
      await send(handler, { id: 'chat1', messages: [user, approved] }, 'ana@shop.example'),
    );

    const response = log.find((event) => event.type === 'approval-response')!;
    const origin = { source: 'web', answeredBy: 'ana@shop.example' };
    expect(response).toMatchObject({
      approved: false,
      reason: 'not this one',
      automatic: false,
      ...origin,
    });
    const answeredAt = (response as { answeredAt: string }).answeredAt;
    expect(answeredAt >= before).toBe(true);
    expect(toolNode(traces.at(-1)!).approval).toMatchObject({
      status: 'denied',
      ...origin,
      answeredAt,
    });
    const record = (await journal.read(runId)).find((r) => r.type === 'approval-answer');
    expect(record).toMatchObject({ approved: false, automatic: false, ...origin, answeredAt });
    // the page hears of it as a transient data part, by the tool part's id
    const data = chunks.find((chunk) => chunk.type === 'data-june-approval') as
      { data: Record<string, unknown>; transient?: boolean } | undefined;
    expect(data).toMatchObject({
      transient: true,
      data: { approved: false, automatic: false, ...origin, answeredAt },
    });
  });

  it('without answeredBy, the chat is named as who answered', async () => {
    const plain = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(
      await plain.handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: 'chat9', messages: [user] }),
        }),
      ),
    );
    const approvedMessage = answered(first, 'tool-refund', true);
    await chunksOf(
      await send(plain.handler, { id: 'chat9', messages: [user, approvedMessage] }, ''),
    );
    expect(plain.log.find((event) => event.type === 'approval-response')).toMatchObject({
      approved: true,
      source: 'web',
      answeredBy: 'chat chat9',
    });
  });
});
