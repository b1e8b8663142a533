// The example's page in a real Chromium: useChat streams the run, shows the approval with its
// input, Approve runs the tool once, Deny's reason reaches the model, a reload reconnects.
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { wrapLanguageModel, type LanguageModel } from 'ai';
import { scriptedModel } from 'june/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type ExampleServer } from '../../examples/web/server.js';
import { buildExamplePage } from './chat-servers.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const script = here('../../examples/web/shop.script.json');

let browser: Browser;
const servers: ExampleServer[] = [];

beforeAll(async () => {
  [browser] = await Promise.all([
    chromium.launch({
      executablePath: inject('chromium').path,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    }),
    buildExamplePage(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/**
 * `model`, whose call number `at` (1-based) waits until the test releases it: `entered`
 * settles when that call is waiting.
 */
function gated(model: ReturnType<typeof scriptedModel>, at: number) {
  let calls = 0;
  let enter!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold = async () => {
    if (++calls !== at) return;
    enter();
    await released;
  };
  const wrapped = wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ doGenerate }) => (await hold(), doGenerate()),
      wrapStream: async ({ doStream }) => (await hold(), doStream()),
    },
  });
  return { model: wrapped, entered, release };
}

async function open(
  model: LanguageModel = scriptedModel(script),
): Promise<{ page: Page; server: ExampleServer }> {
  const server = await startServer({ model });
  servers.push(server);
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByPlaceholder('Message').fill('Please refund order A1');
  await page.getByRole('button', { name: 'Send' }).click();
  return { page, server };
}

describe('examples/web in Chromium', () => {
  it('streams the text, shows the approval with its input, and Approve runs the tool once', async () => {
    const { page, server } = await open();
    await page.getByText('Let me refund order A1 for you.').waitFor();
    await page.getByText('refund {"order":"A1","amount":25}').waitFor();
    expect(server.refunds).toEqual([]);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('All done: the refund went through.').waitFor();
    expect(server.refunds).toEqual(['A1']);
    await expect(page.getByText('Let me refund order A1 for you.').count()).resolves.toBe(1);
  });

  it('a question shows its prompt and a form; the answer is what the model reads', async () => {
    const model = scriptedModel({
      $comment: 'Test fixture: test/web/example-browser.test.ts',
      steps: {
        'turn-1': [{ toolCalls: [{ tool: 'ask_reason', input: {} }] }, { text: 'Thanks, noted.' }],
      },
    });
    const { page, server } = await open(model);
    await page.getByText('Why is the order going back?').waitFor();
    await page.locator('form.question select').selectOption('"late"');
    await page.getByRole('button', { name: 'Answer', exact: true }).click();
    await page.getByText('Thanks, noted.').waitFor();
    await page.locator('.tool[data-state="output-available"]').getByText('"late"').waitFor();
    expect(JSON.stringify(model.calls.at(-1)!.prompt)).toContain('late');
    expect(server.refunds).toEqual([]);
  });

  it('offline, as the docs describe it: the first message gets the refund, the second the question', async () => {
    const model = scriptedModel(script);
    const { page, server } = await open(model);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('All done: the refund went through.').waitFor();
    await page.getByPlaceholder('Message').fill('It came late');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Why is the order going back?').waitFor();
    await page.locator('form.question select').selectOption('"late"');
    await page.getByRole('button', { name: 'Answer', exact: true }).click();
    await page.getByText('Thanks, noted. Anything else I can help with?').waitFor();
    expect(server.refunds).toEqual(['A1']);
    model.assertAllTurnsUsed();
  });

  it('has its own tidy style: a sans-serif system font and one centred column, not the default serif', async () => {
    const { page } = await open();
    await page.getByText('Let me refund order A1 for you.').waitFor();
    const look = await page.evaluate(() => {
      const main = document.querySelector('main')!;
      return {
        font: getComputedStyle(document.body).fontFamily,
        width: main.getBoundingClientRect().width,
        left: main.getBoundingClientRect().left,
      };
    });
    expect(look.font).toMatch(/^system-ui/);
    expect(look.width).toBeLessThanOrEqual(720); // 680 px of text and its padding
    expect(look.left).toBeGreaterThan(0);
  });

  it('Deny with a reason reaches the model, and the tool does not run', async () => {
    const model = scriptedModel(script);
    const { page, server } = await open(model);
    await page.getByRole('button', { name: 'Deny' }).waitFor();
    await page.getByPlaceholder('reason').fill('A1 was a gift');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('All done: the refund went through.').waitFor();
    expect(server.refunds).toEqual([]);
    expect(JSON.stringify(model.calls.at(-1)!.prompt)).toContain('A1 was a gift');
    await page.locator('.tool[data-state="output-denied"]').waitFor();
  });

  it('a page reloaded mid-run shows the run again and follows it to the end; nothing runs twice', async () => {
    const scripted = scriptedModel(script);
    const gate = gated(scripted, 2); // the model's answer after the refund
    const { page, server } = await open(gate.model);
    await page.getByRole('button', { name: 'Approve' }).click();
    await gate.entered;
    await page.reload();
    await page.getByText('Please refund order A1').waitFor();
    await page.getByText('Let me refund order A1 for you.').waitFor();
    await page.locator('.tool[data-state="output-available"]').waitFor();
    await expect(page.getByText('All done: the refund went through.').count()).resolves.toBe(0);
    gate.release();
    await page.getByText('All done: the refund went through.').waitFor();
    expect(server.refunds).toEqual(['A1']);
    expect(scripted.calls).toHaveLength(2);
    await expect(page.getByText('Let me refund order A1 for you.').count()).resolves.toBe(1);
    await expect(page.locator('section.assistant').count()).resolves.toBe(1);
  });
});
