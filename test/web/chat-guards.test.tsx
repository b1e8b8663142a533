// A <Guard> in a chat: an escalated call reaches the page as an approval with the guard's
// reason beside it (a `data-june-guard` part) and runs once approved; a chat turn's message
// is checked before the model sees it.
import { tool } from 'ai';
import { Agent, Guard, memoryJournalStore, Tool, type GuardSubject } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, chunksOf, post, readMessage, toolPart, userMessage } from './support.js';

function policy({ kind, tool: name, input }: GuardSubject) {
  if (kind === 'tool-input' && name === 'deploy')
    return { action: 'escalate' as const, reason: 'deploys need a person' };
  if (kind === 'user-input' && String(input).includes('password'))
    return { action: 'trip' as const, reason: 'no passwords in the chat' };
  return 'allow' as const;
}

function release() {
  const ran: string[] = [];
  const deploy = tool({
    description: 'Deploy',
    inputSchema: z.object({ env: z.string() }),
    execute: async ({ env }) => (ran.push(env), `deployed to ${env}`),
  });
  const model = scriptedModel({
    $comment: 'Test fixture: scripted turns for test/web',
    steps: {
      'turn-1': [
        { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
        { text: 'Deployed to prod.' },
      ],
    },
  });
  function Release({ chat }: { chat: ChatInput }) {
    return (
      <Guard name="chat-policy" check={policy} on={['tool-input', 'output', 'user-input']}>
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <ChatTurns chat={chat} />
        </Agent>
      </Guard>
    );
  }
  return { handler: chatHandler({ workflow: Release, journal: memoryJournalStore() }), ran };
}

describe('chatHandler: a guarded chat', () => {
  it("shows an escalation with the guard's reason and runs the call once approved", async () => {
    const { handler, ran } = release();
    const user = userMessage('u1', 'Ship it');
    const first = await readMessage(await post(handler, { id: 'g1', messages: [user] }));
    const part = toolPart(first, 'tool-deploy')!;
    expect(part.state).toBe('approval-requested');
    expect(first.parts.find((each) => each.type === 'data-june-guard')).toMatchObject({
      id: part.toolCallId,
      data: {
        toolCallId: part.toolCallId,
        approvalId: part.approval.id,
        guard: {
          name: 'chat-policy',
          declaration: '<Guard name="chat-policy">',
          reason: 'deploys need a person',
        },
      },
    });
    expect(ran).toEqual([]);

    const approved = answered(first, 'tool-deploy', true);
    const chunks = await chunksOf(await post(handler, { id: 'g1', messages: [user, approved] }));
    expect(ran).toEqual(['prod']);
    // the answer's text, held until the guard allowed the step's output, then sent whole
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
    expect(text.join('')).toBe('Deployed to prod.');
  });

  it("a chat turn's message is checked before the model sees it", async () => {
    const { handler } = release();
    const chunks = await chunksOf(
      await post(handler, { id: 'g3', messages: [userMessage('u1', 'my password is 1234')] }),
    );
    expect(chunks).toContainEqual({
      type: 'error',
      errorText: expect.stringContaining(
        'tripped on the prompt of step "turn-1": no passwords in the chat',
      ),
    });
  });
});
