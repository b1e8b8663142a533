import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodesOf, onlyTrace, repoRoot, startJune } from '../cli/cli-harness.js';
import { eventually, useStudioProject } from './support.js';

// A call a <Guard> escalated, answered in June Studio's page for a live `june run
// --approve studio`: its card says which guard escalated it and why.
describe('June Studio: a guard escalation', () => {
  const ui = useStudioProject((project) => {
    for (const name of ['guards.tsx', 'guards.script.json'])
      project.write(name, readFileSync(`${repoRoot}/examples/${name}`, 'utf8'));
  });

  it("shows the guard and its reason on the call's card, and the call runs once approved", async () => {
    const running = startJune(
      ['run', 'guards.tsx', '--script', 'guards.script.json', '--approve', 'studio'],
      ui.project.dir,
    );
    const runId = await eventually(() => onlyTrace(ui.project.dir).runId, 60_000);
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    const card = ui.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByTestId('approval-guard').innerText()).toBe(
      'escalated by release-policy: a deploy to prod needs a person',
    );
    await card.getByRole('button', { name: 'Approve' }).click();
    const done = await running.done;
    expect(done.code).toBe(0);
    const deploys = nodesOf(onlyTrace(ui.project.dir)).filter((node) => node.name === 'deploy');
    expect(deploys.map((node) => [node.output, node.approval?.status])).toEqual([
      [
        'june: the guard "release-policy" rejected this call: a forced deploy skips the checks; deploy without force',
        undefined,
      ],
      ['Deployed to prod', 'approved'],
    ]);
    expect(deploys[1]!.approval).toMatchObject({
      source: 'studio',
      guard: { name: 'release-policy', reason: 'a deploy to prod needs a person' },
    });

    // the run view: each call's inspector lists what the guards decided about it
    await ui.page.reload();
    const calls = ui.page.locator('[role=treeitem][data-kind=tool][data-name=deploy]');
    await calls.first().waitFor({ timeout: 60_000 });
    await calls.first().click();
    await eventually(async () =>
      expect(await ui.page.getByTestId('guards').innerText()).toContain(
        'release-policy reject (tool-input): a forced deploy skips the checks; deploy without force',
      ),
    );
    await calls.nth(1).click();
    await eventually(async () =>
      expect(await ui.page.getByTestId('guards').innerText()).toContain(
        'release-policy escalate (tool-input): a deploy to prod needs a person',
      ),
    );
    expect(await ui.page.getByTestId('approval').innerText()).toContain(
      'release-policy: a deploy to prod needs a person',
    );
  });
});
