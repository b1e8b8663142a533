// One chat request runs one turn at most, however long the conversation it carries: the
// earlier turns are the run's own (its journal answers them) and what the page sent before
// them is context. Requests over the handler's limits (bytes, messages) are refused with 413
// before anything runs, and the limits are the handler's options.
import { Agent, memoryJournalStore } from 'june';
import { scriptedModel, type ModelScript } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { post, readMessage, textOf, userMessage } from './support.js';
import type { JuneUIMessage } from 'june/web';

/** A chat whose agent takes the page's earlier messages as context (`chat.history`). */
function chat(steps: ModelScript['steps'], limits: Record<string, unknown> = {}) {
  const model = scriptedModel({ $comment: 'Test fixture: scripted turns for test/web', steps });
  function Assistant({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model} messages={chat.history}>
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  const journal = memoryJournalStore();
  return { model, journal, handler: chatHandler({ workflow: Assistant, journal, ...limits }) };
}

const assistantMessage = (id: string, text: string): JuneUIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'text', text }],
});

/** A conversation of `count` user messages, each answered, as a page that kept it sends it. */
function longConversation(count: number): JuneUIMessage[] {
  return Array.from({ length: count }, (_, i) => [
    userMessage(`u${i + 1}`, `Question ${i + 1}`),
    assistantMessage(`a${i + 1}`, `Answer ${i + 1}`),
  ])
    .flat()
    .slice(0, -1);
}

async function refused(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  const { error } = (await response.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe(code);
  expect(error.message).toMatch(/^june: /);
  return error.message;
}

describe('a chat request runs its new turn only', () => {
  it('300 user messages with no run to continue: one model call, the rest is context', async () => {
    const { handler, model, journal } = chat({ 'turn-1': [{ text: 'Answer 300.' }] });
    const messages = longConversation(300);
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(300);
    const response = await post(handler, { id: 'long', messages });
    expect(response.status).toBe(200);
    const message = await readMessage(response);

    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.step).toBe('turn-1');
    expect(textOf(message)).toEqual(['Answer 300.']);
    // the one call saw the conversation before it, as context, and the new message last
    const prompt = model.calls[0]!.prompt;
    expect(prompt.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'Question 300' }],
    });
    expect(JSON.stringify(prompt)).toContain('Question 1"');
    expect(JSON.stringify(prompt)).toContain('Answer 299');
    // the run has one turn: its journal records one model call
    const [runId] = await journal.list();
    const records = await journal.read(runId!);
    expect(records.filter((r) => r.type === 'model-call')).toHaveLength(1);
  });

  it('each message is a run of its own: the conversation before it is context, one model call', async () => {
    const { handler, model } = chat({
      'turn-1': [{ text: 'Hello.' }, { text: 'Second answer.' }, { text: 'Third answer.' }],
    });
    const u1 = userMessage('u1', 'Hi');
    const first = await readMessage(await post(handler, { id: 'c', messages: [u1] }));
    expect(model.calls).toHaveLength(1);
    const u2 = userMessage('u2', 'And then?');
    const second = await readMessage(await post(handler, { id: 'c', messages: [u1, first, u2] }));
    expect(model.calls).toHaveLength(2);
    expect(textOf(second)).toEqual(['Second answer.']);
    expect(second.metadata).toEqual({ runId: 'c-2', waiting: false });

    // 298 user messages at once, with no answer between them, are one turn: one model call
    const more = Array.from({ length: 298 }, (_, i) => userMessage(`m${i}`, `More ${i}`));
    const third = await readMessage(
      await post(handler, { id: 'c', messages: [u1, first, u2, second, ...more] }),
    );
    expect(textOf(third)).toEqual(['Third answer.']);
    expect(model.calls).toHaveLength(3);
    const asked = JSON.stringify(model.calls[2]!.prompt.at(-1));
    expect(asked).toContain('More 0\\n\\nMore 1\\n\\n');
    expect(asked).toContain('More 297');
    expect(JSON.stringify(model.calls[2]!.prompt)).toContain('Second answer.');
    expect(third.metadata).toEqual({ runId: 'c-300', waiting: false });
  });

  it('a message whose request failed joins the next one in one turn, and the chat goes on', async () => {
    const { handler, model } = chat({
      'turn-1': [{ text: 'Hello.' }, { text: 'Both seen.' }, { text: 'Third.' }],
    });
    const u1 = userMessage('u1', 'Hi');
    const first = await readMessage(await post(handler, { id: 'f', messages: [u1] }));
    // u2's request never reached the server (the page kept u2 without an answer)
    const u2 = userMessage('u2', 'Are you there?');
    const u3 = userMessage('u3', 'Hello again');
    const second = await readMessage(
      await post(handler, { id: 'f', messages: [u1, first, u2, u3] }),
    );
    expect(textOf(second)).toEqual(['Both seen.']);
    expect(JSON.stringify(model.calls[1]!.prompt.at(-1))).toContain(
      'Are you there?\\n\\nHello again',
    );
    const u4 = userMessage('u4', 'Thanks');
    const third = await readMessage(
      await post(handler, { id: 'f', messages: [u1, first, u2, u3, second, u4] }),
    );
    expect(textOf(third)).toEqual(['Third.']);
    expect(model.calls).toHaveLength(3);
  });
});

