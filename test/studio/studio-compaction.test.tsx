// Studio marks an agent whose conversation was compacted (<Agent compact>) in the trace tree,
// and its inspector lists where each compaction happened, what it replaced and the summary.
import { Agent, run, Step, type Trace } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { writeTrace } from '../fixtures/studio/workflows.js';
import { useStudioPage } from './support.js';

async function recordLong(dir: string): Promise<Trace> {
  const ids = ['s1', 's2', 's3', 's4', 's5'];
  const model = scriptedModel({
    $comment: 'Test fixture: five steps of one agent, compacted twice',
    steps: {
      ...Object.fromEntries(ids.map((id) => [id, [{ text: `Answer ${id}.` }]])),
      'helper@compact': [{ text: 'Asked s1 and s2.' }, { text: 'Asked s1 to s3.' }],
    },
  });
  const { trace } = await run(
    <Agent name="helper" model={model} compact={{ maxMessages: 5, keep: 2 }}>
      {ids.map((id) => (
        <Step id={id} prompt={`Question ${id}?`} />
      ))}
    </Agent>,
  ).result;
  await writeTrace(dir, trace);
  return trace;
}

describe('June Studio: a compacted conversation', () => {
  let long: Trace;
  const ui = useStudioPage(async (dir) => {
    long = await recordLong(dir);
  });

  it("marks the agent's row and lists each compaction in its inspector", async () => {
    await ui.page.goto(`${ui.studio.url}#/runs/${encodeURIComponent(long.runId)}`);
    const agent = ui.page.locator('[role=treeitem][data-kind="agent"][data-name="helper"]');
    await expect.poll(() => agent.getByTestId('compacted').innerText()).toBe('compacted ×2');
    expect(await agent.getByTestId('compacted').getAttribute('title')).toMatch(
      /compacted 2 times: .*\(before s4, s5\)$/,
    );
    await agent.click();
    const section = ui.page.getByTestId('inspector').getByTestId('compactions');
    await expect.poll(() => section.locator('tbody tr').count()).toBe(2);
    const rows = await section
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)),
      );
    expect(rows).toEqual([
      ['s4', '4', '7 → 4', 'model', 'Asked s1 and s2.'],
      ['s5', '3', '6 → 4', 'model', 'Asked s1 to s3.'],
    ]);
  });
});
