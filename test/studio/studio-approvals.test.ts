import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodesOf, onlyTrace, startJune } from '../cli/cli-harness.js';
import { deployFlow } from './deploy-run.js';
import { eventually, screenshot, useStudioProject, waitingCards } from './support.js';

// Approvals answered in June Studio's page, for a real `june run` process: live
// (`--approve studio`) and stopped (`--approve wait`, then Ctrl-C). The deploy tool appends
// its environment to deploys.log, so the file shows how often it ran.
const flow = deployFlow('deploys.log', 'Deploy to staging, then to prod');
const script = JSON.stringify({
  $comment: 'Test fixture: the model deploys to staging, then to prod, then answers',
  steps: {
    release: [
      { text: 'Staging first.', toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
      { text: 'Now prod.', toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Done.' },
    ],
  },
});

describe('June Studio: approvals from the browser', () => {
  const ui = useStudioProject((project) => {
    project.write('flow.tsx', flow);
    project.write('flow.script.json', script);
  });

  const runsFolder = () => join(ui.project.dir, '.june', 'runs');
  const card = (env: string) =>
    ui.page.getByTestId('approval-card').filter({ hasText: `"env": "${env}"` });
  const deploys = () =>
    existsSync(join(ui.project.dir, 'deploys.log'))
      ? readFileSync(join(ui.project.dir, 'deploys.log'), 'utf8')
      : '';
  /** The run's id, once `june run` wrote its trace. */
  const runIdOf = () =>
    eventually(() => {
      const trace = onlyTrace(ui.project.dir);
      return trace.runId;
    }, 60_000);
  /** The last model request of the run's journal, as text. */
  const lastModelRequest = (runId: string) =>
    readFileSync(join(runsFolder(), runId, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; request?: unknown })
      .filter((record) => record.type === 'model-call')
      .map((record) => JSON.stringify(record.request))
      .at(-1);

  it('approves a live run and denies its next call with a reason, from the run view', async () => {
    const running = startJune(
      ['run', 'flow.tsx', '--script', 'flow.script.json', '--approve', 'studio'],
      ui.project.dir,
    );
    const runId = await runIdOf();
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    await card('staging').waitFor({ timeout: 60_000 });
    expect(await ui.page.getByTestId('approvals-state').innerText()).toBe(
      'The run is waiting for your answer.',
    );
    expect(await card('staging').getByTestId('approval-step').innerText()).toBe('release');
    expect(await card('staging').getByTestId('approval-provenance').innerText()).toBe(
      'from <Tool name="deploy">',
    );
    await screenshot(ui.page, 'approvals');
    await card('staging').getByRole('button', { name: 'Approve' }).click();

    await card('prod').waitFor({ timeout: 60_000 });
    expect(deploys()).toBe('staging\n');
    await card('prod').getByLabel('Reason for the model').fill('not on a Friday');
    await card('prod').getByRole('button', { name: 'Deny' }).click();

    const done = await running.done;
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(deploys()).toBe('staging\n'); // ran once; the denied call never ran
    expect(lastModelRequest(runId)).toContain('not on a Friday');
    const tools = nodesOf(onlyTrace(ui.project.dir)).filter((node) => node.kind === 'tool');
    expect(
      tools.map((node) => [node.status, node.approval?.status, node.approval?.reason]),
    ).toEqual([
      ['succeeded', 'approved', undefined],
      ['denied', 'denied', 'not on a Friday'],
    ]);
    await waitingCards(ui.page).first().waitFor({ state: 'detached' });
  }, 180_000);

  it('records the answers to a run stopped while it waited (--approve wait) and resumes it to the end', async () => {
    await rm(join(ui.project.dir, '.june'), { recursive: true, force: true });
    await rm(join(ui.project.dir, 'deploys.log'), { force: true });
    const waiting = startJune(
      ['run', 'flow.tsx', '--script', 'flow.script.json', '--approve', 'wait'],
      ui.project.dir,
    );
    await eventually(() => {
      const tool = nodesOf(onlyTrace(ui.project.dir)).find((node) => node.kind === 'tool');
      expect(tool?.approval?.status).toBe('pending');
    }, 60_000);
    process.kill(waiting.pid, 'SIGINT');
    expect((await waiting.done).code).toBe(130);
    const runId = onlyTrace(ui.project.dir).runId;
    expect(onlyTrace(ui.project.dir).status).toBe('aborted');

    await ui.page.goto('about:blank');
    await ui.page.goto(ui.studio.pageUrl);
    const row = ui.page.locator(`tr[data-run-id="${runId}"]`);
    // listed as its page shows it, aborted, with the calls an answer may still resume it by
    await row.and(ui.page.locator('[data-status="aborted"]')).waitFor();
    expect(await row.getByTestId('waiting-approval').innerText()).toBe('1 waiting for approval');
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    await card('staging').waitFor();
    expect(await ui.page.getByTestId('approvals-state').innerText()).toBe(
      "The run's process stopped: Studio records your answer and resumes the run.",
    );
    await screenshot(ui.page, 'approvals-stopped');
    await card('staging').getByRole('button', { name: 'Approve' }).click();
    // the resumed run goes on with Studio answering: its next call waits live
    await card('prod').waitFor({ timeout: 60_000 });
    expect(await ui.page.getByTestId('approvals-state').innerText()).toBe(
      'The run is waiting for your answer.',
    );
    await card('prod').getByRole('button', { name: 'Approve' }).click();
    await eventually(() => expect(onlyTrace(ui.project.dir).status).toBe('succeeded'), 60_000);
    expect(deploys()).toBe('staging\nprod\n'); // each ran once
    const tools = nodesOf(onlyTrace(ui.project.dir)).filter((node) => node.kind === 'tool');
    expect(tools.map((node) => [node.status, node.approval?.status])).toEqual([
      ['succeeded', 'approved'],
      ['succeeded', 'approved'],
    ]);
  }, 180_000);
});
