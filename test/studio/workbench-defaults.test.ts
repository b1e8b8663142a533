import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import type { RunList } from '../../src/host/run-list.js';
import { recordRelease } from '../fixtures/studio/workflows.js';
import { launchBrowser, newPage, openStudio, runsDir } from './support.js';
import { useDevWorkbench } from './workbench-support.js';

// What the workbench proposes works as it is: the chat proposes a script file that exists
// (one next to the workflow, else the provider, saying so), a chat workflow's props start from
// a conversation that fits its schema, a composite tool has no Try button that cannot work
// (the map says why), and the page asks for nothing that is not there: no /api/workflows on
// plain `june studio`, no run's approvals before the run exists.

const support = `import { tool } from 'ai';
import { Agent, RequireApproval, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { ChatTurns, type ChatInput } from 'june/web';
import { z } from 'zod';

export const props = z.object({ chat: z.any() });

const lookup = tool({
  description: 'Look up an order',
  inputSchema: z.object({ order: z.string() }),
  execute: async ({ order }) => ({ order, status: 'shipped' }),
});

export default function Support({ chat }: { chat: ChatInput }) {
  return (
    <Agent name="support" model={openai('gpt-5-mini')} messages={chat.history}>
      <RequireApproval>
        <Tool name="lookup" value={lookup} />
      </RequireApproval>
      <Tool
        name="research"
        description="Research a question"
        input={z.object({ question: z.string() })}
      >
        {({ question }) => (
          <Agent name="researcher" model={openai('gpt-5-mini')}>
            <Tool name="notes" value={lookup} />
          </Agent>
        )}
      </Tool>
      <ChatTurns chat={chat} />
    </Agent>
  );
}
`;

const hello = JSON.stringify({
  $comment: 'Test fixture: test/studio/workbench-defaults.test.ts',
  steps: { 'turn-1': [{ text: 'Hello from the script.' }] },
});

/** Records every answer of status 400 or more the page gets, as `404 /api/...`. */
function failedResponses(page: Page): { list: string[]; stop(): void } {
  const list: string[] = [];
  const listen = (response: Response) => {
    if (response.status() >= 400)
      list.push(`${response.status()} ${new URL(response.url()).pathname}`);
  };
  page.on('response', listen);
  return { list, stop: () => page.off('response', listen) };
}

describe('June Studio: plain `june studio` asks for no workflows', () => {
  let studio: Studio;
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const [browser, dir] = await Promise.all([launchBrowser(), runsDir()]);
    await recordRelease(dir);
    studio = await openStudio(dir);
    page = await newPage(browser, []);
    close = () => browser.close();
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await studio?.close();
  });

  it('loads the runs list without a request that fails', async () => {
    const failed = failedResponses(page);
    await page.goto(studio.url);
    await page.locator('.run-row').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('live').getByText('live').waitFor();
    failed.stop();
    expect(failed.list).toEqual([]);
    expect(await page.getByTestId('tab-workflows').count()).toBe(0);
  }, 60_000);
});

describe('June Studio: the workbench proposes what works', () => {
  const wb = useDevWorkbench({
    'workflows/support.tsx': support,
    'workflows/hello.chat.json': hello,
    'solo/support.tsx': support,
  });

  it('proposes a script file next to the workflow, and the first Send is answered from it', async () => {
    await wb.page.goto(
      `${wb.studio.pageUrl}#/workbench/${encodeURIComponent('workflows/support.tsx')}`,
    );
    const chat = wb.page.getByTestId('chat');
    const script = chat.getByLabel('Chat script file');
    await script.waitFor({ timeout: 30_000 });
    expect(await script.inputValue()).toBe('workflows/hello.chat.json');
    const start = wb.page.getByTestId('start-run');
    expect(await start.getByLabel('Script file', { exact: true }).inputValue()).toBe(
      'workflows/hello.chat.json',
    );
    await chat.getByLabel('Message').fill('Hi');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.getByText('Hello from the script.').waitFor({ timeout: 60_000 });
    expect(await chat.getByTestId('chat-error').count()).toBe(0);
  }, 120_000);

  it('tells the page that this Studio serves workflows', async () => {
    const list = (await (await fetch(`${wb.studio.url}api/runs`)).json()) as RunList;
    expect(list.workflows).toBe(true);
  });

  it('proposes the provider, and says so, where no script file is next to the workflow', async () => {
    await wb.page.goto(`${wb.studio.pageUrl}#/workbench/${encodeURIComponent('solo/support.tsx')}`);
    const chat = wb.page.getByTestId('chat');
    const script = chat.getByLabel('Chat script file');
    await script.waitFor({ timeout: 30_000 });
    expect(await script.inputValue()).toBe('');
    expect(await chat.getByTestId('no-script').innerText()).toContain(
      'No script file next to solo/support.tsx',
    );
    const start = wb.page.getByTestId('start-run');
    expect(await start.getByTestId('no-script').innerText()).toContain('solo/support.script.json');
  }, 60_000);

  it("starts a chat workflow's run with the props it proposes", async () => {
    await wb.page.goto(
      `${wb.studio.pageUrl}#/workbench/${encodeURIComponent('workflows/support.tsx')}`,
    );
    const form = wb.page.getByTestId('start-run');
    await form.waitFor({ timeout: 30_000 });
    await form.getByLabel('a script file').check();
    await form.getByLabel('Script file', { exact: true }).fill('workflows/hello.chat.json');
    await form.getByRole('button', { name: 'Start' }).click();
    const refused = form.getByTestId('start-error');
    await Promise.race([
      wb.page.waitForURL(/#\/runs\//, { timeout: 60_000 }),
      refused.waitFor({ timeout: 60_000 }),
    ]);
    expect((await refused.count()) ? await refused.innerText() : 'started').toBe('started');
    expect(wb.page.url()).toMatch(/#\/runs\//);
  }, 120_000);

  it('shows no Try button on a composite tool, and says why', async () => {
    await wb.page.goto(
      `${wb.studio.pageUrl}#/workflows/${encodeURIComponent('workflows/support.tsx')}`,
    );
    const research = wb.page.locator('.map-tool[data-tool="research"]');
    await research.waitFor({ timeout: 30_000 });
    expect(await research.locator('.map-try').count()).toBe(0);
    expect(await research.getByTestId('no-try').getAttribute('title')).toContain(
      'tried by starting a run',
    );
    expect(await wb.page.locator('.map-tool[data-tool="lookup"] .map-try').count()).toBe(1);
  }, 60_000);

  it('asks for no run before it exists while a tool is tried, and answers its approval', async () => {
    const failed = failedResponses(wb.page);
    const target = `${encodeURIComponent('workflows/support.tsx')}/support/lookup`;
    await wb.page.goto(`${wb.studio.pageUrl}#/workbench/${target}`);
    const dialog = wb.page.getByTestId('try-tool');
    await dialog.getByLabel('Tool input').fill('{ "order": "A-1" }');
    await dialog.getByRole('button', { name: 'Try' }).click();
    const approval = dialog.getByTestId('tool-approval');
    await approval.waitFor({ timeout: 60_000 });
    await approval.getByRole('button', { name: 'Approve' }).click();
    const result = dialog.getByTestId('tool-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.innerText()).toContain('shipped');
    failed.stop();
    expect(failed.list).toEqual([]);
  }, 120_000);
});
