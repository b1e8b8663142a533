import { rm } from 'node:fs/promises';
import type { Trace } from 'june';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { bigTrace } from '../fixtures/studio/big-trace.js';
import {
  recordDigest,
  recordResearch,
  startRelease,
  writeTrace,
} from '../fixtures/studio/workflows.js';
import { launchBrowser, newPage, openStudio, runsDir, screenshot } from './support.js';

describe('June Studio: finding runs, and text within a run', () => {
  let browser: Browser;
  let dir: string;
  let studio: Studio;
  let research: Trace;
  let digest: Trace;
  let waiting: Trace;
  let old: Trace;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [browser, dir] = await Promise.all([launchBrowser(), runsDir()]);
    research = await recordResearch(dir);
    digest = await recordDigest(dir);
    waiting = await releaseWaitingForAPerson(dir);
    old = bigTrace(60, 'january-run'); // started 2026-01-05
    await writeTrace(dir, old);
    studio = await openStudio(dir);
    page = await newPage(browser, errors);
  }, 120_000); // a browser start and a UI build, on a busy machine
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const listed = () =>
    page.locator('tr.run-row').evaluateAll((rows) => rows.map((r) => r.dataset.runId).sort());
  const all = () => [research.runId, digest.runId, waiting.runId, old.runId].sort();

  it('filters the runs list by workflow, status, waiting for approval and date', async () => {
    await page.goto('about:blank');
    await page.goto(studio.url);
    await expect.poll(listed).toEqual(all());
    expect(
      await page
        .locator(`tr[data-run-id="${waiting.runId}"]`)
        .getByTestId('waiting-approval')
        .innerText(),
    ).toBe('1 waiting for approval');

    await page.getByTestId('filter-workflow').selectOption('Research');
    await expect.poll(listed).toEqual([research.runId]);
    await page.getByTestId('filter-workflow').selectOption('');

    await page.getByTestId('filter-status').selectOption('waiting');
    await expect.poll(listed).toEqual([waiting.runId]);
    await page.getByTestId('filter-status').selectOption('');

    await page.getByTestId('filter-waiting').check();
    await expect.poll(listed).toEqual([waiting.runId]);
    expect(await page.getByTestId('filter-count').innerText()).toBe('1 of 4 runs');
    await page.getByTestId('filter-waiting').uncheck();

    await page.getByTestId('filter-to').fill('2026-01-05');
    await expect.poll(listed).toEqual([old.runId]);
    await page.getByTestId('filter-to').fill('');
    await page.getByTestId('filter-from').fill('2026-01-06');
    await expect.poll(listed).toEqual(all().filter((id) => id !== old.runId));
    await screenshot(page, 'find-runs');

    // The filters stay as they were after a visit to a run.
    await page.locator(`tr[data-run-id="${research.runId}"] a`).click();
    await page.locator('[role=treeitem]').first().waitFor();
    await page.goBack();
    expect(await page.getByTestId('filter-from').inputValue()).toBe('2026-01-06');
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(listed).toEqual(all());
  });

  it('searches tool names and text within a run, marks the matches in the tree, and goes from one to the next', async () => {
    await page.goto('about:blank');
    await page.goto(`${studio.url}#/runs/${research.runId}`);
    await page.locator('[role=treeitem]').first().waitFor();
    const search = page.getByTestId('run-search');

    // A tool's name: its rows are marked, the name's matching part highlighted.
    const matched = () =>
      page
        .locator('[role=treeitem][data-matched]')
        .evaluateAll((rows) =>
          rows.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-name')}`),
        );
    await search.fill('readfile');
    expect(await page.getByTestId('match-count').innerText()).toBe('4 matches');
    // the calls, and the steps whose messages have them
    expect(await matched()).toEqual([
      'step findings',
      'tool readFile',
      'step review',
      'tool readFile',
    ]);
    expect(await page.locator('[role=treeitem][data-matched] mark').first().innerText()).toBe(
      'readFile',
    );

    // Text inside a node: a tool's input, in the child run, shown even when collapsed.
    await page.locator('[role=treeitem][data-kind=tool][data-name=research] button.toggle').click();
    await search.fill('notes/suspense.md');
    expect(await page.getByTestId('match-count').innerText()).toBe('2 matches'); // the call, and the step's messages
    await search.press('Enter');
    const inspector = page.getByTestId('inspector');
    await expect.poll(() => inspector.getAttribute('data-name')).toBe('findings');
    await page.getByTestId('next-match').click();
    await expect.poll(() => inspector.getAttribute('data-name')).toBe('readFile');
    expect(await inspector.getByTestId('input').innerText()).toContain('notes/suspense.md');
    await screenshot(page, 'search');

    // Words in a prompt.
    await search.fill('review the report');
    expect(await matched()).toEqual(['step review']);
  });
});

/** Release, stopped while a person has not answered production yet: its trace as written then. */
async function releaseWaitingForAPerson(dir: string): Promise<Trace> {
  const handle = startRelease();
  let trace: Trace | undefined;
  for await (const event of handle.events) {
    if (
      event.type === 'approval-request' &&
      (event.request.input as { env?: string }).env === 'production'
    ) {
      trace = structuredClone(handle.trace());
      handle.deny(event.request.id, 'not now');
    }
  }
  await handle.result;
  await writeTrace(dir, trace!);
  return trace!;
}
