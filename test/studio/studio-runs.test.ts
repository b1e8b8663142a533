import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trace } from 'june';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import {
  recordRelease,
  recordResearch,
  startRelease,
  writeTrace,
} from '../fixtures/studio/workflows.js';
import { eventually, launchBrowser, newPage, openStudio, runsDir, screenshot } from './support.js';

describe('June Studio: the runs list', () => {
  let browser: Browser;
  let dir: string;
  let studio: Studio;
  let release: Trace;
  let research: Trace;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [browser, dir] = await Promise.all([launchBrowser(), runsDir()]);
    release = await recordRelease(dir);
    research = await recordResearch(dir);
    const text = JSON.stringify(release);
    await writeFile(join(dir, 'crashed-run.json'), text.slice(0, 400)); // a run that died mid-write
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
  const cells = async (runId: string) =>
    (await rowOf(runId).locator('td').allInnerTexts()).map((text) => text.trim());

  it('lists the runs newest first: workflow, run id, start, duration, status, tokens, cost', async () => {
    await page.goto('about:blank');
    await page.goto(studio.url);
    await rowOf('crashed-run').waitFor();
    const readable = await page
      .locator('tr.run-row:not(.run-unreadable)')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-run-id')));
    expect(readable).toEqual([research.runId, release.runId]);
    const [workflow, runId, started, duration, status, tokens, cost] = await cells(research.runId);
    expect(workflow).toBe('Research');
    expect(runId).toBe(research.runId);
    expect(started).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(duration).toMatch(/^\d+ ms$|^\d+\.\d+ s$/);
    expect(status).toBe('succeeded');
    expect(tokens).toBe(research.root.usage!.totalTokens!.toLocaleString('en-US'));
    expect(cost).toBe('$0.0045'); // its model is priced by the run's prices option
    // Release's scripted model has no price: no cost rather than $0, and the title says why
    const unpriced = rowOf(release.runId).getByTestId('run-cost');
    expect(await unpriced.innerText()).toBe('');
    expect(await unpriced.getAttribute('title')).toMatch(/^cost unknown for \d+ calls$/);
    await screenshot(page, 'runs');
  });

  it('shows a corrupt trace file as unreadable with the reason, while the other runs still open', async () => {
    await page.goto('about:blank');
    await page.goto(studio.url);
    const crashed = rowOf('crashed-run');
    await crashed.waitFor();
    expect(await crashed.locator('.status').innerText()).toBe('unreadable');
    expect(await crashed.locator('.run-reason').innerText()).toMatch(
      /^not valid JSON \(.+\); a file cut short or still being written reads like this$/,
    );

    await crashed.locator('a').click();
    expect(await page.getByTestId('run-error').innerText()).toMatch(
      /^Studio cannot show this run: not valid JSON/,
    );

    await page.locator('a.back').click();
    await rowOf(release.runId).locator('a').click();
    await page.locator('[role=treeitem][data-kind=tool][data-name=deploy]').first().waitFor();
    expect(await page.locator('.run-title').innerText()).toBe('Release');
  });

  it('shows a new run as it starts, and follows it to the end without a reload', async () => {
    await page.goto('about:blank');
    await page.goto(studio.url);
    await rowOf(research.runId).waitFor();
    await page.evaluate(
      () => ((window as unknown as { sameDocument: boolean }).sameDocument = true),
    );

    // A real run, written the way `june run` writes it: while it waits for a person, then at the end.
    const handle = startRelease();
    let requestId: string | undefined;
    for await (const event of handle.events) {
      if (
        event.type === 'approval-request' &&
        (event.request.input as { env: string }).env === 'production'
      ) {
        requestId = event.request.id;
        break;
      }
    }
    await writeTrace(dir, handle.trace());
    const live = rowOf(handle.runId);
    await live.waitFor();
    expect(await live.getAttribute('data-status')).toBe('waiting'); // for a person's approval
    expect(await page.locator('tr.run-row').first().getAttribute('data-run-id')).toBe(handle.runId); // newest first

    await live.locator('a').click();
    const waiting = page.locator(
      '[role=treeitem][data-kind=tool][data-name=deploy][data-status=waiting]',
    );
    await waiting.waitFor();
    await waiting.click();
    await eventually(async () =>
      expect(await page.getByTestId('approval').innerText()).toContain('waiting for an answer'),
    );
    await screenshot(page, 'live');

    handle.deny(requestId!, 'not on a Friday');
    const { trace } = await handle.result;
    await writeTrace(dir, trace);
    await page.locator('.run-header .status-succeeded').waitFor();
    const denied = page.locator(
      '[role=treeitem][data-kind=tool][data-name=deploy][data-status=denied]',
    );
    await denied.waitFor();
    expect(await denied.getAttribute('aria-selected')).toBe('true'); // the selection survived the update
    await eventually(async () =>
      expect(await page.getByTestId('approval').innerText()).toContain('not on a Friday'),
    );

    await page.locator('a.back').click();
    await eventually(async () =>
      expect(await rowOf(handle.runId).getAttribute('data-status')).toBe('succeeded'),
    );
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);
  });
});
