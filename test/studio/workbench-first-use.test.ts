import { describe, expect, it } from 'vitest';
import { nodesOf, traces } from '../cli/cli-harness.js';
import { screenshot } from './support.js';
import { useDevWorkbench } from './workbench-support.js';

// The workbench as a new user meets it, in Chromium, on `june dev`'s own catalog: a chat
// workflow written as the web-apps page shows it (`{ chat }` with no default) has its map and
// a way from the map to its workbench; the Workflows tab stays on there; the tool dialog starts
// from an input that fits (an enum's first choice, a default); a tool of the chat workflow is
// tried without a conversation; a chat whose script is missing says why in one `june:` line.

const support = `import { tool } from 'ai';
import { Agent, RequireApproval, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { ChatTurns, type ChatInput } from 'june/web';
import { z } from 'zod';

export const props = z.object({ chat: z.any() });

const lookup = tool({
  description: 'Look up an order',
  inputSchema: z.object({ order: z.string().default('A-1') }),
  execute: async ({ order }) => ({ order, status: 'shipped' }),
});

const refund = tool({
  description: 'Refund an order',
  inputSchema: z.object({ order: z.string(), speed: z.enum(['normal', 'express']) }),
  execute: async ({ order }) => 'Refunded ' + order,
});

export default function Support({ chat }: { chat: ChatInput }) {
  return (
    <Agent name="support" model={openai('gpt-5-mini')} messages={chat.history}>
      <Tool name="lookup" value={lookup} />
      <RequireApproval>
        <Tool name="refund" value={refund} />
      </RequireApproval>
      <ChatTurns chat={chat} />
    </Agent>
  );
}
`;

describe('June Studio: the workbench, first use', () => {
  const wb = useDevWorkbench({ 'support.tsx': support });

  it("draws a chat workflow's map and leads from it to its workbench, the Workflows tab on", async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workflows/support.tsx`);
    const map = wb.page.getByTestId('capability-map');
    await map.getByText('refund', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await wb.page.getByTestId('workflow-error').count()).toBe(0);
    const open = wb.page.getByTestId('open-workbench');
    expect(await open.innerText()).toBe('Start a run · Chat');
    await open.click();
    await wb.page.waitForURL(/#\/workbench\/support\.tsx$/);
    await wb.page.getByTestId('chat').waitFor();
    expect(await wb.page.getByTestId('tab-workflows').getAttribute('class')).toContain('tab-on');
    expect(await wb.page.getByTestId('tab-runs').getAttribute('class')).not.toContain('tab-on');
    await wb.page.getByTestId('open-map').click();
    await wb.page.waitForURL(/#\/workflows\/support\.tsx$/);
  }, 120_000);

  it('starts the tool dialog from an input that fits, and tries a tool of the chat workflow', async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workbench/support.tsx/support/refund`);
    const dialog = wb.page.getByTestId('try-tool');
    const input = dialog.getByLabel('Tool input');
    await input.waitFor();
    expect(JSON.parse(await input.inputValue())).toEqual({ order: '', speed: 'normal' });
    await dialog.getByLabel('Tool', { exact: true }).selectOption('lookup');
    expect(JSON.parse(await input.inputValue())).toEqual({ order: 'A-1' });
    await dialog.getByRole('button', { name: 'Try' }).click();
    const result = dialog.getByTestId('tool-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.innerText()).toContain('shipped');
    await screenshot(wb.page, 'workbench-first-use-tool');
    const tried = [...traces(wb.project.dir).values()].find((trace) =>
      trace.workflow?.startsWith('try lookup'),
    );
    expect(tried?.status).toBe('succeeded');
    expect(
      nodesOf(tried!)
        .filter((node) => node.kind === 'tool')
        .map((node) => [node.name, node.input]),
    ).toEqual([['lookup', { order: 'A-1' }]]);
  }, 120_000);

  it("shows a chat's refused request as its june: message, not the response's JSON", async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workbench/support.tsx`);
    const chat = wb.page.getByTestId('chat');
    await chat.getByLabel('Chat script file').fill('missing.chat.json');
    await chat.getByLabel('Message').fill('Where is A-1?');
    await chat.getByRole('button', { name: 'Send' }).click();
    const error = chat.getByTestId('chat-error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.innerText()).toBe(
      'june: the script "missing.chat.json" does not exist in the project.',
    );
    await screenshot(wb.page, 'workbench-first-use-chat-error');
  }, 120_000);
});
