import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { recordRelease } from '../fixtures/studio/workflows.js';
import { eventually, screenshot } from './support.js';
import { useDevWorkbench } from './workbench-support.js';

// Every page of Studio at a desktop (1400 px), half a laptop (700 px) and a phone (390 px):
// no page is wider than the window, and what a user reaches for (the header's live badge,
// each tool's Try button, the map's links, the run tree's Tokens column) sits inside it; the
// workflow list's long paths end in an ellipsis instead of being cut. Each page at each width
// is saved as a screenshot (studio-layout-<page>-<width>.png, in the temp folder).

const longName = `import { tool } from 'ai';
import { Agent, RequireApproval, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

export const props = z.object({ environment: z.string().default('staging') });

const make = (what: string) =>
  tool({
    description: what,
    inputSchema: z.object({ target: z.string() }),
    execute: async ({ target }) => what + ' ' + target,
  });

export default function QuarterlyReleaseCoordinator({ environment }: z.infer<typeof props>) {
  return (
    <Agent name="release-coordinator" model={openai('gpt-5-mini')}>
      <Tool name="readChangelogForTheQuarter" value={make('read')} />
      <RequireApproval>
        <Tool name="deployToTheEnvironmentGiven" value={make('deploy')} />
      </RequireApproval>
      <Tool
        name="research"
        description="Research a question"
        input={z.object({ question: z.string() })}
      >
        {({ question }) => (
          <Agent name="researcher" model={openai('gpt-5-mini')}>
            <Tool name="searchTheNotes" value={make('search')} />
            <Step id="findings" prompt={'Research: ' + question} />
          </Agent>
        )}
      </Tool>
      <Step id="release" prompt={'Release to ' + environment} />
    </Agent>
  );
}
`;

const workflowId = 'workflows/operations/quarterly-release-coordinator-for-all-regions.tsx';
const encodedId = encodeURIComponent(workflowId);
const widths = [1400, 700, 390] as const;

/** How far the page is wider than its window, in px (0 when it fits). */
const overflowOf = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The elements matching `selector` that are not wholly inside the window's width. */
const outside = (page: Page, selector: string) =>
  page.evaluate((css) => {
    const found = Array.from(document.querySelectorAll(css));
    return found
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > window.innerWidth + 0.5))
      .map(({ element, box }) => `${element.textContent} at ${box.left}-${box.right}`);
  }, selector);

/** The elements matching `selector` whose content is wider than they are (a badge cut or spilling over). */
const overflowing = (page: Page, selector: string) =>
  page.evaluate(
    (css) =>
      Array.from(document.querySelectorAll(css))
        .filter((element) => element.scrollWidth > element.clientWidth + 0.5)
        .map((element) => element.textContent),
    selector,
  );

describe('June Studio: every page at 1400, 700 and 390 px', () => {
  const wb = useDevWorkbench({ [workflowId]: longName });
  let runId = '';

  const visit = async (width: number, hash: string, ready: string, name: string) => {
    await wb.page.setViewportSize({ width, height: 800 });
    await wb.page.goto(`${wb.studio.pageUrl}${hash}`);
    await wb.page.locator(ready).first().waitFor({ timeout: 30_000 });
    await screenshot(wb.page, `layout-${name}-${width}`);
    expect(await overflowOf(wb.page), `${name} at ${width} px`).toBe(0);
    expect(await outside(wb.page, '[data-testid=live]'), `${name} at ${width} px`).toEqual([]);
  };

  it('fits the runs list and a run in the window, its Tokens column and badges shown', async () => {
    runId = (await recordRelease(join(wb.project.dir, '.june', 'runs'))).runId;
    try {
      for (const width of widths) {
        await visit(width, '#/runs', `.run-row[data-run-id="${runId}"]`, 'runs');
        expect(await outside(wb.page, '.run-row .badge, .run-row td'), `at ${width}`).toEqual([]);
        await visit(width, `#/runs/${encodeURIComponent(runId)}`, '[role=treeitem]', 'run');
        await eventually(async () =>
          expect(await outside(wb.page, '.tree-head > *, [role=treeitem] > *')).toEqual([]),
        );
        expect(await overflowing(wb.page, '[role=treeitem] .cell-status'), `at ${width}`).toEqual(
          [],
        );
        await wb.page.getByTestId('view-timeline').click();
        await wb.page.getByTestId('timeline').waitFor();
        await screenshot(wb.page, `layout-timeline-${width}`);
        expect(await overflowOf(wb.page), `timeline at ${width} px`).toBe(0);
      }
    } finally {
      await wb.page.setViewportSize({ width: 1360, height: 800 });
    }
  }, 120_000);

  it("fits a workflow's map in the window: every Try button and link inside it", async () => {
    try {
      for (const width of widths) {
        await visit(width, `#/workflows/${encodedId}`, '.map-try', 'map');
        const tries = wb.page.locator('.map-try');
        expect(await tries.count()).toBeGreaterThan(1);
        expect(await outside(wb.page, '.map-try'), `Try at ${width} px`).toEqual([]);
        expect(
          await outside(wb.page, '.map-declaration, [data-testid=open-workbench]'),
          `links at ${width} px`,
        ).toEqual([]);
        await visit(width, `#/workbench/${encodedId}`, '[data-testid=start-run]', 'workbench');
        expect(await outside(wb.page, 'button, input, select, textarea')).toEqual([]);
      }
    } finally {
      await wb.page.setViewportSize({ width: 1360, height: 800 });
    }
  }, 120_000);

  it("ends the workflow list's long paths in an ellipsis, even at 1400 px", async () => {
    await wb.page.setViewportSize({ width: 1400, height: 800 });
    try {
      await wb.page.goto(`${wb.studio.pageUrl}#/workflows/${encodedId}`);
      const path = wb.page.locator('.workflow-item .mono').first();
      await path.waitFor({ timeout: 30_000 });
      const style = await path.evaluate((element) => {
        const css = getComputedStyle(element);
        return {
          textOverflow: css.textOverflow,
          overflow: css.overflow,
          whiteSpace: css.whiteSpace,
          cut: element.scrollWidth > element.clientWidth,
        };
      });
      expect(style).toEqual({
        textOverflow: 'ellipsis',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
        cut: true,
      });
      expect(await path.getAttribute('title')).toBe(workflowId);
    } finally {
      await wb.page.setViewportSize({ width: 1360, height: 800 });
    }
  }, 60_000);
});
