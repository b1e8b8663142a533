import { rm } from 'node:fs/promises';
import type { Trace } from 'june';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { recordDigest, recordResearch } from '../fixtures/studio/workflows.js';
import { launchBrowser, newPage, openStudio, runsDir, screenshot } from './support.js';

describe('June Studio: failures inside a run that succeeded', () => {
  let browser: Browser;
  let dir: string;
  let studio: Studio;
  let digest: Trace;
  let research: Trace;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [browser, dir] = await Promise.all([launchBrowser(), runsDir()]);
    digest = await recordDigest(dir);
    research = await recordResearch(dir);
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

  const rowOf = (runId: string) => page.locator(`tr.run-row[data-run-id="${runId}"]`);
  const treeRows = () =>
    page
      .locator('[role=treeitem]')
      .evaluateAll((rows) =>
        rows.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-name')}`),
      );
  const section = (name: string) => page.getByTestId('inspector').getByTestId(name);

  it('the runs list badges a run that succeeded with a failed tool and a failed child run, and filters on it', async () => {
    await page.goto('about:blank');
    await page.goto(studio.url);
    await rowOf(digest.runId).waitFor();
    expect(digest.status).toBe('succeeded');
    expect(await rowOf(digest.runId).locator('.status').innerText()).toBe('succeeded');
    expect(await rowOf(digest.runId).locator('.badge-failures').innerText()).toBe(
      '1 tool failed · 1 child run failed',
    );
    expect(await rowOf(research.runId).locator('.badge-failures').count()).toBe(0);
    await screenshot(page, 'runs-failures');

    await page.getByTestId('filter-failures').check();
    await expect
      .poll(() =>
        page.locator('tr.run-row').evaluateAll((rows) => rows.map((r) => r.dataset.runId)),
      )
      .toEqual([digest.runId]);
    expect(await page.getByTestId('filter-count').innerText()).toBe('1 of 2 runs');
    await page.getByRole('button', { name: 'Clear' }).click();
    expect(await page.locator('tr.run-row').count()).toBe(2);
  });

  it('the tree says how many failed below each node, and "Failures only" keeps just the way to them', async () => {
    await page.goto(`${studio.url}#/runs/${digest.runId}`);
    await page.locator('[role=treeitem]').first().waitFor();
    expect(await page.getByTestId('run-failures').innerText()).toBe('2 failed inside');
    const inside = (kind: string, name: string) =>
      page
        .locator(`[role=treeitem][data-kind="${kind}"][data-name="${name}"]`)
        .getByTestId('failed-inside');
    expect(await inside('run', 'Digest').innerText()).toBe('2 failed inside');
    expect(await inside('step', 'digest').innerText()).toBe('2 failed inside');
    expect(await inside('tool', 'summarize').count()).toBe(0); // its failed child run is its own failure

    await page.getByTestId('failures-only').check();
    await expect
      .poll(treeRows)
      .toEqual([
        'run Digest',
        'agent editor',
        'step digest',
        'tool fetchFeed',
        'tool summarize',
        'run summarize',
      ]);
    await page.getByTestId('failures-only').uncheck();
    expect(await page.locator('[role=treeitem]').count()).toBe(9);
  });

  it('an error shows its code, its message, and the declaration it came from', async () => {
    await page.goto(`${studio.url}#/runs/${digest.runId}`);
    await page.locator('[role=treeitem][data-name="fetchFeed"]').click();
    const facts = await section('error').locator('.fact').allInnerTexts();
    expect(facts).toEqual([
      'Name\nError',
      'Declared by\n<Tool name="fetchFeed">',
      'In\n<Agent name="editor"> › <Step id="digest">',
    ]);
    expect(await section('error').locator('pre').innerText()).toBe(
      'could not reach https://news.example/feed: connection refused',
    );

    await page.locator('[role=treeitem][data-kind=run][data-name="summarize"]').click();
    const child = await section('error').locator('.fact').allInnerTexts();
    expect(child).toEqual([
      'Code\ninherit-unknown-name',
      'Name\nWorkflowError',
      'Declared by\nthe child run of <Tool name="summarize">',
      'In\n<Agent name="editor"> › <Step id="digest">',
    ]);
    expect(await section('error').locator('pre').innerText()).toMatch(
      /^june: <Inherit capabilities=\{\["fetchFed"\]\}> at .* in <Agent name="summarizer">/,
    );
    await screenshot(page, 'failures');
  });
});
