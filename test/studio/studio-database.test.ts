import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from '../../src/dbos/index.js';
import type { Studio } from '../../src/studio/index.js';
import { ledgerProject, lines, startWorker, type WorkerProcess } from '../dbos/support.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { eventually, launchBrowser, newPage, openStudio, screenshot } from './support.js';

// `june studio --database <url>`: the runs of a real PostgreSQL (a `june worker` runs them),
// listed live in the page, and an approval answered in the page reaching the worker through
// DBOS. The ledger's publish tool logs each execution, so the log shows it ran once.
const missing = postgresMissing();

describe.runIf(!missing)('June Studio over a database of runs', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let worker: WorkerProcess;
  let studio: Studio;
  let browser: Browser;
  let page: Page;
  let client: RunClient;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    const database = pg.url('june_studio');
    project = ledgerProject();
    [worker, browser] = await Promise.all([
      startWorker(project.dir, database, 'studio-worker'),
      launchBrowser(),
    ]);
    [studio, client] = await Promise.all([
      openStudio(join(project.dir, 'no-runs-here'), { database, pollIntervalMs: 200 }),
      RunClient.connect(database),
    ]);
    page = await newPage(browser, errors);
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

  it("lists the database's runs live and answers an approval through DBOS", async () => {
    await page.goto(studio.pageUrl);
    await page.getByTestId('live').and(page.getByText('live')).waitFor();
    const runId = await client.enqueue({
      workflow: 'ledger',
      runId: 'studio-ledger-0',
      props: { dir: project.logs, n: 0, approve: true },
    });
    // the page was open before the run existed: it appears, then turns to waiting
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.and(page.locator('[data-status="waiting"]')).waitFor({ timeout: 90_000 });
    expect(await page.locator('.topbar-dir').innerText()).toMatch(/^postgres(ql)?:\/\/.*:\*{4}@/);

    await row.locator('a').click();
    const card = page.getByTestId('approval-card').filter({ hasText: 'publish' });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('approval-step').innerText()).toBe('entry');
    expect(await card.getByTestId('approval-input').innerText()).toContain('"n": 0');
    await screenshot(page, 'approvals-database');
    await card.getByRole('button', { name: 'Approve' }).click();

    await eventually(
      async () => expect((await client.get(runId)).status).toBe('succeeded'),
      90_000,
    );
    await page.getByRole('link', { name: '← Runs' }).click();
    await row.and(page.locator('[data-status="succeeded"]')).waitFor({ timeout: 30_000 });
    const publishes = lines(project.logs, 'effects.log').filter((line) =>
      line.startsWith('publish'),
    );
    expect(publishes).toHaveLength(1); // the approved tool ran once
    expect(publishes[0]).toMatch(/^publish p0 /);
  }, 240_000);
});

describe.runIf(missing)('June Studio over a database of runs', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
