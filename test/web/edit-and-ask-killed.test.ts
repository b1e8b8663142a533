// One chat run (test/fixtures/edit-and-ask/ship.tsx) served by a chat server in a process of
// its own (fixtures/chat-server.mjs, over a runs folder, with examples/web's page), in
// Chromium: the model asks where 1.2.0 goes (a <Question>), then calls deploy with
// { env: 'staging' }, which the person edits to { env: 'prod' } from the page. The server is
// killed (SIGKILL) at each wait and started again on its port; the reloaded page shows what
// waits, and its answers continue the run. Nothing runs twice, and the chat ends as one whose
// server was never killed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/trace-node.js';
import { nodesOf } from '../cli/cli-harness.js';
import {
  editedAndAnswered,
  expectRecords,
  seenCalls,
  shipProject,
  type ModelMessage,
} from '../fixtures/edit-and-ask/edit-and-ask.js';
import { eventually, launchBrowser, newPage } from '../studio/support.js';
import { buildExamplePage, examplePage, startChatServer, type ChatServer } from './chat-servers.js';

describe('examples/web on a chat server process: a question and an edited call, the server killed at each wait', () => {
  let browser: Browser;
  const errors: string[] = [];
  const projects: Array<ReturnType<typeof shipProject>> = [];
  const servers: ChatServer[] = [];

  beforeAll(async () => {
    [browser] = await Promise.all([launchBrowser(), buildExamplePage()]);
  }, 120_000);
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop()));
    projects.forEach((project) => project.remove());
  });

  /**
   * Ships 1.2.0 through the example's page on a new project's chat server: answers the
   * question `prod` and edits the deploy to prod. With `kill`, the server is killed at each
   * wait, once the run's journal holds the request and the response ended, then started
   * again on its port, and the page is reloaded before it answers.
   */
  async function ship(kill: boolean) {
    const project = shipProject();
    projects.push(project);
    const env = { CHAT_RUNS: join(project.dir, '.june', 'runs'), CHAT_PAGE: examplePage };
    const start = async (port?: string) => {
      const server = await startChatServer(
        project.dir,
        port ? { ...env, CHAT_PORT: port } : env,
        'ship.tsx',
      );
      servers.push(server);
      return server;
    };
    let server = await start();
    const page = await newPage(browser, errors);
    await page.goto(`${server.url}/`);
    const chatId = new URL(page.url()).searchParams.get('chat')!;
    const runId = `${chatId}-1`; // the chat's first message is its first run
    await page
      .getByPlaceholder('Message')
      .fill('Ship 1.2.0: ask where it goes, then deploy it there.');
    await page.getByRole('button', { name: 'Send' }).click();

    /** Kills the server once the run waits for `tool`, starts it again, and reloads the page. */
    const killAt = async (tool: string) => {
      await eventually(() => {
        const asked = project
          .journal(runId)
          .filter((record) => record.type === 'approval-request')
          .map((record) => record.tool);
        expect(asked.at(-1)).toBe(tool);
      }, 60_000);
      await page.locator('.status', { hasText: 'ready' }).waitFor();
      const port = new URL(server.url).port;
      process.kill(server.pid, 'SIGKILL');
      await server.stop();
      server = await start(port);
      await page.reload();
    };

    const question = page.locator('form.question');
    await question.waitFor({ timeout: 60_000 });
    if (kill) await killAt('ask_env');
    // the page shows the question waiting, from what it kept
    expect(await question.locator('p').innerText()).toBe('Where should 1.2.0 go?');
    await question.locator('select').selectOption('"prod"');
    await question.getByRole('button', { name: 'Answer', exact: true }).click();

    const approval = page.locator('.tool[data-state="approval-requested"] .approval');
    await approval.waitFor({ timeout: 60_000 });
    if (kill) await killAt('deploy');
    expect(await page.locator('.tool[data-state="approval-requested"] code').innerText()).toBe(
      'deploy {"env":"staging"}',
    );
    await approval.locator('input:not([placeholder])').fill('{"env":"prod"}');
    await approval.getByRole('button', { name: 'Run with this input' }).click();
    await page.getByText('Shipped 1.2.0.').waitFor({ timeout: 60_000 });
    await page.locator('.status', { hasText: 'ready' }).waitFor();
    return { project, page, chatId, runId };
  }

  /** What a page shows of the chat once it ended: each tool part and the texts. */
  const shown = (page: Page) =>
    page.evaluate(() =>
      Array.from(
        document.querySelectorAll('section.assistant .tool, section.assistant .text'),
        (element) => (element as HTMLElement).innerText,
      ),
    );

  it('answered from the reloaded page after each kill: deploys once to prod, the model sees the edit, the records keep both answers', async () => {
    const uninterrupted = await ship(false);
    expect(uninterrupted.project.deploys()).toBe('prod\n');

    const { project, page, chatId, runId } = await ship(true);
    // the tool ran once, with the edit
    expect(project.deploys()).toBe('prod\n');
    // each model call made once, across three server processes
    const calls = project.modelCalls();
    expect(calls.map(({ step, turn }) => [step, turn])).toEqual([
      ['turn-1', 1],
      ['turn-1', 2],
      ['turn-1', 3],
    ]);
    expect(new Set(calls.map(({ pid }) => pid)).size).toBe(3);
    // what the model saw after the edit: the edited call in its own call's place, and its result
    expect(seenCalls(calls[2]!.prompt)).toEqual(editedAndAnswered);
    expect(calls[2]!.prompt).toEqual(uninterrupted.project.modelCalls()[2]!.prompt);
    // the same end, on the page, as the chat whose server was never killed
    expect(await shown(page)).toEqual(await shown(uninterrupted.page));
    expect(await page.getByText('Shipped 1.2.0.').count()).toBe(1);
    // the deploy shows the input it ran with, the edit
    expect(await shown(page)).toContainEqual(
      expect.stringMatching(
        /^deploy \{"env":"prod"\} output-available\s+"Deployed 1\.2\.0 to prod"$/,
      ),
    );

    // the trace (written by the server that ended the run) and the journal
    const traceOf = (dir: string, runId: string) =>
      JSON.parse(readFileSync(join(dir, '.june', 'runs', `${runId}.json`), 'utf8')) as Trace;
    const stepOf = (trace: Trace) => nodesOf(trace).find((node) => node.kind === 'step')!;
    const trace = traceOf(project.dir, runId);
    const step = stepOf(trace);
    expect(seenCalls(step.messages as ModelMessage[])).toMatchObject(editedAndAnswered);
    expect(step.result).toBe('Shipped 1.2.0.');
    expect(step.result).toEqual(
      stepOf(traceOf(uninterrupted.project.dir, uninterrupted.runId)).result,
    );
    expectRecords(trace, project.journal(runId), { source: 'web', answeredBy: `chat ${chatId}` });
  }, 300_000);
});
