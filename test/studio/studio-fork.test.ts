import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { june, nodesOf, traces } from '../cli/cli-harness.js';
import type { Trace } from '../../src/trace/trace-node.js';
import { eventually, openStudio, screenshot } from './support.js';
import { pageHeaders, rawPost, useDevWorkbench } from './workbench-support.js';

// "Fork from here" in Chromium, on `june dev`'s catalog over a project: a run recorded with a
// script (a composite tool whose own tool writes a line to fetch.log, then a deploy that needs
// approval and writes to deploys.log) is forked from its run page at the tool result inside
// the composite, with a new value; the fork's page shows its lineage and a comparison with the
// recorded run. Then the recorded approval is forked to a denial. The route's refusals are
// checked over HTTP.

const release = `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const fetchPage = tool({
  description: 'Fetch a page',
  inputSchema: z.object({ url: z.string() }),
  execute: async ({ url }) => {
    appendFileSync('fetch.log', url + '\\n');
    return 'page of ' + url;
  },
});
const deploy = tool({
  description: 'Deploy the release',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync('deploys.log', env + '\\n');
    return 'deployed to ' + env;
  },
});
const model = openai('gpt-5-mini');

export default function Release() {
  return (
    <Agent model={model}>
      <Tool name="deploy" value={deploy} />
      <Tool name="research" description="Research a topic" input={z.object({ topic: z.string() })}>
        {({ topic }) => (
          <Agent model={model}>
            <Tool name="fetch" value={fetchPage} />
            <Step id="dig" prompt={'Dig into ' + topic} />
          </Agent>
        )}
      </Tool>
      <Step id="release" prompt="Release 1.2" />
    </Agent>
  );
}
`;

