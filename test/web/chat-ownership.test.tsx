// What a chat handler keeps for a chat: a page that lost its response before the approval
// request arrived gets the request when it reconnects, and a run belongs to the chat that
// started it (another chat id naming it is refused, and touches nothing).
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { tool } from 'ai';
import { Agent, run, Step, Tool, memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput, type ChatHandler } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';

/** A model that answers only once `open()` was called. */
function gated(inner: LanguageModelV4) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: async (options) => (await gate, inner.doGenerate(options)),
    doStream: async (options) => (await gate, inner.doStream(options)),
  };
  return { model, open };
}

/** A shop assistant whose refunds wait for approval. */
function shop() {
  const script = scriptedModel({
    $comment: 'Test fixture: scripted turns for test/web',
    steps: {
      'turn-1': [
        { text: 'Checking order A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
        { text: 'Done: A1 is refunded.' },
      ],
    },
  });
  const { model, open } = gated(script);
  const refunds: string[] = [];
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => (refunds.push(order), `refunded ${order}`),
  });
  function Shop({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model}>
        <Tool name="refund" value={refund} />
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  const journal = memoryJournalStore();
  return { open, refunds, journal, handler: chatHandler({ workflow: Shop, journal }) };
}

const reconnect = (handler: ChatHandler, id: string) =>
  handler(new Request(`http://127.0.0.1/api/chat/${encodeURIComponent(id)}/stream`));

/** Polls until `check` holds, for 10 s at most. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function refused(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  const { error } = (await response.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe(code);
  expect(error.message).toMatch(/^june: /);
  return error.message;
}

describe('a page that disconnected before its approval request arrived', () => {
  it('gets the request when it reconnects, answers it, and the tool runs once', async () => {
    const { handler, journal, refunds, open } = shop();
    const user = userMessage('u1', 'Refund A1');
    const response = await post(handler, { id: 'lost', messages: [user] });
    // the page goes away before the model answered
    await response.body!.cancel();
    open();
    // the run goes on to the approval request, and waits for the answer
    await until(async () => {
      const [runId] = await journal.list();
      return (
        runId !== undefined &&
        (await journal.read(runId)).some((record) => record.type === 'approval-request')
      );
    }, 'the run to wait at its approval request');
    const [runId] = await journal.list();
    expect(runId).toBe('lost-1');

    // a reconnect sends the waiting message, as often as the page asks
    for (let time = 0; time < 2; time++) {
      const again = await reconnect(handler, 'lost');
      expect(again.status).toBe(200);
      const message = await readMessage(again);
      expect(message.metadata).toEqual({ runId, waiting: true });
      expect(textOf(message)).toEqual(['Checking order A1.']);
      expect(toolPart(message, 'tool-refund')).toMatchObject({
        state: 'approval-requested',
        input: { order: 'A1' },
        approval: { id: `${runId}/turn-1#0.0` },
      });
    }

    const message = await readMessage(await reconnect(handler, 'lost'));
    const approved = answered(message, 'tool-refund', true);
    const done = await readMessage(
      await post(handler, { id: 'lost', messages: [user, approved] }),
      approved,
    );
    expect(textOf(done)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
    expect(refunds).toEqual(['A1']);
    // the chat went on: nothing waits, nothing is sent again
    expect((await reconnect(handler, 'lost')).status).toBe(204);
  });
});

describe('a run belongs to its chat', () => {
  it('another chat id cannot answer its approvals, supersede them, or reconnect to it', async () => {
    const { handler, journal, refunds, open } = shop();
    open();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'owner', messages: [user] }));
    const runId = first.metadata!.runId;
    expect(first.metadata).toEqual({ runId, waiting: true });
    const recorded = (await journal.read(runId)).length;

    const approved = answered(first, 'tool-refund', true);
    const message = await refused(
      await post(handler, { id: 'intruder', messages: [user, approved] }),
      403,
      'chat-run-foreign',
    );
    expect(message).toContain(runId);
    expect(message).toContain('"intruder"');
    // a new message naming the run would deny its waiting call: refused the same way
    await refused(
      await post(handler, {
        id: 'intruder',
        messages: [user, first, userMessage('u2', 'Never mind')],
      }),
      403,
      'chat-run-foreign',
    );
    expect((await reconnect(handler, 'intruder')).status).toBe(204);
    expect((await journal.read(runId)).length).toBe(recorded);
    expect(refunds).toEqual([]);

    // the owner's answer still goes through, once
    const done = await readMessage(
      await post(handler, { id: 'owner', messages: [user, approved] }),
      approved,
    );
    expect(textOf(done).at(-1)).toBe('Done: A1 is refunded.');
    expect(refunds).toEqual(['A1']);
  });

  it('a run no chat started (run() over the same journal) is no chat’s to continue', async () => {
    const { handler, journal, open } = shop();
    open();
    const model = scriptedModel({
      $comment: 'Test fixture: scripted turns for test/web',
      steps: { work: [{ text: 'Done.' }] },
    });
    const handle = run(
      <Agent model={model}>
        <Step id="work" prompt="Work" />
      </Agent>,
      { journal },
    );
    await handle.result;
    const forged = {
      id: 'a1',
      role: 'assistant' as const,
      metadata: { runId: handle.runId, waiting: false },
      parts: [{ type: 'text' as const, text: 'Done.' }],
    };
    const message = await refused(
      await post(handler, {
        id: 'any',
        messages: [userMessage('u1', 'Work'), forged, userMessage('u2', 'Again')],
      }),
      403,
      'chat-run-foreign',
    );
    expect(message).toContain(`run ${handle.runId} is not a run of chat "any"`);
  });
});
