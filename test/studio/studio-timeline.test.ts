import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { recordRelease, recordResearch } from '../fixtures/studio/workflows.js';
import { screenshot, useStudioPage } from './support.js';

describe('June Studio: the timeline', () => {
  let research: Trace;
  let release: Trace;
  const ui = useStudioPage(async (dir) => {
    research = await recordResearch(dir);
    release = await recordRelease(dir);
  });

  async function openTimeline(trace: Trace): Promise<void> {
    await ui.page.goto('about:blank');
    await ui.page.goto(`${ui.studio.url}#/runs/${encodeURIComponent(trace.runId)}`);
    await ui.page.getByTestId('view-timeline').click();
    await ui.page.getByTestId('timeline').locator('[role=row]').first().waitFor();
  }
  const bar = (kind: string, name: string) =>
    ui.page.locator(`.tl-row[data-kind="${kind}"][data-name="${name}"]`).getByTestId('bar');
  const box = async (kind: string, name: string) => (await bar(kind, name).first().boundingBox())!;

  it('draws a bar per node on a time axis, from its start to its end, nested runs included', async () => {
    await openTimeline(research);
    const rows = await ui.page
      .locator('.tl-row')
      .evaluateAll((all) =>
        all.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-name')}`),
      );
    expect(rows).toHaveLength(18); // the same rows as the tree
    expect(rows.slice(0, 3)).toEqual(['run Research', 'agent writer', 'step report']);

    // The run's bar spans every other; a child run starts after its call did and ends before.
    const run = await box('run', 'Research');
    const call = await box('tool', 'research');
    const child = (await bar('run', 'research').boundingBox())!;
    for (const inner of [call, child]) {
      expect(inner.x).toBeGreaterThanOrEqual(run.x - 0.5);
      expect(inner.x + inner.width).toBeLessThanOrEqual(run.x + run.width + 0.5);
    }
    expect(child.x).toBeGreaterThanOrEqual(call.x - 0.5);
    expect(child.x + child.width).toBeLessThanOrEqual(call.x + call.width + 0.5);
    // "Where the time went": model calls, tool calls and the child run, summed.
    const sums = await ui.page
      .getByTestId('time-summary')
      .locator('.tl-sum')
      .evaluateAll((all) => all.map((s) => s.getAttribute('data-kind')));
    expect(sums.sort()).toEqual(['child', 'model', 'tool']);
    await screenshot(ui.page, 'timeline');
  });

  it('zooms in and out around the selected node, and a click on a bar opens its node in the inspector', async () => {
    await openTimeline(research);
    const before = (await box('run', 'Research')).width;
    await ui.page.getByTestId('zoom-in').click();
    await ui.page.getByTestId('zoom-in').click();
    expect(await ui.page.getByTestId('zoom-level').innerText()).toBe('4.0×');
    const after = (await box('run', 'Research')).width;
    expect(after / before).toBeCloseTo(4, 0);
    await ui.page.getByTestId('zoom-out').click();
    expect(await ui.page.getByTestId('zoom-level').innerText()).toBe('2.0×');
    await ui.page.getByRole('button', { name: 'Fit' }).click();
    expect(await ui.page.getByTestId('zoom-level').innerText()).toBe('1.0×');

    await bar('tool', 'search').click();
    const inspector = ui.page.getByTestId('inspector');
    expect(await inspector.getAttribute('data-name')).toBe('search');
    expect(await inspector.getByTestId('input').innerText()).toContain('"query": "react suspense"');
    // Zooming in keeps the selected node's bar in view.
    for (let i = 0; i < 4; i++) await ui.page.getByTestId('zoom-in').click();
    const view = (await ui.page.getByTestId('timeline').boundingBox())!;
    const selected = await box('tool', 'search');
    const middle = selected.x + selected.width / 2;
    expect(middle).toBeGreaterThan(view.x);
    expect(middle).toBeLessThan(view.x + view.width);
    // The selection is the tree's: back in the tree, the same row is selected.
    await ui.page.getByTestId('view-tree').click();
    expect(
      await ui.page.locator('[role=treeitem][aria-selected=true]').getAttribute('data-name'),
    ).toBe('search');
  });

  it('marks the waits for a person apart from the tool calls a policy approved', async () => {
    await openTimeline(release);
    const kinds = await ui.page
      .locator('.tl-row[data-name=deploy] [data-testid=bar]')
      .evaluateAll((bars) => bars.map((b) => b.className));
    expect(kinds[0]).toContain('bar-tool'); // approved by the run's policy
    expect(kinds[1]).toContain('bar-approval'); // a person denied it
    expect(
      await ui.page.getByTestId('time-summary').locator('[data-kind=approval]').innerText(),
    ).toMatch(/^approval waits \d/);
  });
});
