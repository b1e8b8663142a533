// A chat kept as a thread, in a real Chromium: the page sends only its new message, and a
// reloaded page (its own copy of the conversation gone) shows the conversation the server's
// thread holds and goes on with it.
import { chromium, type Browser } from 'playwright-core';
import { memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type ExampleServer } from '../../examples/web/server.js';
import { buildExamplePage } from './chat-servers.js';

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

const text = (content: unknown) =>
  (Array.isArray(content) ? content : [{ type: 'text', text: content }])
    .map((part: { type: string; text?: string }) => (part.type === 'text' ? part.text : ''))
    .join('');

describe('a chat with a thread, in Chromium', () => {
  it('the page sends only its new message; after a reload the model still has the conversation', async () => {
    const model = scriptedModel({
      $comment: 'Test fixture: test/web/chat-thread-browser.test.ts',
      steps: {
        'turn-1': [
          { text: 'Hello Ana, how can I help?' },
          { text: 'You told me your name is Ana.' },
        ],
      },
    });
    const journal = memoryJournalStore();
    const server = await startServer({ model, journal, thread: true });
    servers.push(server);
    const page = await browser.newPage();
    const sent: unknown[][] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/chat'))
        sent.push((request.postDataJSON() as { messages: unknown[] }).messages);
    });
    await page.goto(`${server.url}?chat=ana&thread`);
    await page.getByPlaceholder('Message').fill('Hi, I am Ana.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Hello Ana, how can I help?').waitFor();
    await page.locator('.status', { hasText: 'ready' }).waitFor();

    // the page forgets its copy and reloads: the conversation lives on the server
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await page.getByPlaceholder('Message').waitFor();
    // it shows the conversation the server's thread holds (GET /api/chat/<chatId>/messages)
    await page.getByText('Hello Ana, how can I help?').waitFor();
    await page.getByText('Hi, I am Ana.').waitFor();
    await page.getByPlaceholder('Message').fill('What is my name?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('You told me your name is Ana.').waitFor();

    expect(sent.map((messages) => messages.length)).toEqual([1, 1]);
    const prompt = model.calls[1]!.prompt.map((message) => [message.role, text(message.content)]);
    expect(prompt.slice(1)).toEqual([
      ['user', 'Hi, I am Ana.'],
      ['assistant', 'Hello Ana, how can I help?'],
      ['user', 'What is my name?'],
    ]);
    // the chat's runs are the thread's, in order
    const { listThread } = await import('june');
    expect((await listThread(journal, 'ana')).map((run) => run.runId)).toEqual(['ana-1', 'ana-2']);
    model.assertAllTurnsUsed();
  });
});
