// A journal store of one's own without `lease`: the handler's host then knows which runs it
// starts itself, and a chat's first message sent ten times at once to it starts one run, once.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { Agent, memoryJournalStore, type JournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { post, readMessage, textOf, userMessage } from './support.js';

describe('chatHandler over a store that does not lease', () => {
  it('ten first messages of one chat at once: one model call, one 200, nine 409 chat-run-busy', async () => {
    const script = scriptedModel({
      $comment: 'Test fixture: test/web/chat-first-message-store.test.tsx',
      steps: { 'turn-1': [{ text: 'Hello.' }] },
    });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const model: LanguageModelV4 = {
      specificationVersion: 'v4',
      provider: script.provider,
      modelId: script.modelId,
      supportedUrls: script.supportedUrls,
      doGenerate: async (options) => (await gate, script.doGenerate(options)),
      doStream: async (options) => (await gate, script.doStream(options)),
    };
    const memory = memoryJournalStore();
    const journal: JournalStore = {
      create: (runId, header) => memory.create(runId, header),
      append: (runId, record) => memory.append(runId, record),
      read: (runId) => memory.read(runId),
      list: () => memory.list(),
    };
    const Chat = ({ chat }: { chat: ChatInput }) => (
      <Agent model={model}>
        <ChatTurns chat={chat} />
      </Agent>
    );
    const handler = chatHandler({ workflow: Chat, journal });
    const body = { id: 'c1', messages: [userMessage('u1', 'Hi')] };

    const responses = await Promise.all(Array.from({ length: 10 }, () => post(handler, body)));
    expect(responses.map((response) => response.status).sort()).toEqual([
      200, 409, 409, 409, 409, 409, 409, 409, 409, 409,
    ]);
    for (const response of responses.filter((response) => response.status === 409))
      expect(await response.json()).toEqual({
        error: {
          code: 'chat-run-busy',
          message:
            'june: run c1-1 is busy with another request; send this one when its stream ended.',
        },
      });
    open();
    const message = await readMessage(responses.find((response) => response.status === 200)!);
    expect(textOf(message)).toEqual(['Hello.']);
    expect(script.calls).toHaveLength(1);
    expect(await journal.list()).toEqual(['c1-1']);
  });
});