describe('the limits of one request', () => {
  it('a body over 1 MiB is refused with 413 before it is read to its end, with or without Content-Length', async () => {
    const { handler, model, journal } = chat({ 'turn-1': [{ text: 'never' }] });
    const big = JSON.stringify({
      id: 'big',
      messages: [userMessage('u1', 'x'.repeat(2 * 1024 * 1024))],
    });
    const message = await refused(await post(handler, big), 413, 'chat-request-too-large');
    expect(message).toContain('maxRequestBytes');

    // a body streamed in pieces with no length announced: read up to the limit, no further
    let pulled = 0;
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    await refused(await handler(streamed), 413, 'chat-request-too-large');
    expect(pulled).toBeLessThan(2 * 1024 * 1024);

    expect(model.calls).toHaveLength(0);
    expect(await journal.list()).toEqual([]);
  });

  it('more than 1,000 messages is refused with 413; 1,000 are taken', async () => {
    const { handler, model } = chat({ 'turn-1': [{ text: 'Fine.' }] });
    const many = (count: number) =>
      Array.from({ length: count }, (_, i) => userMessage(`u${i}`, `m${i}`));
    const message = await refused(
      await post(handler, { id: 'many', messages: many(1001) }),
      413,
      'chat-request-too-large',
    );
    expect(message).toContain('1001 messages');
    expect(message).toContain('maxMessages');
    expect(model.calls).toHaveLength(0);
    const taken = await post(handler, { id: 'many', messages: many(1000) });
    expect(textOf(await readMessage(taken))).toEqual(['Fine.']);
    expect(model.calls).toHaveLength(1);
  });

  it('the limits are options of chatHandler', async () => {
    const { handler, model } = chat(
      { 'turn-1': [{ text: 'Within.' }] },
      { maxMessages: 3, maxRequestBytes: 2048 },
    );
    // 3 messages in 2,048 bytes: taken
    const within = await post(handler, { id: 's', messages: longConversation(2) });
    expect(textOf(await readMessage(within))).toEqual(['Within.']);
    expect(model.calls).toHaveLength(1);
    await refused(
      await post(handler, { id: 't', messages: longConversation(3) }),
      413,
      'chat-request-too-large',
    );
    await refused(
      await post(handler, { id: 'u', messages: [userMessage('u1', 'y'.repeat(3000))] }),
      413,
      'chat-request-too-large',
    );
    expect(model.calls).toHaveLength(1);

    for (const bad of [0, -1, 1.5, Number.NaN, '10', Infinity])
      for (const name of ['maxMessages', 'maxRequestBytes'])
        expect(() =>
          chatHandler({ workflow: () => null, journal: memoryJournalStore(), [name]: bad }),
        ).toThrow(
          expect.objectContaining({
            code: 'chat-handler-option-invalid',
            message: expect.stringMatching(new RegExp(`^june: chatHandler\\(\\{ ${name}: `)),
          }),
        );
  });
});
