import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodesOf, traces } from '../cli/cli-harness.js';
import { eventually, screenshot, waitingCards } from './support.js';
import { useDevWorkbench } from './workbench-support.js';

// The workbench in Chromium, on `june dev`'s own catalog over a project: a workflow started
// from the page with a script runs, waits for an approval, is approved in the page and
// finishes with its tool run once; a tool tried from its dialog, approved there; a two-turn
// chat with an approval in the conversation. The tools append to files, so the files show
// how often each ran.

const release = `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

export const props = z.object({ env: z.string() });

const deploy = tool({
  description: 'Deploy to an environment',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync('deploys.log', env + '\\n');
    return 'Deployed to ' + env;
  },
});

export default function Release({ env }: z.infer<typeof props>) {
  return (
    <Agent name="release" model={openai('gpt-5-mini')}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt={'Deploy to ' + env} />
    </Agent>
  );
}
`;

const releaseScript = JSON.stringify({
  $comment: 'Test fixture: test/studio/workbench.test.ts',
  steps: {
    release: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
  },
});

const shop = `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { ChatTurns, type ChatInput } from 'june/web';
import { z } from 'zod';

export const props = z.object({ chat: z.object({ messages: z.array(z.string()) }) });

const refund = tool({
  description: 'Refund an order',
  inputSchema: z.object({ order: z.string() }),
  needsApproval: true,
  execute: async ({ order }) => {
    // the chat runs in Studio's process: a path from this file, not from the current folder
    appendFileSync(new URL('./refunds.log', import.meta.url), order + '\\n');
    return { refunded: order };
  },
});

export default function Shop({ chat = { messages: [] } }: { chat?: ChatInput }) {
  return (
    <Agent name="shop" model={openai('gpt-5-mini')} messages={chat.history}>
      <Tool name="refund" value={refund} />
      <ChatTurns chat={chat} />
    </Agent>
  );
}
`;

const shopScript = JSON.stringify({
  $comment: 'Test fixture: test/studio/workbench.test.ts',
  steps: {
    'turn-1': [
      { text: 'Refunding it.', toolCalls: [{ tool: 'refund', input: { order: 'A-1' } }] },
      { text: 'Order A-1 is refunded.' },
      { text: 'You are welcome.' },
    ],
  },
});

describe('June Studio: the workbench', () => {
  const wb = useDevWorkbench({
    'release.tsx': release,
    'release.script.json': releaseScript,
    'shop.tsx': shop,
    'shop.chat.json': shopScript,
  });
  const lines = (name: string) =>
    existsSync(join(wb.project.dir, name)) ? readFileSync(join(wb.project.dir, name), 'utf8') : '';

  it('starts a run with a script, approves its call in the page, and the tool runs once', async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workbench/release.tsx`);
    const form = wb.page.getByTestId('start-run');
    await form.getByLabel('env').fill('staging');
    expect(await form.getByLabel('Script file', { exact: true }).inputValue()).toBe(
      'release.script.json',
    );
    await screenshot(wb.page, 'workbench-start');
    await form.getByRole('button', { name: 'Start' }).click();

    await wb.page.waitForURL(/#\/runs\//, { timeout: 60_000 });
    const runId = decodeURIComponent(wb.page.url().replace(/^.*#\/runs\//, ''));
    const card = wb.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    expect(lines('deploys.log')).toBe('');
    await card.getByRole('button', { name: 'Approve' }).click();
    await eventually(
      () => expect(traces(wb.project.dir).get(`${runId}.json`)?.status).toBe('succeeded'),
      60_000,
    );
    expect(lines('deploys.log')).toBe('staging\n');
    const trace = traces(wb.project.dir).get(`${runId}.json`)!;
    expect(trace.workflow).toBe('release.tsx');
    const tools = nodesOf(trace).filter((node) => node.kind === 'tool');
    expect(tools.map((node) => [node.name, node.status, node.approval?.status])).toEqual([
      ['deploy', 'succeeded', 'approved'],
    ]);
    await waitingCards(wb.page).first().waitFor({ state: 'detached', timeout: 30_000 });
  }, 180_000);

  it('tries one tool from the map: its approval waits in the dialog, then its output shows; a run of its own', async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workflows/release.tsx`);
    await wb.page.locator('.map-try').first().click();
    await wb.page.waitForURL(/#\/workbench\/release\.tsx\/release\/deploy$/);
    await wb.page.getByTestId('start-run').getByLabel('env').fill('staging');
    const dialog = wb.page.getByTestId('try-tool');
    expect(await dialog.getByLabel('Tool', { exact: true }).inputValue()).toBe('deploy');
    await dialog.getByLabel('Tool input').fill('{ "env": "qa" }');
    await dialog.getByRole('button', { name: 'Try' }).click();
    const approval = dialog.getByTestId('tool-approval');
    await approval.waitFor({ timeout: 60_000 });
    await screenshot(wb.page, 'workbench-tool');
    expect(lines('deploys.log')).toBe('staging\n');
    await approval.getByRole('button', { name: 'Approve' }).click();
    const result = dialog.getByTestId('tool-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.innerText()).toContain('Deployed to qa');
    expect(lines('deploys.log')).toBe('staging\nqa\n');
    const tried = [...traces(wb.project.dir).values()].find((trace) =>
      trace.workflow?.startsWith('try deploy'),
    );
    expect(tried?.status).toBe('succeeded');
    expect(
      nodesOf(tried!)
        .filter((node) => node.kind === 'tool')
        .map((node) => [node.name, node.input, node.approval?.status]),
    ).toEqual([['deploy', { env: 'qa' }, 'approved']]);
  }, 180_000);

  it('chats for two turns, the refund approved in the conversation', async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workbench/shop.tsx`);
    const chat = wb.page.getByTestId('chat');
    expect(await chat.getByLabel('Chat script file').inputValue()).toBe('shop.chat.json');
    await chat.getByLabel('Message').fill('Refund order A-1, please');
    await chat.getByRole('button', { name: 'Send' }).click();
    const call = chat.getByTestId('chat-tool');
    await call.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 60_000 });
    expect(lines('refunds.log')).toBe('');
    await call.getByRole('button', { name: 'Approve' }).click();
    await chat.getByText('Order A-1 is refunded.').waitFor({ timeout: 60_000 });
    expect(lines('refunds.log')).toBe('A-1\n');
    await chat.getByLabel('Message').fill('Thanks!');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.getByText('You are welcome.').waitFor({ timeout: 60_000 });
    await screenshot(wb.page, 'workbench-chat');
    expect(lines('refunds.log')).toBe('A-1\n');
    const chats = [...traces(wb.project.dir).values()].filter(
      (trace) => trace.workflow === 'shop.tsx',
    );
    // each message of the chat is a run of its own, listed with the others
    expect(chats).toHaveLength(2);
    for (const trace of chats)
      expect(
        nodesOf(trace)
          .filter((node) => node.kind === 'step')
          .map((node) => node.name),
      ).toEqual(['turn-1']);
  }, 180_000);
});
