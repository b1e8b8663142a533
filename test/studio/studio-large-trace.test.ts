import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Trace } from 'june';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { bigTrace } from '../fixtures/studio/big-trace.js';
import { writeTrace } from '../fixtures/studio/workflows.js';
import { eventually, launchBrowser, newPage, openStudio, runsDir, screenshot } from './support.js';

const NODES = 10_000;

describe('June Studio: a 10,000-node trace', () => {
  let browser: Browser;
  let dir: string;
  let studio: Studio;
  let page: Page;
  let trace: Trace;
  const errors: string[] = [];

  beforeAll(async () => {
    [browser, dir] = await Promise.all([launchBrowser(), runsDir()]);
    trace = bigTrace(NODES);
    await writeTrace(dir, trace);
    studio = await openStudio(dir);
    page = await newPage(browser, errors);
  }, 120_000); // a browser start and a UI build, on a busy machine
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens, renders only the rows in view, and scrolls to the last node, in the tree and the timeline (timings are reported, not asserted)', async () => {
    await page.goto(`${studio.url}#/runs/${trace.runId}`);
    const tree = page.getByTestId('tree');
    await page.locator('[role=treeitem]').first().waitFor();
    const paint = await eventually(() =>
      page.evaluate(() => {
        const mark = (name: string) => performance.getEntriesByName(name)[0]?.startTime;
        const painted = mark('studio:tree-painted');
        if (painted === undefined) throw new Error('the tree has not painted yet');
        const navigation = performance.getEntriesByType(
          'navigation',
        )[0] as PerformanceNavigationTiming;
        return {
          traceLoadedMs: mark('studio:trace-loaded')!,
          treePaintedMs: painted,
          domContentLoadedMs: navigation.domContentLoadedEventEnd,
        };
      }),
    );
    expect(await tree.getAttribute('data-rows')).toBe(String(NODES));
    expect(await page.locator('.tree-count').innerText()).toBe('10,000 nodes');
    const inPage = await page.locator('[role=treeitem]').count();
    expect(inPage).toBeLessThan(100); // a virtual list: the rows in view and a few more

    // Scroll to the bottom in 50 steps, a frame each, and time the frames.
    const frames = await tree.evaluate(async (element) => {
      const times: number[] = [];
      const max = element.scrollHeight - element.clientHeight;
      let last = performance.now();
      for (let i = 1; i <= 50; i++) {
        element.scrollTop = (max * i) / 50;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times;
    });
    const lastAgent = trace.root.children.length - 1;
    const lastStep = trace.root.children[lastAgent]!.children.length - 1;
    const lastCall = trace.root.children[lastAgent]!.children[lastStep]!.children.length - 1;
    const lastKey = `r.${lastAgent}.${lastStep}.${lastCall}`;
    await page.locator(`[role=treeitem][data-key="${lastKey}"]`).waitFor();
    expect(await page.locator('[role=treeitem]').count()).toBeLessThan(100);

    // The page still answers: the last node opens in the inspector.
    const lastNode = trace.root.children[lastAgent]!.children[lastStep]!.children[lastCall]!;
    await page.locator(`[role=treeitem][data-key="${lastKey}"]`).click();
    expect(await page.getByTestId('inspector').getAttribute('data-kind')).toBe(lastNode.kind);
    expect(await page.getByTestId('inspector').locator('h2').innerText()).toBe(lastNode.name);
    await screenshot(page, 'large');

    // Collapse all and expand all go through every node once.
    const toggles = await page.evaluate(async () => {
      const click = async (label: string) => {
        const started = performance.now();
        Array.from(document.querySelectorAll('.tree-tools button'))
          .find((b) => b.textContent === label)!
          .dispatchEvent(new MouseEvent('click', { bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        return performance.now() - started;
      };
      return { collapseAllMs: await click('Collapse all'), expandAllMs: await click('Expand all') };
    });
    expect(await tree.getAttribute('data-rows')).toBe(String(NODES));

    // The timeline of the same 10,000 nodes: scroll to the bottom, then zoom in 10 times.
    const timeline = await timelineFrames(page);
    expect(await page.getByTestId('timeline').getAttribute('data-rows')).toBe(String(NODES));
    expect(await page.locator('.tl-row').count()).toBeLessThan(100);
    await page.locator(`.tl-row[data-key="${lastKey}"]`).waitFor();
    await screenshot(page, 'timeline-large');

    const sorted = [...frames].sort((a, b) => a - b);
    const report = {
      nodes: NODES,
      traceBytes: JSON.stringify(trace, null, 2).length + 1,
      rowsInPage: inPage,
      domContentLoadedMs: round(paint.domContentLoadedMs),
      traceLoadedMs: round(paint.traceLoadedMs),
      timeToFirstTreePaintMs: round(paint.treePaintedMs),
      scrollFrameMedianMs: round(sorted[Math.floor(sorted.length / 2)]!),
      scrollFrameMaxMs: round(sorted[sorted.length - 1]!),
      collapseAllMs: round(toggles.collapseAllMs),
      expandAllMs: round(toggles.expandAllMs),
      timelineOpenMs: round(timeline.openMs),
      timelineScrollFrameMedianMs: median(timeline.scroll),
      timelineScrollFrameMaxMs: round(Math.max(...timeline.scroll)),
      timelineZoomFrameMedianMs: median(timeline.zoom),
      timelineZoomFrameMaxMs: round(Math.max(...timeline.zoom)),
    };
    const file = join(tmpdir(), 'june-studio-perf.json');
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `June Studio, ${NODES.toLocaleString('en-US')}-node trace (times from navigation start, in ms; also in ${file}):\n${JSON.stringify(report, null, 2)}`,
    );
    expect(errors).toEqual([]);
  });
});

/**
 * Opens the timeline and times frames (requestAnimationFrame deltas, in ms): 50 scroll
 * steps to the bottom, then 10 zoom steps (each ×2 up to 64×, then back) with a frame each.
 */
async function timelineFrames(page: Page) {
  const started = await page.evaluate(() => performance.now());
  await page.getByTestId('view-timeline').click();
  await page.locator('.tl-row').first().waitFor();
  const openMs = (await page.evaluate(() => performance.now())) - started;
  const scroll = await page.getByTestId('timeline').evaluate(async (element) => {
    const times: number[] = [];
    const max = element.scrollHeight - element.clientHeight;
    let last = performance.now();
    for (let i = 1; i <= 50; i++) {
      element.scrollTop = (max * i) / 50;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      times.push(performance.now() - last);
      last = performance.now();
    }
    return times;
  });
  const zoom = await page.evaluate(async () => {
    const times: number[] = [];
    const button = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
    let last = performance.now();
    for (const id of [...Array(6).fill('zoom-in'), ...Array(4).fill('zoom-out')] as string[]) {
      button(id).click();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      times.push(performance.now() - last);
      last = performance.now();
    }
    return times;
  });
  return { openMs, scroll, zoom };
}

function median(values: number[]): number {
  return round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
