import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { recordMismatch } from '../fixtures/studio/workflows.js';
import { screenshot, useStudioPage } from './support.js';

describe('June Studio: a journal-mismatch side by side', () => {
  let mismatch: Trace;
  const ui = useStudioPage(async (dir) => {
    mismatch = await recordMismatch(dir);
  });

  const changedRows = () =>
    ui.page
      .getByTestId('compare')
      .locator('.compare-row.compare-changed')
      .evaluateAll((rows) =>
        rows.map((row) =>
          Array.from(row.querySelectorAll('.compare-side')).map((side) => ({
            text: side.querySelector('.compare-text')?.textContent ?? '',
            marked: Array.from(side.querySelectorAll('mark')).map((mark) => mark.textContent),
          })),
        ),
      );

  it('a replay that no longer matches its recording opens the recorded and the new request side by side, the difference marked', async () => {
    expect(mismatch.root.error?.code).toBe('journal-mismatch');
    await ui.page.goto('about:blank');
    await ui.page.goto(`${ui.studio.url}#/runs/${mismatch.runId}`);
    const banner = ui.page.getByTestId('mismatch');
    expect(await banner.innerText()).toContain(
      'journal-mismatch: model call 1 of step "notes" differs from what was recorded.',
    );
    await ui.page.getByTestId('open-compare').click();
    const compare = ui.page.getByTestId('compare');
    expect(await compare.locator('h2').innerText()).toBe('model call 1 of step "notes"');
    expect(await compare.locator('.compare-head .muted').innerText()).toBe('1 line differs');
    expect(await changedRows()).toEqual([
      [
        {
          text: '          "text": "Write the release notes for version 1.2 from CHANGELOG.md",',
          marked: ['2'], // the word that differs
        },
        {
          text: '          "text": "Write the release notes for version 1.3 from CHANGELOG.md",',
          marked: ['3'],
        },
      ],
    ]);
    // Unchanged lines are folded around the change, and shown on demand.
    await screenshot(ui.page, 'compare');
    const folded = await compare.locator('.compare-row').count();
    await compare.getByText('Show unchanged lines').click();
    expect(await compare.locator('.compare-row').count()).toBeGreaterThan(folded);

    await ui.page.keyboard.press('Escape');
    expect(await compare.count()).toBe(0);
  });

  it("the run's error in the inspector opens the same view", async () => {
    await ui.page.goto('about:blank');
    await ui.page.goto(`${ui.studio.url}#/runs/${mismatch.runId}`);
    const error = ui.page.getByTestId('inspector').getByTestId('error');
    expect(await error.locator('.fact').first().innerText()).toBe('Code\njournal-mismatch');
    await error.getByRole('button', { name: 'Compare recorded and new' }).click();
    expect(await changedRows()).toHaveLength(1);
    await ui.page.getByTestId('compare').getByRole('button', { name: 'Close' }).click();
    expect(await ui.page.getByTestId('compare').count()).toBe(0);
  });
});
