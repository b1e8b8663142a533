import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { bigTrace } from '../fixtures/studio/big-trace.js';
import { deepTrace, deepTraceText } from '../fixtures/studio/deep-trace.js';
import { launchBrowser, newPage, openStudio, runsDir } from './support.js';

// The page over hostile traces, in real Chromium: a 5,000-level trace and a 100,000-node one
// are drawn (nothing walks them with recursion), one too deep to show is listed as
// unreadable and its page says why, and a value too deep to print says so.

describe('June Studio: deep and huge traces in the page', () => {
  let browser: Browser;
  let dir: string;
  let studio: Studio;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [browser, dir] = await Promise.all([launchBrowser(), runsDir()]);
    await writeFile(join(dir, 'deep.json'), deepTraceText(deepTrace(5000, 'deep')));
    await writeFile(join(dir, 'deeper.json'), deepTraceText(deepTrace(12_000, 'deeper')));
    await writeFile(join(dir, 'wide.json'), JSON.stringify(bigTrace(100_000, 'wide')));
    // a tool whose output is nested 100,000 levels: too deep for JSON.stringify
    const tool = bigTrace(3, 'deep-output');
    const output = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const call = {
      id: 'n9',
      kind: 'tool',
      name: 'nest',
      status: 'succeeded',
      startedAt: tool.startedAt,
      endedAt: tool.endedAt,
      children: [],
      input: {},
      output: '__OUTPUT__',
    };
    tool.root.children[0]!.children[0]!.children.push(call as never);
    await writeFile(
      join(dir, 'deep-output.json'),
      JSON.stringify(tool).replace('"__OUTPUT__"', output),
    );
    studio = await openStudio(dir);
    page = await newPage(browser, errors);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists a trace too deep to show as unreadable, with the reason, and its page says why instead of loading forever', async () => {
    await page.goto(studio.url);
    const row = page.locator('tr[data-run-id=deeper]');
    await row.locator('.run-reason').waitFor({ timeout: 20_000 });
    expect(await row.locator('.run-reason').innerText()).toMatch(
      /^not a June trace: the tree is nested more than 10,000 levels deep/,
    );
    await page.goto(`${studio.url}#/runs/deeper`);
    await page.getByTestId('run-error').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('run-error').innerText()).toMatch(
      /^Studio cannot show this run: not a June trace: the tree is nested more than 10,000 levels deep/,
    );
    expect(await page.getByText('Loading the trace...').count()).toBe(0);
  }, 60_000);

  it('draws a 100,000-node trace, then a 5,000-level one navigated to from it; the deepest node opens in the inspector', async () => {
    await page.goto(`${studio.url}#/runs/wide`);
    await page.locator('[role=treeitem]').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('tree').getAttribute('data-rows')).toBe('100000');

    await page.evaluate(() => (location.hash = '#/runs/deep'));
    await page.locator('.tree-count', { hasText: '5,001 nodes' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('tree').getAttribute('data-rows')).toBe('5001');
    await page.getByTestId('tree').focus();
    await page.keyboard.press('End');
    const deepest = page.locator('[role=treeitem][data-kind=model]');
    await deepest.waitFor();
    expect(await deepest.getAttribute('aria-level')).toBe('5001');
    expect(await deepest.locator('.depth-hint').innerText()).toBe('level 5,000');
    await deepest.click();
    expect(await page.getByTestId('inspector').getAttribute('data-kind')).toBe('model');
    expect(errors).toEqual([]);
  }, 90_000);

  it('a value nested too deeply to print says so in the inspector, and the page goes on', async () => {
    await page.goto(`${studio.url}#/runs/deep-output`);
    const call = page.locator('[role=treeitem][data-name=nest]');
    await call.waitFor({ timeout: 30_000 });
    await call.click();
    await page.getByText('(Studio cannot show this value: it is nested too deeply)').waitFor();
    expect(errors).toEqual([]);
  }, 60_000);
});