const script = JSON.stringify({
  $comment: 'Test fixture: test/studio/studio-fork.test.ts',
  steps: {
    release: [
      { toolCalls: [{ tool: 'research', input: { topic: 'prices' } }] },
      { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Released 1.2.' },
    ],
    'research:dig': [
      { toolCalls: [{ tool: 'fetch', input: { url: 'https://x.test' } }] },
      { text: 'Found the prices.' },
    ],
  },
});

// a tool with an output schema: the fork form's fields come from it
const issues = `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const count = tool({
  description: 'Count the open issues',
  inputSchema: z.object({ milestone: z.string() }),
  outputSchema: z.object({ open: z.number().int(), state: z.enum(['green', 'red']) }),
  execute: async () => ({ open: 0, state: 'green' as const }),
});

export default function Issues() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="count" value={count} />
      <Step id="check" prompt="Check 1.2" />
    </Agent>
  );
}
`;

const issuesScript = JSON.stringify({
  $comment: 'Test fixture: test/studio/studio-fork.test.ts',
  steps: {
    check: [
      { toolCalls: [{ tool: 'count', input: { milestone: '1.2' } }] },
      { text: 'Checked 1.2.' },
    ],
  },
});

const FETCH = 'tool fetch release#0.0/dig#0.0';
const DIG_ANSWER = 'model release#0.0/research:dig #1';
const COUNT = 'tool count check#0.0';
const APPROVAL = 'approval deploy release#1.0';

/** Every node of a trace and of its child runs. */
function allNodes(trace: Trace): Trace['root'][] {
  return nodesOf(trace).flatMap((node) => {
    const child = (node.output as { trace?: Trace } | undefined)?.trace;
    return [node, ...(node.kind === 'tool' && child ? allNodes(child) : [])];
  });
}

describe('June Studio: fork from here', () => {
  const wb = useDevWorkbench({
    'release.tsx': release,
    'release.script.json': script,
    'issues.tsx': issues,
    'issues.script.json': issuesScript,
  });
  const lines = (name: string) => {
    const file = join(wb.project.dir, name);
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  };
  const traceOf = (runId: string) => traces(wb.project.dir).get(`${runId}.json`);
  const row = (kind: string, name: string) =>
    wb.page.locator(`[role=treeitem][data-kind="${kind}"][data-name="${name}"]`);
  let recorded = '';

  /** Records the run the tests fork, approving its deploy. */
  const record = async () => {
    if (recorded) return recorded;
    const ran = await june(
      ['run', 'release.tsx', '--script', 'release.script.json', '--approve', 'all', '--json'],
      wb.project.dir,
    );
    expect(ran.code).toBe(0);
    recorded = (JSON.parse(ran.stdout.split('\n')[0]!) as { runId: string }).runId;
    expect(lines('fetch.log')).toEqual(['https://x.test']);
    expect(lines('deploys.log')).toEqual(['prod']);
    return recorded;
  };

  /** Opens a run's page and selects the node named `name` of `kind`, opening the rows above it. */
  const select = async (runId: string, kind: string, name: string) => {
    await wb.page.goto(`${wb.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    await row('step', 'release').waitFor({ timeout: 30_000 });
    for (let opened = 0; (await row(kind, name).count()) === 0 && opened < 8; opened++) {
      const closed = wb.page.locator('[role=treeitem][aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().locator('button.toggle').click();
    }
    await row(kind, name).first().click();
  };

  it('forks at a tool result inside a composite tool with a new value: the prefix is not run again, the fork shows its lineage and how it differs', async () => {
    const parent = await record();
    const original = traceOf(parent)!;
    expect(allNodes(original).find((node) => node.name === 'fetch')?.record).toBe(FETCH);

    await select(parent, 'tool', 'fetch');
    const panel = wb.page.getByTestId('fork');
    await panel.getByTestId('fork-open').click();
    expect(await panel.getByTestId('fork-record').textContent()).toBe(FETCH);
    // the recorded result is a text: the form edits it as text
    const value = panel.getByLabel('New value');
    expect(await value.inputValue()).toBe('page of https://x.test');
    await value.fill('page says: sold out');
    await panel.getByLabel('Script file', { exact: true }).fill('release.script.json');
    await panel.getByTestId('fork-submit').click();
    // before anything starts: what runs live after the fork point
    const live = panel.getByTestId('fork-live');
    await live.waitFor({ timeout: 30_000 });
    expect(await live.textContent()).toContain(
      `after ${FETCH} everything runs live; the recorded run had 3 model calls, 2 tool executions (research, deploy), 1 approval (asked again)`,
    );
    expect(lines('fetch.log')).toHaveLength(1);
    await screenshot(wb.page, 'fork-form');
    await panel.getByRole('button', { name: 'Start the fork' }).click();

    await wb.page.waitForURL((url) => !url.hash.includes(encodeURIComponent(parent)), {
      timeout: 60_000,
    });
    const forkId = decodeURIComponent(wb.page.url().replace(/^.*#\/runs\//, ''));
    // the deploy after the fork point asks again, in Studio
    const card = wb.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => expect(traceOf(forkId)?.status).toBe('succeeded'), 60_000);

    // counters: the prefix's tool never ran again; the deploy after the fork point did
    expect(lines('fetch.log')).toEqual(['https://x.test']);
    expect(lines('deploys.log')).toEqual(['prod', 'prod']);
    const fork = traceOf(forkId)!;
    const nodes = allNodes(fork);
    expect(nodes.find((node) => node.name === 'fetch')?.output).toBe('page says: sold out');
    const models = nodes.filter((node) => node.kind === 'model');
    // the prefix's two model calls were answered from the journal, not made
    expect(models.filter((node) => node.replayed).map((node) => node.record)).toEqual([
      'model release #0',
      'model release#0.0/research:dig #0',
    ]);
    expect(models.filter((node) => !node.replayed)).toHaveLength(3);
    expect(fork.forkedFrom).toMatchObject({ runId: parent, record: FETCH });

    // lineage, a link to the recorded run
    const lineage = wb.page.getByTestId('fork-lineage');
    await lineage.waitFor();
    expect(await lineage.textContent()).toContain(`Forked from ${parent} at ${FETCH}`);
    expect(await lineage.getByTestId('fork-parent').getAttribute('href')).toBe(
      `#/runs/${encodeURIComponent(parent)}`,
    );
    // the comparison: the shared prefix folded and counted, then the difference side by side
    await lineage.getByTestId('fork-compare-open').click();
    const compare = wb.page.getByTestId('fork-compare');
    await compare.waitFor();
    const shared = compare.getByTestId('fork-shared');
    expect(await shared.textContent()).toContain('2 shared records before the fork point');
    expect(await shared.locator('li').count()).toBe(0);
    await shared.getByRole('button').click();
    expect(await shared.locator('li').allTextContents()).toEqual([
      'model release #0',
      'model release#0.0/research:dig #0',
    ]);
    const changed = compare.getByTestId('fork-changed');
    expect(await changed.locator('td').allTextContents()).toEqual([
      'page of https://x.test',
      'page says: sold out',
    ]);
    const after = await compare.getByTestId('fork-after-fork').textContent();
    expect(after).toContain('tool deploy release#1.0: deployed to prod');
    expect(after).toContain('model release#0.0/research:dig #1');
    expect(await compare.getByTestId('fork-after-parent').textContent()).toContain(
      'approval deploy release#1.0: approved',
    );
    await screenshot(wb.page, 'fork-compare');
  }, 240_000);

  it('forks at an approval, approved then, denied in the fork: the tool does not run, and the page shows its lineage', async () => {
    const parent = await record();
    const deploys = lines('deploys.log').length;
    await select(parent, 'tool', 'deploy');
    const panel = wb.page.getByTestId('fork');
    await panel.getByTestId('fork-open').click();
    await panel.getByLabel('another answer to the approval').check();
    expect(await panel.getByTestId('fork-record').textContent()).toBe(APPROVAL);
    // the recorded answer was an approval: the form proposes the other one
    expect(await panel.getByLabel('deny').isChecked()).toBe(true);
    await panel.getByLabel('Reason').fill('not today');
    await panel.getByLabel('Script file', { exact: true }).fill('release.script.json');
    await panel.getByTestId('fork-submit').click();
    await panel.getByTestId('fork-live').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('fork-live').textContent()).toContain(
      `after ${APPROVAL} everything runs live`,
    );
    await panel.getByRole('button', { name: 'Start the fork' }).click();
    await wb.page.waitForURL((url) => !url.hash.includes(encodeURIComponent(parent)), {
      timeout: 60_000,
    });
    const forkId = decodeURIComponent(wb.page.url().replace(/^.*#\/runs\//, ''));
    await eventually(() => expect(traceOf(forkId)?.status).toBe('succeeded'), 60_000);
    expect(lines('deploys.log')).toHaveLength(deploys);
    const deploy = allNodes(traceOf(forkId)!).find((node) => node.name === 'deploy')!;
    expect(deploy.approval).toMatchObject({ status: 'denied', reason: 'not today' });
    // the denied call never started: its node has its record name from the approval's request
    expect(deploy.record).toBe('tool deploy release#1.0');
    const lineage = wb.page.getByTestId('fork-lineage');
    await lineage.getByTestId('fork-compare-open').click();
    const changed = wb.page.getByTestId('fork-changed');
    await changed.waitFor();
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

  /** Opens a run's page with every row of its tree open. */
  const openAll = async (runId: string, first: string) => {
    await wb.page.goto(`${wb.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    await row('step', first).waitFor({ timeout: 30_000 });
    for (let opened = 0; opened < 12; opened++) {
      const closed = wb.page.locator('[role=treeitem][aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().locator('button.toggle').click();
    }
  };

  /** Starts the fork the panel previewed, and gives its run id once its page opened. */
  const startFork = async (parent: string) => {
    const panel = wb.page.getByTestId('fork');
    await panel.getByRole('button', { name: 'Start the fork' }).click();
    await wb.page.waitForURL((url) => !url.hash.includes(encodeURIComponent(parent)), {
      timeout: 60_000,
    });
    return decodeURIComponent(wb.page.url().replace(/^.*#\/runs\//, ''));
  };

  it('forks at a model call with another answer: the prefix replays with no model call, the rest runs live', async () => {
    const parent = await record();
    const fetches = lines('fetch.log');
    const deploys = lines('deploys.log').length;
    await openAll(parent, 'release');
    // the tree's model calls in order: release #0, dig #0, dig #1, release #1, release #2
    await wb.page.locator('[role=treeitem][data-kind="model"]').nth(2).click();
    const panel = wb.page.getByTestId('fork');
    await panel.getByTestId('fork-open').click();
    expect(await panel.getByTestId('fork-record').textContent()).toBe(DIG_ANSWER);
    expect(await panel.getByLabel('another answer of the model').isChecked()).toBe(true);
    await panel.getByLabel('New value').fill('The prices are secret.');
    await panel.getByLabel('Script file', { exact: true }).fill('release.script.json');
    await panel.getByTestId('fork-submit').click();
    await panel.getByTestId('fork-live').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('fork-live').textContent()).toContain(
      `3 recorded calls and answers replay; after ${DIG_ANSWER} everything runs live; the recorded run had 2 model calls, 2 tool executions (research, deploy), 1 approval (asked again)`,
    );
    const forkId = await startFork(parent);
    const card = wb.page.getByTestId('approval-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => expect(traceOf(forkId)?.status).toBe('succeeded'), 60_000);

    const nodes = allNodes(traceOf(forkId)!);
    const models = nodes.filter((node) => node.kind === 'model');
    // the prefix and the changed answer come from the journal: no model call made for them
    expect(models.filter((node) => node.replayed).map((node) => node.record)).toEqual([
      'model release #0',
      'model release#0.0/research:dig #0',
      DIG_ANSWER,
    ]);
    // after it, the outer agent's two calls run live
    expect(models.filter((node) => !node.replayed).map((node) => node.record)).toEqual([
      'model release #1',
      'model release #2',
    ]);
    const research = nodes.find((node) => node.name === 'research')!;
    expect((research.output as { output?: unknown }).output).toBe('The prices are secret.');
    // the prefix's tool did not run again; the deploy after the fork point did
    expect(lines('fetch.log')).toEqual(fetches);
    expect(lines('deploys.log')).toHaveLength(deploys + 1);
  }, 240_000);

  it("edits a new tool result in a form from the tool's output schema, and refuses a value that does not fit it", async () => {
    const ran = await june(
      ['run', 'issues.tsx', '--script', 'issues.script.json', '--json'],
      wb.project.dir,
    );
    expect(ran.code).toBe(0);
    const parent = (JSON.parse(ran.stdout.split('\n')[0]!) as { runId: string }).runId;
    await openAll(parent, 'check');
    await row('tool', 'count').first().click();
    const panel = wb.page.getByTestId('fork');
    await panel.getByTestId('fork-open').click();
    const form = panel.getByTestId('fork-value-form');
    await form.waitFor({ timeout: 30_000 });
    // a field per property, starting from the recorded result
    expect(await form.getByLabel('open', { exact: true }).inputValue()).toBe('0');
    const state = form.getByLabel('state', { exact: true });
    expect(await state.locator('option:checked').textContent()).toBe('green');
    await state.selectOption({ label: 'red' });
    await form.getByLabel('open', { exact: true }).fill('1.5');
    await panel.getByLabel('Script file', { exact: true }).fill('issues.script.json');
    await panel.getByTestId('fork-submit').click();
    // not an integer: refused by the server, said in the form, nothing made
    const error = panel.getByTestId('fork-error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toMatch(
      new RegExp(
        `^june: the new result at ${COUNT} does not fit the tool count's output schema: open: `,
      ),
    );
    await screenshot(wb.page, 'fork-schema-form');
    await form.getByLabel('open', { exact: true }).fill('3');
    await panel.getByTestId('fork-submit').click();
    await panel.getByTestId('fork-live').waitFor({ timeout: 30_000 });
    const forkId = await startFork(parent);
    await eventually(() => expect(traceOf(forkId)?.status).toBe('succeeded'), 60_000);
    const count = allNodes(traceOf(forkId)!).find((node) => node.name === 'count')!;
    expect(count.output).toEqual({ open: 3, state: 'red' });

    // the route refuses it too, whoever asks
    const url = `${wb.studio.url.replace(/\?.*$/, '').replace(/\/$/, '')}/api/runs/${encodeURIComponent(parent)}/fork`;
    const misfit = await rawPost(
      url,
      { at: COUNT, change: { result: { open: 2, state: 'amber' } }, preview: true },
      pageHeaders(wb.studio.url, wb.studio.answerToken),
    );
    expect(misfit.status).toBe(400);
    expect(misfit.body.code).toBe('studio-fork-invalid');
    expect(misfit.body.error).toContain(`june: the new result at ${COUNT} does not fit`);
    expect(misfit.body.error).toContain('state: ');
  }, 240_000);

  it('offers no fork under plain june studio over a runs folder, which runs no workflow file a journal names', async () => {
    const parent = await record();
    const plain = await openStudio(join(wb.project.dir, '.june', 'runs'));
    try {
      const base = plain.url.replace(/\?.*$/, '').replace(/\/$/, '');
      const list = (await (await fetch(`${base}/api/runs`)).json()) as { forks?: unknown };
      expect(list.forks).toBeUndefined();
      const dev = `${wb.studio.url.replace(/\?.*$/, '').replace(/\/$/, '')}/api/runs`;
      expect(((await (await fetch(dev)).json()) as { forks?: unknown }).forks).toEqual({
        modelChoice: true,
      });
      await wb.page.goto(`${plain.pageUrl}#/runs/${encodeURIComponent(parent)}`);
      await row('step', 'release').waitFor({ timeout: 30_000 });
      await row('tool', 'deploy').first().click();
      await wb.page.getByRole('complementary', { name: 'Inspector' }).waitFor();
      expect(await wb.page.getByTestId('fork').count()).toBe(0);
    } finally {
      await plain.close();
    }
  }, 120_000);

  it('refuses a fork at a record the run does not have, a change that does not fit, and a request without the answer token', async () => {
    const parent = await record();
    const url = `${wb.studio.url.replace(/\?.*$/, '').replace(/\/$/, '')}/api/runs/${encodeURIComponent(parent)}/fork`;
    const headers = pageHeaders(wb.studio.url, wb.studio.answerToken);
    const model = { kind: 'script', path: 'release.script.json' };
    const before = [...traces(wb.project.dir).keys()].sort();

    const unknown = await rawPost(
      url,
      { at: 'tool fetch nowhere#0.0', change: { result: 'x' }, model },
      headers,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('studio-fork-record-unknown');
    expect(unknown.body.error).toMatch(/^june: the run has no record "tool fetch nowhere#0.0"/);

    const misfit = await rawPost(url, { at: FETCH, change: { answer: 'deny' }, model }, headers);
    expect(misfit.status).toBe(400);
    expect(misfit.body.code).toBe('studio-fork-invalid');
    expect(misfit.body.error).toMatch(/^june: /);

    const badAnswer = await rawPost(
      url,
      { at: APPROVAL, change: { answer: 'maybe' }, model },
      headers,
    );
    expect(badAnswer.status).toBe(400);
    expect(badAnswer.body.code).toBe('studio-fork-invalid');
    expect(badAnswer.body.error).toContain('approve or deny, not "maybe"');

    const noChange = await rawPost(url, { at: FETCH, model }, headers);
    expect(noChange.status).toBe(400);
    expect(noChange.body.code).toBe('studio-request-invalid');

    const missing = await rawPost(
      url.replace(encodeURIComponent(parent), 'no-such-run'),
      { at: FETCH, change: { result: 'x' }, model },
      headers,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('studio-run-missing');

    const noToken = await rawPost(
      url,
      { at: FETCH, change: { result: 'x' }, model },
      { origin: headers.origin, 'sec-fetch-site': 'same-origin' },
    );
    expect([401, 403]).toContain(noToken.status);

    // nothing was forked
    expect([...traces(wb.project.dir).keys()].sort()).toEqual(before);
  }, 120_000);
});
