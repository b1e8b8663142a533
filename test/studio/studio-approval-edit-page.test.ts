import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodesOf, onlyTrace } from '../cli/cli-harness.js';
import { deployFlow, deployScript, waitingDeployRun } from './deploy-run.js';
import { useStudioProject } from './support.js';

// The approval card's "Edit input" shows the model's input as JSON to change, with the
// lines changed against it, and sends the edit; "Answer instead" sends a result in the
// tool's place. A real `june run --approve studio` process takes them.

describe('June Studio: editing a call and answering instead, from the page', () => {
  const ui = useStudioProject((project) => {
    project.write('flow.tsx', deployFlow());
    project.write('flow.script.json', deployScript);
  });
  const deploys = () =>
    existsSync(join(ui.project.dir, 'deploys.log'))
      ? readFileSync(join(ui.project.dir, 'deploys.log'), 'utf8')
      : '';
  const deployNode = () =>
    nodesOf(onlyTrace(ui.project.dir)).find(
      (node) => node.kind === 'tool' && node.name === 'deploy',
    )!;

  it('edits the input, shows the change, and the run deploys with the edit', async () => {
    const run = await waitingDeployRun(ui.project.dir, ui.studio.url, 'studio');
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(run.runId)}`);
    const card = ui.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Edit input' }).click();
    await card.getByLabel('Edited input (JSON)').fill('{ "env": "qa" }');
    expect(await card.getByTestId('approval-diff').innerText()).toBe(
      '  {\n-   "env": "staging"\n+   "env": "qa"\n  }',
    );
    await card.getByRole('button', { name: 'Approve with this input' }).click();
    expect(await ui.page.getByTestId('approval-outcome').innerText()).toBe(
      'Approved with the edited input.',
    );
    expect((await run.running.done).code).toBe(0);
    expect(deploys()).toBe('qa\n');
    expect(deployNode().approval).toMatchObject({ status: 'approved', input: { env: 'qa' } });
  }, 180_000);

  it('answers instead of the tool: the deploy never runs', async () => {
    const run = await waitingDeployRun(ui.project.dir, ui.studio.url, 'studio');
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(run.runId)}`);
    const card = ui.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Answer instead' }).click();
    await card.getByLabel('Answer instead of the tool').fill('deployed by hand');
    await card.getByRole('button', { name: 'Send as the result' }).click();
    expect(await ui.page.getByTestId('approval-outcome').innerText()).toBe(
      'Answered instead of the tool.',
    );
    expect((await run.running.done).code).toBe(0);
    expect(deploys()).toBe('');
    expect(deployNode().approval).toMatchObject({
      status: 'responded',
      output: 'deployed by hand',
    });
  }, 180_000);
});
