// Studio's runs page and threads: a run of a thread says which, and the Thread filter lists
// a thread's runs in their order in the thread.
import { Agent, fileJournalStore, run, Step } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { writeTrace } from '../fixtures/studio/workflows.js';
import { screenshot, useStudioPage } from './support.js';

describe('June Studio: the runs of a thread', () => {
  const ids: Record<string, string[]> = { ana: [], ben: [], none: [] };
  const ui = useStudioPage(async (dir) => {
    const model = scriptedModel({
      $comment: 'Test fixture: one reply per run, test/studio/studio-threads.test.tsx',
      steps: { reply: Array.from({ length: 5 }, (_, i) => ({ text: `Reply ${i + 1}.` })) },
    });
    const journal = fileJournalStore({ dir });
    const Support = ({ message }: { message: string }) => (
      <Agent name="support" model={model}>
        <Step id="reply" prompt={message} />
      </Agent>
    );
    for (const [thread, message] of [
      ['ana', 'Hi, I am Ana.'],
      ['ben', 'Hi, I am Ben.'],
      ['ana', 'Where is my order?'],
      ['none', 'A run of no thread.'],
      ['ana', 'Thanks.'],
    ] as const) {
      const handle = run(<Support message={message} />, {
        journal,
        ...(thread !== 'none' ? { thread } : {}),
      });
      const { trace } = await handle.result;
      await writeTrace(dir, trace);
      ids[thread]!.push(handle.runId);
    }
  });

  const listed = () =>
    ui.page.locator('tr.run-row').evaluateAll((rows) => rows.map((r) => r.dataset.runId));

  it('marks each run of a thread, and the Thread filter shows a thread’s runs in order', async () => {
    await ui.page.goto(ui.studio.url);
    await expect.poll(async () => (await listed()).length).toBe(5);
    const badge = (runId: string) =>
      ui.page.locator(`tr[data-run-id="${runId}"]`).getByTestId('run-thread').innerText();
    expect(await badge(ids.ana![1]!)).toBe('thread ana #2');
    expect(await badge(ids.ben![0]!)).toBe('thread ben #1');
    await expect(
      ui.page.locator(`tr[data-run-id="${ids.none![0]}"]`).getByTestId('run-thread').count(),
    ).resolves.toBe(0);

    await ui.page.getByTestId('filter-thread').selectOption('ana');
    await expect.poll(listed).toEqual(ids.ana);
    await screenshot(ui.page, 'runs-thread-filter');
    await ui.page.getByTestId('filter-thread').selectOption('ben');
    await expect.poll(listed).toEqual(ids.ben);
    await ui.page.getByTestId('filter-thread').selectOption('');
    await expect.poll(async () => (await listed()).length).toBe(5);
  });
});
