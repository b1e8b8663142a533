import { readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../../src/cli/dev-command.js';
import type { WorkflowEntry, WorkflowList } from '../../src/workflows/workbench-api.js';
import { tempProject } from '../cli/cli-harness.js';
import { eventually, launchBrowser, listen, newPage, screenshot, studioUi } from './support.js';

// `june dev` on a project of its own: two workflows, found by searching the project (a file
// whose default export is not a component, node_modules and hidden folders left out), each
// drawn as its capability map before any run; a save updates the map without a restart; a
// broken save shows its june: error and the next good one recovers.

const tools = `
import { tool } from 'ai';
import { z } from 'zod';
export const search = tool({ description: 'Search', inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => query });
export const deploy = tool({ description: 'Deploy', inputSchema: z.object({ env: z.enum(['staging', 'prod']) }), needsApproval: true, execute: async ({ env }) => env });
export const close = tool({ description: 'Close an issue', inputSchema: z.object({ number: z.number() }), execute: async ({ number }) => String(number) });
`;

const release = (extra = '') => `
import { Agent, Inherit, Namespace, RequireApproval, Step, Tool, defineCapabilities } from 'june';
import { z } from 'zod';
import { close, deploy, search } from './tools.js';

const model = {} as never; // inspect() calls no model
export const props = z.object({ writable: z.boolean().optional() });
const Files = defineCapabilities(({ writable = false }: { writable?: boolean }) => (
  <>
    <Tool name="read" value={search} />
    {writable && <Tool name="write" value={search} />}
  </>
), { name: 'Files' });

export default function Release({ writable = false }: { writable?: boolean }) {
  return (
    <Agent name="release" model={model}>
      <Namespace name="github">
        <Tool name="search" value={search} />
        <RequireApproval>
          <Tool name="close" value={close} />
        </RequireApproval>
      </Namespace>
      <Files writable={writable} />
      <Tool name="deploy" value={deploy} />${extra}
      <Agent name="helper" model={model}>
        <Inherit capabilities={['github_search']} />
        <Step id="help" prompt="Help" />
      </Agent>
      <Step id="release" prompt="Release" />
    </Agent>
  );
}
`;

const hello = `
import { Agent, Step, Tool, defineAgent, defineToolSource } from 'june';
import { z } from 'zod';
import { close, search } from './workflows/tools.js';
const Weather = defineToolSource({ name: 'Weather', connect: async () => ({ tools: { forecast: search } }) });
const Researcher = defineAgent({
  name: 'researcher',
  description: 'Researches a question',
  input: z.object({ question: z.string() }),
  model: {} as never,
  prompt: ({ question }) => question,
  capabilities: () => <Tool name="fetch" value={search} />,
});
export default function Hello() {
  return (
    <Agent name="greeter" model={{} as never}>
      <Tool name="lookup" value={search} />
      <Tool name="triage" description="Triage issues" input={z.object({ label: z.enum(['bug', 'docs']) })}>
        {({ label }) => (
          <Agent name="triager" model={{} as never}>
            <Tool name={label === 'bug' ? 'close' : 'other'} value={close} />
            <Step id="t" prompt="Triage" />
          </Agent>
        )}
      </Tool>
      <Researcher />
      <Weather />
      <Step id="hi" prompt="Hi" />
    </Agent>
  );
}
`;

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('june dev', () => {
  const project = tempProject();
  let dev: DevServer;
  let base: string;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    project.write('workflows/tools.ts', tools);
    project.write('workflows/release.tsx', release());
    project.write('hello.tsx', hello);
    project.write('not-a-workflow.tsx', 'export default 42;\n');
    project.write('.hidden/secret.tsx', 'export default function Secret() { return null; }\n');
    const [ui, launched] = await Promise.all([studioUi(), launchBrowser()]);
    browser = launched;
    dev = await startDev(project.dir, [], { port: '0', assetsDir: ui });
    base = dev.pageUrl.replace(/\?.*$/, '');
    page = await newPage(browser, errors);
  }, 120_000);
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.close();
    project.remove();
  });

  it('finds the two workflows and serves each capability map, declarations and input schemas included', async () => {
    const list = (await (await fetch(`${base}api/workflows`)).json()) as WorkflowList;
    expect(list.root).toBe(project.dir);
    expect(list.workflows.map((entry) => [entry.id, entry.name, entry.status])).toEqual([
      ['hello.tsx', 'Hello', 'ready'],
      ['workflows/release.tsx', 'Release', 'ready'],
    ]);
    const releaseEntry = list.workflows[1]!;
    expect(releaseEntry.propsSchema).toMatchObject({
      properties: { writable: { type: 'boolean' } },
    });
    const [outer, helper] = releaseEntry.map!.agents;
    expect(outer!.tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([
      ['github_search', false],
      ['github_close', true],
      ['read', false],
      ['deploy', true],
    ]);
    expect(outer!.tools[1]).toMatchObject({
      source: '<Tool name="close"> in <Namespace name="github"> in <RequireApproval>',
      declaration: expect.stringMatching(/^workflows\/release\.tsx:\d+:\d+$/),
      inputSchema: { type: 'object', properties: { number: { type: 'number' } } },
    });
    expect(helper).toMatchObject({
      path: 'release > helper',
      tools: [
        { name: 'github_search', granted: expect.stringContaining('<Namespace name="github">') },
      ],
    });

    const writable = await fetch(
      `${base}api/workflows/${encodeURIComponent('workflows/release.tsx')}?props=${encodeURIComponent('{"writable":true}')}`,
    );
    const resolved = (await writable.json()) as WorkflowEntry;
    expect(resolved.props).toEqual({ writable: true });
    expect(resolved.map!.agents[0]!.tools.map((tool) => tool.name)).toContain('write');
  });

  it('draws each workflow as its map: agents nested, approvals marked, provenance, declarations, a Try button per tool', async () => {
    await page.goto(dev.pageUrl);
    await page.waitForSelector('[data-testid="capability-map"]');
    await page.click('[data-workflow="workflows/release.tsx"]');
    const map = page.locator('[data-testid="workflow"][data-workflow="workflows/release.tsx"]');
    await map.locator('[data-tool="github_close"]').waitFor();
    const approval = await map
      .locator('.map-needs-approval')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tool')));
    expect(approval).toEqual(['github_close', 'deploy']);
    expect(await map.locator('[data-tool="github_close"] .map-badge').allTextContents()).toEqual([
      'approval (<RequireApproval>)',
      'namespace github',
    ]);
    expect(await map.locator('[data-tool="read"] .map-badge').allTextContents()).toEqual([
      'bundle Files',
    ]);
    const inherited = map.locator('[data-agent="release > helper"][data-tool="github_search"]');
    expect(await inherited.locator('.map-badge').allTextContents()).toEqual([
      'inherited',
      'namespace github',
    ]);
    const indent = async (selector: string) =>
      Number.parseFloat(
        await map
          .locator(selector)
          .first()
          .evaluate((row) => getComputedStyle(row).paddingLeft),
      );
    expect(await indent('[data-agent="release > helper"].map-agent')).toBeGreaterThan(
      await indent('[data-agent="release"].map-agent'),
    );
    expect(await map.locator('[data-tool="deploy"] .map-declaration').textContent()).toMatch(
      /^workflows\/release\.tsx:\d+$/,
    );
    expect(await map.locator('[data-tool="deploy"] .map-try').count()).toBe(1);

    await map.locator('input[name="writable"]').check();
    await map.locator('[data-tool="write"]').waitFor();
    await screenshot(page, 'dev-map');

    await page.click('[data-workflow="hello.tsx"]');
    await page
      .locator('[data-testid="workflow"][data-workflow="hello.tsx"] [data-tool="lookup"]')
      .waitFor();
  });

  it('updates the map on a save, without a restart: a tool added in the file, then one in a file it imports', async () => {
    const live = await listen(base);
    try {
      await page.goto(`${dev.pageUrl}#/workflows/${encodeURIComponent('workflows/release.tsx')}`);
      const map = page.locator('[data-testid="workflow"][data-workflow="workflows/release.tsx"]');
      await map.locator('[data-tool="deploy"]').waitFor();
      await writeFile(
        join(project.dir, 'workflows/release.tsx'),
        release('\n      <Tool name="rollback" value={deploy} />'),
      );
      await map.locator('[data-tool="rollback"]').waitFor({ timeout: 15_000 });
      expect(await map.locator('[data-tool="rollback"]').getAttribute('data-approval')).toBe(
        'true',
      );
      await live.next(
        (event) =>
          event.event === 'workflow' &&
          event.data.workflow.map?.agents[0].tools.some(
            (tool: { name: string }) => tool.name === 'rollback',
          ),
        15_000,
      );

      // hello.tsx imports workflows/tools.ts: changing the tool there reaches its map too
      const text = await readFile(join(project.dir, 'workflows/tools.ts'), 'utf8');
      await writeFile(
        join(project.dir, 'workflows/tools.ts'),
        text.replace(
          "description: 'Search', inputSchema",
          "description: 'Search', needsApproval: true, inputSchema",
        ),
      );
      await page.click('[data-workflow="hello.tsx"]');
      await eventually(
        async () =>
          expect(
            await page
              .locator('[data-workflow="hello.tsx"] [data-tool="lookup"]')
              .getAttribute('data-approval'),
          ).toBe('true'),
        15_000,
      );
    } finally {
      await live.close();
    }
  });

  it("shows a broken file's june: error with its declaration, and recovers on the next good save", async () => {
    await page.goto(`${dev.pageUrl}#/workflows/${encodeURIComponent('workflows/release.tsx')}`);
    const map = page.locator('[data-testid="workflow"][data-workflow="workflows/release.tsx"]');
    await map.locator('[data-tool="deploy"]').waitFor();
    await writeFile(
      join(project.dir, 'workflows/release.tsx'),
      release('\n      <Tool name="deploy" value={deploy} />'),
    );
    const error = map.locator('[data-testid="workflow-error"]');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.getAttribute('data-code')).toBe('capability-collision');
    expect(await error.locator('p.mono').textContent()).toMatch(
      /^june: two capabilities of <Agent name="release"> at workflows\/release\.tsx:\d+:\d+ expose the tool name "deploy"/,
    );
    expect(await error.textContent()).toMatch(/declared at workflows\/release\.tsx:\d+/);
    expect(
      await page
        .locator('[data-workflow="workflows/release.tsx"].workflow-item')
        .getAttribute('data-status'),
    ).toBe('broken');
    await screenshot(page, 'dev-broken');

    await writeFile(join(project.dir, 'workflows/release.tsx'), 'export default function (');
    await eventually(
      async () => expect(await error.getAttribute('data-code')).toBe('workflow-load-failed'),
      15_000,
    );

    await writeFile(join(project.dir, 'workflows/release.tsx'), release());
    await map.locator('[data-tool="deploy"]').waitFor({ timeout: 15_000 });
    expect(await error.count()).toBe(0);
  });

  it("lists a tool source's tools as the workflow's last run connected them", async () => {
    const at = new Date().toISOString();
    const node = (id: string, kind: string, name: string, extra: object, children: unknown[]) => ({
      id,
      kind,
      name,
      status: 'succeeded',
      startedAt: at,
      endedAt: at,
      children,
      ...extra,
    });
    const agent = node(
      'a',
      'agent',
      'greeter',
      { capabilities: [{ name: 'forecast', source: '<Weather>' }] },
      [],
    );
    const trace = {
      version: 1,
      runId: 'hello-run',
      workflow: 'hello.tsx',
      status: 'succeeded',
      startedAt: at,
      endedAt: at,
      root: node('r', 'run', 'hello.tsx', {}, [agent]),
    };
    project.write('.june/runs/hello-run.json', JSON.stringify(trace));
    await page.goto(`${dev.pageUrl}#/workflows/hello.tsx`);
    const hello = page.locator('[data-testid="workflow"][data-workflow="hello.tsx"]');
    await hello.locator('.map-source[data-source="<Weather>"]').waitFor();
    const forecast = hello.locator('.map-connected[data-tool="forecast"]');
    await forecast.waitFor({ timeout: 15_000 });
    expect(await forecast.textContent()).toContain('from <Weather> in run hello-run');
    expect(await hello.locator('.workflow-last-run a').textContent()).toBe('hello-run');

    // "Re-run" starts the last run again through the workbench's start-run route (its answer
    // stubbed here: this test is about what the page asks for), then opens the new run
    const asked: Array<{ body: unknown; authorization: string | undefined }> = [];
    await page.route('**/api/workflows/*/runs', async (route) => {
      asked.push({
        body: route.request().postDataJSON(),
        authorization: route.request().headers().authorization,
      });
      await route.fulfill({
        status: 202,
        contentType: 'application/json',
        body: '{"runId":"hello-run"}',
      });
    });
    try {
      await hello.locator('[data-testid="rerun"]').click();
      await eventually(() => expect(new URL(page.url()).hash).toBe('#/runs/hello-run'));
      expect(asked).toEqual([
        {
          body: { props: {}, model: { kind: 'replay', runId: 'hello-run' } },
          authorization: `Bearer ${new URL(dev.pageUrl).searchParams.get('token')}`,
        },
      ]);
    } finally {
      await page.unroute('**/api/workflows/*/runs');
    }

    // a newer run that failed: its recording stops partway, so the page offers no Re-run
    // and says why (a replay start of it is refused too: test/host/rerun-offer.test.ts)
    const later = new Date(Date.parse(at) + 1000).toISOString();
    project.write(
      '.june/runs/hello-run-2.json',
      JSON.stringify({ ...trace, runId: 'hello-run-2', status: 'failed', startedAt: later }),
    );
    await page.goto(`${dev.pageUrl}#/workflows/hello.tsx`);
    await eventually(async () =>
      expect(await hello.locator('.workflow-last-run a').first().textContent()).toBe('hello-run-2'),
    );
    expect(await hello.locator('[data-testid="rerun"]').count()).toBe(0);
    expect(await hello.getByTestId('rerun-why').textContent()).toContain(
      'Run hello-run-2 ended failed, so its recording stops partway',
    );
  });

  it('takes up a workflow file added while it runs, and drops one that is deleted', async () => {
    await page.goto(`${dev.pageUrl}#/workflows`);
    await page.locator('[data-workflow="hello.tsx"].workflow-item').waitFor();
    project.write('later.tsx', hello.replace('function Hello', 'function Later'));
    const later = page.locator('[data-workflow="later.tsx"].workflow-item');
    await later.waitFor({ timeout: 15_000 });
    expect(await later.locator('.workflow-name').textContent()).toBe('Later');
    await rm(join(project.dir, 'later.tsx'));
    await later.waitFor({ state: 'detached', timeout: 15_000 });
    expect(dev.catalog.list().map((entry) => entry.id)).toEqual([
      'hello.tsx',
      'workflows/release.tsx',
    ]);
  });

  it('keeps the access checks on the new routes: Host, token beyond loopback, nothing from a path', async () => {
    const rebinding = await get(`${base}api/workflows`, { host: 'evil.example' });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error).toMatch(/^june: Studio answers requests for /);
    const foreign = await get(
      `${base}api/workflows/${encodeURIComponent('workflows/release.tsx')}`,
      {
        host: 'evil.example',
      },
    );
    expect(foreign.status).toBe(403);
    const post = await fetch(`${base}api/workflows`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    for (const id of ['not-a-workflow.tsx', '.hidden/secret.tsx', '../etc/passwd', '/etc/passwd']) {
      const response = await fetch(`${base}api/workflows/${encodeURIComponent(id)}`);
      expect(response.status, id).toBe(404);
      expect((await response.json()).error, id).toMatch(/^june: no workflow /);
    }
    const badProps = await fetch(
      `${base}api/workflows/hello.tsx?props=${encodeURIComponent('[1]')}`,
    );
    expect(badProps.status).toBe(400);
    expect((await badProps.json()).error).toMatch(/^june: \?props= must be a JSON object/);
  });
});

describe('june dev beyond loopback', () => {
  it('needs the access token on the workflow routes', async () => {
    const project = tempProject();
    project.write('hello.tsx', hello.replace('./workflows/tools.js', './tools.js'));
    project.write('tools.ts', tools);
    const dev = await startDev(project.dir, ['hello.tsx'], {
      port: '0',
      host: '0.0.0.0',
      assetsDir: await studioUi(),
    });
    try {
      const base = dev.pageUrl.replace(/\?.*$/, '');
      for (const path of ['api/workflows', 'api/workflows/hello.tsx']) {
        const refused = await get(`${base}${path}`);
        expect(refused.status, path).toBe(401);
        expect(JSON.parse(refused.body).error).toMatch(/^june: Studio needs its access token/);
        const taken = await get(`${base}${path}`, { authorization: `Bearer ${dev.token}` });
        expect(taken.status, path).toBe(200);
      }
    } finally {
      await dev.close();
      project.remove();
    }
  }, 60_000);
});
