// "Fork from here" in Chromium, under Studio over a database of runs (`june studio
// --database`), a real PostgreSQL whose runs a `june worker` runs. The recorded run
// (test/engine/fixtures/composite.tsx) calls the composite tool `ship` for staging, then
// prod; each child run's `check` needs approval and logs to effects.log, and each model call
// made is logged to models.log. Forked from its page at the staging `check` result with a new
// value: the prefix makes no model call and runs no tool, prod's approval is asked again in
// the page, and the fork's page links back to the recorded run. Forked at prod's approval,
// approved then, denied: `check prod` does not run, and the comparison shows the two answers.
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from '../../src/dbos/index.js';
import type { Studio } from '../../src/studio/index.js';
import { tempProject } from '../cli/cli-harness.js';
import { lines, startWorker, waitFor, type WorkerProcess } from '../dbos/support.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { eventually, launchBrowser, newPage, openStudio, screenshot } from './support.js';

const missing = postgresMissing();
const fixtures = new URL('../engine/fixtures/', import.meta.url);
const STAGING = 'plan#0.0/go#0.0';
const PROD = 'plan#1.0/go#0.0';
const CHECK = `tool check ${STAGING}`;

describe.runIf(!missing)('June Studio over a database of runs: fork from here', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let worker: WorkerProcess;
  let studio: Studio;
  let browser: Browser;
  let page: Page;
  let client: RunClient;
  let dir: string;
  const errors: string[] = [];

  /** Approves the request `id` of the run once it waits for it. */
  const approveWhenAsked = async (runId: string, id: string) => {
    await waitFor(
      async () => (await client.waiting(runId)).some((request) => request.id === id),
      60_000,
      `the approval ${id} of ${runId}`,
    );
    const [applied] = await client.approve(runId, { requestId: id, approved: true });
    expect(applied?.status).toBe('applied');
  };

  /** Opens the recorded run's page and selects its `nth` check call, opening the rows above. */
  const selectCheck = async (nth: number) => {
    await page.goto(`${studio.pageUrl}#/runs/recorded`);
    const row = page.locator('[role=treeitem][data-kind="tool"][data-name="check"]');
    await page.locator('[role=treeitem][data-kind="step"][data-name="plan"]').waitFor({
      timeout: 30_000,
    });
    for (let opened = 0; (await row.count()) <= nth && opened < 12; opened++) {
      const closed = page.locator('[role=treeitem][aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().locator('button.toggle').click();
    }
    await row.nth(nth).click();
  };

  beforeAll(async () => {
    pg = await startPostgres();
    const database = pg.url('june_studio_fork');
    project = tempProject();
    for (const file of readdirSync(fixtures))
      project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
    project.write('composite.tsx', "export { default } from './fixtures/composite.tsx';\n");
    dir = project.folder('logs');
    [worker, browser] = await Promise.all([
      startWorker(project.dir, database, 'studio-fork-worker', { files: ['composite.tsx'] }),
      launchBrowser(),
    ]);
    [studio, client] = await Promise.all([
      openStudio(join(project.dir, 'no-runs-here'), { database, pollIntervalMs: 200 }),
      RunClient.connect(database),
    ]);
    page = await newPage(browser, errors);
    await client.enqueue({ workflow: 'composite', runId: 'recorded', props: { dir } });
    await approveWhenAsked('recorded', STAGING);
    await approveWhenAsked('recorded', PROD);
    expect((await client.result('recorded')).output).toBe('the plan');
  }, 180_000); // PostgreSQL, a worker and a browser, on a busy machine
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('forks at a nested tool result from the inspector: the prefix makes no model call and runs no tool, the rest runs on the worker and asks in the page again', async () => {
    const models = lines(dir, 'models.log').length;
    const effects = lines(dir, 'effects.log');
    expect(effects).toEqual(['check staging', 'check prod']);

    await selectCheck(0);

    const panel = page.getByTestId('fork');
    await panel.getByTestId('fork-open').click();
    // the call was approved, then ran: the form offers both, and the result is the change here
    await panel.getByLabel('another result').check();
    expect(await panel.getByTestId('fork-record').textContent()).toBe(CHECK);
    const value = panel.getByLabel('New value');
    expect(await value.inputValue()).toBe('check staging: done');
    await value.fill('staging skipped');
    // over the database the fork's models answer as the recorded run's: no model choice
    expect(await panel.getByLabel('Script file', { exact: true }).count()).toBe(0);
    await panel.getByTestId('fork-submit').click();
    const live = panel.getByTestId('fork-live');
    await live.waitFor({ timeout: 30_000 });
    expect(await live.textContent()).toContain(
      `after ${CHECK} everything runs live; the recorded run had 5 model calls, 1 tool execution (check), 1 approval`,
    );
    await panel.getByRole('button', { name: 'Start the fork' }).click();
    await page.waitForURL((url) => !url.hash.endsWith('/runs/recorded'), { timeout: 60_000 });
    const forkId = decodeURIComponent(page.url().replace(/^.*#\/runs\//, ''));

    // prod's approval, after the fork point, is asked again in the page
    const card = page.getByTestId('approval-card').filter({ hasText: 'check' });
    await card.waitFor({ timeout: 90_000 });
    await card.getByRole('button', { name: 'Approve' }).click();
    const { output, trace } = await client.result(forkId);
    expect(output).toBe('the plan');
    expect(trace.forkedFrom).toEqual({
      runId: 'recorded',
      record: CHECK,
      change: { kind: 'result', result: 'staging skipped' },
    });
    // no model call of the prefix (plan's first, staging go's first) again; the rest made
    expect(lines(dir, 'models.log').slice(models)).toEqual([
      'ship:go|2',
      'plan|2',
      'ship:go|1',
      'ship:go|2',
      'plan|3',
    ]);
    // the staging check did not run again; prod's, after the fork point, did
    expect(lines(dir, 'effects.log')).toEqual([...effects, 'check prod']);

    const lineage = page.getByTestId('fork-lineage');
    await lineage.waitFor({ timeout: 30_000 });
    expect(await lineage.textContent()).toContain(`Forked from recorded at ${CHECK}`);
    expect(await lineage.getByTestId('fork-parent').getAttribute('href')).toBe('#/runs/recorded');
    await screenshot(page, 'fork-database');
  }, 240_000);

  it('forks at an approval, approved then, denied in the fork: nothing after it is asked, the call does not run', async () => {
    const models = lines(dir, 'models.log').length;
    const effects = lines(dir, 'effects.log');
    await selectCheck(1);
    const panel = page.getByTestId('fork');
    await panel.getByTestId('fork-open').click();
    await panel.getByLabel('another answer to the approval').check();
    expect(await panel.getByTestId('fork-record').textContent()).toBe(`approval check ${PROD}`);
    expect(await panel.getByLabel('deny').isChecked()).toBe(true);
    await panel.getByLabel('Reason').fill('not today');
    await panel.getByTestId('fork-submit').click();
    await panel.getByTestId('fork-live').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('fork-live').textContent()).toContain(
      `after approval check ${PROD} everything runs live`,
    );
    await panel.getByRole('button', { name: 'Start the fork' }).click();
    await page.waitForURL((url) => !url.hash.endsWith('/runs/recorded'), { timeout: 60_000 });
    const forkId = decodeURIComponent(page.url().replace(/^.*#\/runs\//, ''));
    const { output, trace } = await client.result(forkId);
    expect(output).toBe('the plan');
    expect(trace.forkedFrom).toEqual({
      runId: 'recorded',
      record: `approval check ${PROD}`,
      change: { kind: 'answer', approved: false, reason: 'not today' },
    });
    // only the model calls after the denial are made; `check prod` does not run
    expect(lines(dir, 'models.log').slice(models)).toEqual(['ship:go|2', 'plan|3']);
    expect(lines(dir, 'effects.log')).toEqual(effects);
    expect((await client.approvals(forkId)).decisions).toEqual({
      [STAGING]: true,
      [PROD]: false,
    });
    const lineage = page.getByTestId('fork-lineage');
    await lineage.getByTestId('fork-compare-open').click();
    const changed = page.getByTestId('fork-changed');
    await changed.waitFor({ timeout: 30_000 });
    // the page may show the fork's trace from before its denial came: it catches up as it follows
    await eventually(
      async () =>
        expect(await changed.locator('td').allTextContents()).toEqual([
          'approved',
          'denied: not today',
        ]),
      30_000,
    );
  }, 240_000);
});
