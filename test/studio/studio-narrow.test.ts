import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { recordRelease } from '../fixtures/studio/workflows.js';
import { useStudioPage } from './support.js';

// Studio in a laptop's half screen (700 px wide): a run's tree keeps its names readable and
// the inspector is whole (stacked under the tree, not cut off at the right); and a run's row
// in the list opens the run wherever it is clicked.

describe('June Studio: narrow windows and the runs list', () => {
  let release: Trace;
  const ui = useStudioPage(async (dir) => {
    release = await recordRelease(dir);
  });

  it('at 700 px, the tree shows whole names and the inspector fits in the window', async () => {
    await ui.page.setViewportSize({ width: 700, height: 800 });
    try {
      await ui.page.goto(`${ui.studio.url}#/runs/${encodeURIComponent(release.runId)}`);
      const agent = ui.page.locator('[role=treeitem][data-kind="agent"]').first();
      await agent.click();
      const name = agent.locator('.name');
      const [shown, needed] = await name.evaluate((element) => [
        element.clientWidth,
        element.scrollWidth,
      ]);
      expect(shown).toBeGreaterThanOrEqual(needed); // not cut to a letter
      expect(shown).toBeGreaterThan(30);
      const inspector = await ui.page.getByTestId('inspector').boundingBox();
      expect(inspector!.x).toBeGreaterThanOrEqual(0);
      expect(inspector!.x + inspector!.width).toBeLessThanOrEqual(700);
      const overflow = await ui.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
    } finally {
      await ui.page.setViewportSize({ width: 1360, height: 800 });
    }
  });

  it('opens a run from a click anywhere on its row, not only on its name', async () => {
    await ui.page.goto(`${ui.studio.url}#/`);
    const row = ui.page.locator(`.run-row[data-run-id="${release.runId}"]`);
    await row.locator('td.num').first().click();
    await ui.page.waitForURL(/#\/runs\//);
    expect(decodeURIComponent(ui.page.url().replace(/^.*#\/runs\//, ''))).toBe(release.runId);
  });
});
