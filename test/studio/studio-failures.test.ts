import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { recordDigest, recordResearch } from '../fixtures/studio/workflows.js';
import { screenshot, useStudioPage } from './support.js';

describe('June Studio: failures inside a run that succeeded', () => {
  let digest: Trace;
  let research: Trace;
  const ui = useStudioPage(async (dir) => {
    digest = await recordDigest(dir);
    research = await recordResearch(dir);
  });

  const rowOf = (runId: string) => ui.page.locator(`tr.run-row[data-run-id="${runId}"]`);
  const treeRows = () =>
    ui.page
      .locator('[role=treeitem]')
      .evaluateAll((rows) =>
        rows.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-name')}`),
      );
  const section = (name: string) => ui.page.getByTestId('inspector').getByTestId(name);

  it('the runs list badges a run that succeeded with a failed tool and a failed child run, and filters on it', async () => {
    await ui.page.goto('about:blank');
    await ui.page.goto(ui.studio.url);
    await rowOf(digest.runId).waitFor();
    expect(digest.status).toBe('succeeded');
    expect(await rowOf(digest.runId).locator('.status').innerText()).toBe('succeeded');
    expect(await rowOf(digest.runId).locator('.badge-failures').innerText()).toBe(
      '1 tool failed · 1 child run failed',
    );
    expect(await rowOf(research.runId).locator('.badge-failures').count()).toBe(0);
    await screenshot(ui.page, 'runs-failures');

    await ui.page.getByTestId('filter-failures').check();
    await expect
      .poll(() =>
        ui.page.locator('tr.run-row').evaluateAll((rows) => rows.map((r) => r.dataset.runId)),
      )
      .toEqual([digest.runId]);
    expect(await ui.page.getByTestId('filter-count').innerText()).toBe('1 of 2 runs');
    await ui.page.getByRole('button', { name: 'Clear' }).click();
    expect(await ui.page.locator('tr.run-row').count()).toBe(2);
  });

  it('the tree says how many failed below each node, and "Failures only" keeps just the way to them', async () => {
    await ui.page.goto(`${ui.studio.url}#/runs/${digest.runId}`);
    await ui.page.locator('[role=treeitem]').first().waitFor();
    expect(await ui.page.getByTestId('run-failures').innerText()).toBe('2 failed inside');
    const inside = (kind: string, name: string) =>
      ui.page
        .locator(`[role=treeitem][data-kind="${kind}"][data-name="${name}"]`)
        .getByTestId('failed-inside');
    expect(await inside('run', 'Digest').innerText()).toBe('2 failed inside');
    expect(await inside('step', 'digest').innerText()).toBe('2 failed inside');
    expect(await inside('tool', 'summarize').count()).toBe(0); // its failed child run is its own failure

    await ui.page.getByTestId('failures-only').check();
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
    await ui.page.getByTestId('failures-only').uncheck();
    expect(await ui.page.locator('[role=treeitem]').count()).toBe(9);
  });

  it('an error shows its code, its message, and the declaration it came from', async () => {
    await ui.page.goto(`${ui.studio.url}#/runs/${digest.runId}`);
    await ui.page.locator('[role=treeitem][data-name="fetchFeed"]').click();
    const facts = await section('error').locator('.fact').allInnerTexts();
    expect(facts).toEqual([
      'Name\nError',
      'Declared by\n<Tool name="fetchFeed">',
      'In\n<Agent name="editor"> › <Step id="digest">',
    ]);
    expect(await section('error').locator('pre').innerText()).toBe(
      'could not reach https://news.example/feed: connection refused',
    );

    await ui.page.locator('[role=treeitem][data-kind=run][data-name="summarize"]').click();
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
    await screenshot(ui.page, 'failures');
  });
});
