import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { onlyTrace, repoRoot, startJune } from '../cli/cli-harness.js';
import type { Trace, TraceNode } from 'june';
import { eventually, useStudioProject } from './support.js';

// A <Budget>'s request to allow more, answered in June Studio's page for a live `june run
// --approve studio`: its card says which budget, what was spent and the cap.
describe('June Studio: a budget spent', () => {
  const ui = useStudioProject((project) => {
    for (const name of ['budgets.tsx', 'budgets.script.json'])
      project.write(name, readFileSync(`${repoRoot}/examples/${name}`, 'utf8'));
  });

  it("shows the budget's spending and cap on the request's card, and the run goes on once approved", async () => {
    const running = startJune(
      ['run', 'budgets.tsx', '--script', 'budgets.script.json', '--approve', 'studio'],
      ui.project.dir,
    );
    const runId = await eventually(() => onlyTrace(ui.project.dir).runId, 60_000);
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    const card = ui.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByTestId('approval-step').innerText()).toBe('researcher:answer');
    expect(await card.getByTestId('approval-budget').innerText()).toBe(
      'the budget research spent 1,550 tokens of 1,500 tokens; approving allows 1,500 tokens more',
    );
    await card.getByRole('button', { name: 'Approve' }).click();
    const done = await running.done;
    expect(done.code).toBe(0);
    const all = (node: TraceNode): TraceNode[] => {
      const child = (node.output as { trace?: Trace } | undefined)?.trace?.root;
      return [node, ...[...node.children, ...(child ? [child] : [])].flatMap(all)];
    };
    const request = all(onlyTrace(ui.project.dir).root).find((node) => node.name === 'june-budget');
    expect(request?.approval).toMatchObject({
      status: 'approved',
      source: 'studio',
      budget: { name: 'research', cap: { tokens: 1500 } },
    });
  });
});
