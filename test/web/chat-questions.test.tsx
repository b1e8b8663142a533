// A <Question> in a chat: the stream tells the page the part is a question (a
// `data-june-question` part with its prompt and answer schema, kept in the message), and the
// page answers it as it answers instead of the tool: a denial plus approvalWith(id, { output }).
import { Agent, memoryJournalStore, Question } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { approvalWith } from 'june/web/approval-with';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';

/** A release chat whose model asks where to deploy, then says what it heard; `later`: the answers to the next messages. */
function release(later: Array<{ text: string }> = []) {
  const model = scriptedModel({
    $comment: 'Test fixture: scripted turns for test/web',
    steps: {
      'turn-1': [
        { toolCalls: [{ tool: 'ask_env', input: {} }] },
        { text: 'Going there.' },
        ...later,
      ],
    },
  });
  function Release({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model}>
        <Question
          name="ask_env"
          prompt="Where should 1.2.0 go?"
          answer={z.enum(['staging', 'prod'])}
        />
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  return chatHandler({ workflow: Release, journal: memoryJournalStore() });
}

describe('chatHandler: a question', () => {
  it('is told to the page with its prompt and answer schema, and answered with approvalWith', async () => {
    const handler = release();
    const user = userMessage('u1', 'Ship it');
    const first = await readMessage(await post(handler, { id: 'q1', messages: [user] }));
    const part = toolPart(first, 'tool-ask_env')!;
    expect(part.state).toBe('approval-requested');
    const id = part.approval.id as string;
    expect(first.parts.find((each) => each.type === 'data-june-question')).toMatchObject({
      id: part.toolCallId,
      data: {
        toolCallId: part.toolCallId,
        approvalId: id,
        question: {
          prompt: 'Where should 1.2.0 go?',
          answerSchema: { type: 'string', enum: ['staging', 'prod'] },
        },
      },
    });

    const declined = answered(first, 'tool-ask_env', false);
    const refused = await post(handler, {
      id: 'q1',
      messages: [user, declined],
      ...approvalWith(id, { output: 'moon' }),
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: {
        code: 'approval-output-invalid',
        message: expect.stringContaining('june: the answer to the question "ask_env"'),
      },
    });

    const message = await readMessage(
      await post(handler, {
        id: 'q1',
        messages: [user, declined],
        ...approvalWith(id, { output: 'prod' }),
      }),
      declined,
    );
    expect(toolPart(message, 'tool-ask_env')).toMatchObject({
      state: 'output-available',
      output: 'prod',
    });
  });

  it('takes the next request, whose message keeps the answered part as useChat does: its output beside the denial it was answered with', async () => {
    const handler = release([{ text: 'Noted.' }]);
    const user = userMessage('u1', 'Ship it');
    const first = await readMessage(await post(handler, { id: 'q2', messages: [user] }));
    const id = toolPart(first, 'tool-ask_env')!.approval.id as string;
    const declined = answered(first, 'tool-ask_env', false);
    const message = await readMessage(
      await post(handler, {
        id: 'q2',
        messages: [user, declined],
        ...approvalWith(id, { output: 'prod' }),
      }),
      declined,
    );
    expect(toolPart(message, 'tool-ask_env')).toMatchObject({
      state: 'output-available',
      output: 'prod',
      approval: { id, approved: false },
    });
    const next = await post(handler, {
      id: 'q2',
      messages: [user, message, userMessage('u2', 'Thanks')],
    });
    expect(next.status).toBe(200);
    expect(textOf(await readMessage(next))).toEqual(['Noted.']);
  });
});
