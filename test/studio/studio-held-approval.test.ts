import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodesOf, onlyTrace, startJune } from '../cli/cli-harness.js';
import { deployFlow } from './deploy-run.js';
import { eventually, screenshot, useStudioProject, waitingCards } from './support.js';

// A live `june run --approve studio` whose one model turn deploys to staging and to prod:
// the page approves staging first. Its call is held (its step goes on once both requests are
// answered): Studio's live view shows it waiting and held, the run as waiting for one
// approval, and only prod left to answer; once prod is answered both calls run.
const flow = deployFlow('deploys.log', 'Deploy to staging and to prod');
const script = JSON.stringify({
  $comment: 'Test fixture: the model deploys to staging and to prod in one turn',
  steps: {
    release: [
      {
        text: 'Both at once.',
        toolCalls: [
          { tool: 'deploy', input: { env: 'staging' } },
          { tool: 'deploy', input: { env: 'prod' } },
        ],
      },
      { text: 'Done.' },
    ],
  },
});

describe('June Studio: a live run whose approved call waits for its turn', () => {
  const ui = useStudioProject((project) => {
    project.write('flow.tsx', flow);
    project.write('flow.script.json', script);
  });

  const card = (env: string) =>
    ui.page.getByTestId('approval-card').filter({ hasText: `"env": "${env}"` });
  const deploys = () =>
    existsSync(join(ui.project.dir, 'deploys.log'))
      ? readFileSync(join(ui.project.dir, 'deploys.log'), 'utf8')
      : '';

  it('shows the approved call held and the run waiting, then runs both once the other is answered', async () => {
    const running = startJune(
      ['run', 'flow.tsx', '--script', 'flow.script.json', '--approve', 'studio'],
      ui.project.dir,
    );
    const runId = await eventually(() => onlyTrace(ui.project.dir).runId, 60_000);
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    await card('prod').waitFor({ timeout: 60_000 });
    await card('staging').getByRole('button', { name: 'Approve' }).click();

    // the live tree: staging approved and held (waiting, not running), prod still asking
    const held = ui.page.locator('[role="treeitem"][data-kind="tool"][data-status="waiting"]', {
      has: ui.page.getByTestId('approval-held'),
    });
    await held.waitFor({ timeout: 60_000 });
    expect(await held.count()).toBe(1);
    expect(await held.innerText()).toContain('approval: approved');
    await ui.page
      .locator('[role="treeitem"][data-kind="tool"][data-status="waiting"]')
      .filter({ hasText: 'approval: pending' })
      .waitFor();
    await held.click();
    expect(await ui.page.getByTestId('output').innerText()).toContain(
      'waits for the other approval requests of its model turn',
    );
    // only prod is left to answer, and nothing ran
    expect(await waitingCards(ui.page).count()).toBe(1);
    expect(deploys()).toBe('');
    // the trace file Studio reads says the same
    await eventually(
      () =>
        expect(
          nodesOf(onlyTrace(ui.project.dir))
            .filter((node) => node.kind === 'tool')
            .map((node) => [
              (node.input as { env: string }).env,
              node.status,
              node.approval?.status,
            ]),
        ).toEqual([
          ['staging', 'waiting', 'approved'],
          ['prod', 'waiting', 'pending'],
        ]),
      30_000,
    );
    await screenshot(ui.page, 'approval-held');

    // the run list: waiting for one approval
    await ui.page.goto(ui.studio.pageUrl);
    const row = ui.page.locator(`tr[data-run-id="${runId}"]`);
    await row.and(ui.page.locator('[data-status="waiting"]')).waitFor();
    expect(await row.getByTestId('waiting-approval').innerText()).toBe('1 waiting for approval');

    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    await card('prod').getByRole('button', { name: 'Approve' }).click();
    const done = await running.done;
    expect(done.code).toBe(0);
    expect(deploys().split('\n').filter(Boolean).sort()).toEqual(['prod', 'staging']);
    await eventually(() => expect(onlyTrace(ui.project.dir).status).toBe('succeeded'), 60_000);
  }, 240_000);
});
