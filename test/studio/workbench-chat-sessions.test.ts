import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevCatalog } from '../../src/cli/dev-catalog.js';
import { devWorkbench } from '../../src/cli/dev-workbench.js';
import { findWorkflows } from '../../src/cli/find-workflows.js';
import type { Studio } from '../../src/studio/index.js';
import { tempProject } from '../cli/cli-harness.js';
import { openStudio } from './support.js';
import { pageHeaders, rawPost } from './workbench-support.js';

// The workbench's chats on `june dev`'s own catalog: each chat is a conversation of its own,
// so two chats with one script file each read its turns from the start, and a chat begun
// after a save runs the code as saved (the tool says which version of the file it is).

const shop = (version: string) => `import { tool } from 'ai';
import { Agent, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { ChatTurns, type ChatInput } from 'june/web';
import { z } from 'zod';

export const props = z.object({ chat: z.any() });

const version = tool({
  description: 'Which version of the file answers',
  inputSchema: z.object({}),
  execute: async () => 'code ${version}',
});

export default function Shop({ chat = { messages: [] } }: { chat?: ChatInput }) {
  return (
    <Agent name="shop" model={openai('gpt-5-mini')} messages={chat.history}>
      <Tool name="version" value={version} />
      <ChatTurns chat={chat} />
    </Agent>
  );
}
`;

const answer = [{ toolCalls: [{ tool: 'version', input: {} }] }, { text: 'Answered.' }];
const script = (answers: number) =>
  JSON.stringify({
    $comment: 'Test fixture: test/studio/workbench-chat-sessions.test.ts',
    steps: { 'turn-1': Array.from({ length: answers }, () => answer).flat() },
  });

describe('June Studio: each workbench chat is its own', () => {
  let project: ReturnType<typeof tempProject>;
  let catalog: DevCatalog;
  let studio: Studio;

  beforeAll(async () => {
    project = tempProject();
    project.write('shop.tsx', shop('v1'));
    project.write('shop.chat.json', script(1));
    // turns enough for two chats sharing one cursor: what differs after the save is the code
    project.write('shop.save.json', script(2));
    catalog = new DevCatalog(project.dir, await findWorkflows(project.dir), [project.dir]);
    await catalog.loadAll();
    studio = await openStudio(join(project.dir, '.june', 'runs'), {
      workflows: catalog,
      workbench: devWorkbench(catalog),
    });
  }, 180_000);
  afterAll(async () => {
    await studio?.close();
    await catalog?.close();
    project?.remove();
  });

  /** Sends the first message of chat `chatId`; the streamed answer, as text. */
  const send = async (chatId: string, scriptFile = 'shop.chat.json') => {
    const answer = await rawPost(
      `${studio.url}api/workflows/shop.tsx/chat?script=${scriptFile}`,
      {
        id: chatId,
        messages: [{ id: `${chatId}-m1`, role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
      },
      pageHeaders(studio.url, studio.answerToken),
    );
    expect(answer.status).toBe(200);
    return String(answer.body);
  };

  it('gives two chats with one script file a cursor each: both get its first turn', async () => {
    for (const chatId of ['cursor-a', 'cursor-b']) {
      const said = await send(chatId);
      expect(said, chatId).toContain('Answered.');
      expect(said, chatId).not.toContain('ran out of turns');
    }
  }, 120_000);

  it('runs a chat begun after a save with the code as saved', async () => {
    expect(await send('before-save', 'shop.save.json')).toContain('code v1');
    const file = project.write('shop.tsx', shop('v2'));
    await catalog.changed(file, 'change');
    const said = await send('after-save', 'shop.save.json');
    expect(said).toContain('code v2');
    expect(said).not.toContain('code v1');
  }, 120_000);
});
