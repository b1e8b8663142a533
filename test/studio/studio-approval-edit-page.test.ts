import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { nodesOf, onlyTrace, tempProject } from '../cli/cli-harness.js';
import { deployFlow, deployScript, waitingDeployRun } from './deploy-run.js';
import { launchBrowser, newPage, openStudio } from './support.js';

// The approval card's "Edit input" shows the model's input as JSON to change, with the
// lines changed against it, and sends the edit; "Answer instead" sends a result in the
// tool's place. A real `june run --approve studio` process takes them.

describe('June Studio: editing a call and answering instead, from the page', () => {
  let browser: Browser;
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  let page: Page;
  const errors: string[] = [];
  const deploys = () =>
    existsSync(join(project.dir, 'deploys.log'))
      ? readFileSync(join(project.dir, 'deploys.log'), 'utf8')
      : '';
  const deployNode = () =>
    nodesOf(onlyTrace(project.dir)).find((node) => node.kind === 'tool' && node.name === 'deploy')!;

  beforeAll(async () => {
    project = tempProject();
    project.write('flow.tsx', deployFlow());
    project.write('flow.script.json', deployScript);
    [browser, studio] = await Promise.all([
      launchBrowser(),
      openStudio(join(project.dir, '.june', 'runs')),
    ]);
    page = await newPage(browser, errors);
  }, 120_000);
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    project?.remove();
  });

  it('edits the input, shows the change, and the run deploys with the edit', async () => {
    const run = await waitingDeployRun(project.dir, studio.url, 'studio');
    await page.goto(`${studio.pageUrl}#/runs/${encodeURIComponent(run.runId)}`);
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Edit input' }).click();
    await card.getByLabel('Edited input (JSON)').fill('{ "env": "qa" }');
    expect(await card.getByTestId('approval-diff').innerText()).toBe(
      '  {\n-   "env": "staging"\n+   "env": "qa"\n  }',
    );
    await card.getByRole('button', { name: 'Approve with this input' }).click();
    expect(await page.getByTestId('approval-outcome').innerText()).toBe(
      'Approved with the edited input.',
    );
    expect((await run.running.done).code).toBe(0);
    expect(deploys()).toBe('qa\n');
    expect(deployNode().approval).toMatchObject({ status: 'approved', input: { env: 'qa' } });
  }, 180_000);

  it('answers instead of the tool: the deploy never runs', async () => {
    const run = await waitingDeployRun(project.dir, studio.url, 'studio');
    await page.goto(`${studio.pageUrl}#/runs/${encodeURIComponent(run.runId)}`);
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Answer instead' }).click();
    await card.getByLabel('Answer instead of the tool').fill('deployed by hand');
    await card.getByRole('button', { name: 'Send as the result' }).click();
    expect(await page.getByTestId('approval-outcome').innerText()).toBe(
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
