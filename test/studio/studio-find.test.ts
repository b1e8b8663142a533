import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { bigTrace } from '../fixtures/studio/big-trace.js';
import {
  recordDigest,
  recordResearch,
  startRelease,
  writeTrace,
} from '../fixtures/studio/workflows.js';
import { screenshot, useStudioPage } from './support.js';

describe('June Studio: finding runs, and text within a run', () => {
  let research: Trace;
  let digest: Trace;
  let waiting: Trace;
  let old: Trace;
  const ui = useStudioPage(async (dir) => {
    research = await recordResearch(dir);
    digest = await recordDigest(dir);
    waiting = await releaseWaitingForAPerson(dir);
    old = bigTrace(60, 'january-run'); // started 2026-01-05
    await writeTrace(dir, old);
  });

  const listed = () =>
    ui.page.locator('tr.run-row').evaluateAll((rows) => rows.map((r) => r.dataset.runId).sort());
  const all = () => [research.runId, digest.runId, waiting.runId, old.runId].sort();

  it('filters the runs list by workflow, status, waiting for approval and date', async () => {
    await ui.page.goto('about:blank');
    await ui.page.goto(ui.studio.url);
    await expect.poll(listed).toEqual(all());
    expect(
      await ui.page
        .locator(`tr[data-run-id="${waiting.runId}"]`)
        .getByTestId('waiting-approval')
        .innerText(),
    ).toBe('1 waiting for approval');

    await ui.page.getByTestId('filter-workflow').selectOption('Research');
    await expect.poll(listed).toEqual([research.runId]);
    await ui.page.getByTestId('filter-workflow').selectOption('');

    await ui.page.getByTestId('filter-status').selectOption('waiting');
    await expect.poll(listed).toEqual([waiting.runId]);
    await ui.page.getByTestId('filter-status').selectOption('');

    await ui.page.getByTestId('filter-waiting').check();
    await expect.poll(listed).toEqual([waiting.runId]);
    expect(await ui.page.getByTestId('filter-count').innerText()).toBe('1 of 4 runs');
    await ui.page.getByTestId('filter-waiting').uncheck();

    await ui.page.getByTestId('filter-to').fill('2026-01-05');
    await expect.poll(listed).toEqual([old.runId]);
    await ui.page.getByTestId('filter-to').fill('');
    await ui.page.getByTestId('filter-from').fill('2026-01-06');
    await expect.poll(listed).toEqual(all().filter((id) => id !== old.runId));
    await screenshot(ui.page, 'find-runs');

    // The filters stay as they were after a visit to a run.
    await ui.page.locator(`tr[data-run-id="${research.runId}"] a`).click();
    await ui.page.locator('[role=treeitem]').first().waitFor();
    await ui.page.goBack();
    expect(await ui.page.getByTestId('filter-from').inputValue()).toBe('2026-01-06');
    await ui.page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(listed).toEqual(all());
  });

  it('searches tool names and text within a run, marks the matches in the tree, and goes from one to the next', async () => {
    await ui.page.goto('about:blank');
    await ui.page.goto(`${ui.studio.url}#/runs/${research.runId}`);
    await ui.page.locator('[role=treeitem]').first().waitFor();
    const search = ui.page.getByTestId('run-search');

    // A tool's name: its rows are marked, the name's matching part highlighted.
    const matched = () =>
      ui.page
        .locator('[role=treeitem][data-matched]')
        .evaluateAll((rows) =>
          rows.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-name')}`),
        );
    await search.fill('readfile');
    expect(await ui.page.getByTestId('match-count').innerText()).toBe('4 matches');
    // the calls, and the steps whose messages have them
    expect(await matched()).toEqual([
      'step findings',
      'tool readFile',
      'step review',
      'tool readFile',
    ]);
    expect(await ui.page.locator('[role=treeitem][data-matched] mark').first().innerText()).toBe(
      'readFile',
    );

    // Text inside a node: a tool's input, in the child run, shown even when collapsed.
    await ui.page
      .locator('[role=treeitem][data-kind=tool][data-name=research] button.toggle')
      .click();
    await search.fill('notes/suspense.md');
    expect(await ui.page.getByTestId('match-count').innerText()).toBe('2 matches'); // the call, and the step's messages
    await search.press('Enter');
    const inspector = ui.page.getByTestId('inspector');
    await expect.poll(() => inspector.getAttribute('data-name')).toBe('findings');
    await ui.page.getByTestId('next-match').click();
    await expect.poll(() => inspector.getAttribute('data-name')).toBe('readFile');
    expect(await inspector.getByTestId('input').innerText()).toContain('notes/suspense.md');
    await screenshot(ui.page, 'search');

    // Words in a prompt.
    await search.fill('review the report');
    expect(await matched()).toEqual(['step review']);
  });
});

/** Release, stopped while a person has not answered production yet: its trace as written then. */
async function releaseWaitingForAPerson(dir: string): Promise<Trace> {
  const handle = startRelease();
  let trace: Trace | undefined;
  for await (const event of handle.events) {
    if (
      event.type === 'approval-request' &&
      (event.request.input as { env?: string }).env === 'production'
    ) {
      trace = structuredClone(handle.trace());
      handle.deny(event.request.id, 'not now');
    }
  }
  await handle.result;
  await writeTrace(dir, trace!);
  return trace!;
}
