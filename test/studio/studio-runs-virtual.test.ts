import { rm } from 'node:fs/promises';
import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { recordRelease, writeTrace } from '../fixtures/studio/workflows.js';
import { eventually, launchBrowser, newPage, openStudio, runsDir } from './support.js';

// A runs folder of 1,500 runs: the list puts only the rows in view (and a few around) in the
// page, keeps the table as tall as all of them, and scrolling to the end shows the oldest run.

const RUNS = 1500;

describe('June Studio: a long runs list', () => {
  it('renders only the rows in view, and scrolls to the last run', async () => {
    const dir = await runsDir();
    const release = await recordRelease(dir);
    await rm(`${dir}/${release.runId}.json`);
    const start = Date.parse(release.startedAt);
    const ids: string[] = [];
    for (let index = 0; index < RUNS; index++) {
      const runId = `run-${String(index).padStart(4, '0')}`;
      ids.push(runId);
      const startedAt = new Date(start - index * 60_000).toISOString();
      const trace: Trace = { ...release, runId, startedAt, endedAt: startedAt };
      await writeTrace(dir, trace);
    }
    const [browser, studio] = await Promise.all([launchBrowser(), openStudio(dir)]);
    const errors: string[] = [];
    try {
      const page = await newPage(browser, errors);
      await page.goto(studio.pageUrl);
      await page.locator(`tr.run-row[data-run-id="${ids[0]}"]`).waitFor({ timeout: 30_000 });
      const rendered = await page.locator('tr.run-row').count();
      expect(rendered).toBeGreaterThan(10);
      expect(rendered).toBeLessThan(100);
      const scroller = page.locator('main.runs');
      const height = await scroller.evaluate((element) => element.scrollHeight);
      expect(height).toBeGreaterThan(RUNS * 30);

      await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      await eventually(
        async () =>
          expect(await page.locator(`tr.run-row[data-run-id="${ids.at(-1)}"]`).isVisible()).toBe(
            true,
          ),
        10_000,
      );
      expect(await page.locator('tr.run-row').count()).toBeLessThan(100);
      expect(await page.locator(`tr.run-row[data-run-id="${ids[0]}"]`).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await studio.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
