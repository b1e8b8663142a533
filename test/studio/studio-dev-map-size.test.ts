import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../../src/cli/dev-command.js';
import { tempProject } from '../cli/cli-harness.js';
import { launchBrowser, newPage, screenshot, studioUi } from './support.js';

// The capability map of a big workflow (200 tools across 20 nested agents) costs about what
// drawing the same rows as a plain list costs: the map is a virtual list, so only the rows in
// view are made. Measured as the browser's main-thread CPU time (CDP's TaskDuration), as a
// ratio, never as wall-clock time.

const AGENTS = 20;
const TOOLS_PER_AGENT = 10;

/** 20 agents, each nested in the one before, each with 10 tools (every fifth needing approval). */
function bigWorkflow(): string {
  let tree = '<Step id="last" prompt="Go" />';
  for (let agent = AGENTS - 1; agent >= 0; agent--) {
    const tools = Array.from({ length: TOOLS_PER_AGENT }, (_, index) => {
      const name = `a${agent}_tool${index}`;
      const declared = `<Tool name="${name}" value={probe} />`;
      return index % 5 === 0 ? `<RequireApproval>${declared}</RequireApproval>` : declared;
    }).join('\n');
    tree = `<Agent name="agent${agent}" model={model}>\n${tools}\n${tree}\n</Agent>`;
  }
  return `
import { tool } from 'ai';
import { Agent, RequireApproval, Step, Tool } from 'june';
import { z } from 'zod';
const model = {} as never;
const probe = tool({ description: 'Probe', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => q });
export default function Big() {
  return (${tree});
}
`;
}

const small = `
import { Agent, Step } from 'june';
export default function Small() {
  return <Agent name="one" model={{} as never}><Step id="s" prompt="Hi" /></Agent>;
}
`;

/** The main thread's CPU time so far, in ms. */
async function cpuMs(session: CDPSession): Promise<number> {
  const { metrics } = await session.send('Performance.getMetrics');
  return metrics.find((metric) => metric.name === 'TaskDuration')!.value * 1000;
}

describe('the capability map of a big workflow', () => {
  const project = tempProject();
  let dev: DevServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    project.write('big.tsx', bigWorkflow());
    project.write('small.tsx', small);
    const [ui, launched] = await Promise.all([studioUi(), launchBrowser()]);
    browser = launched;
    dev = await startDev(project.dir, [], { port: '0', assetsDir: ui });
    page = await newPage(browser, errors);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dev?.close();
    project.remove();
  });

  it('renders 200 tools across 20 nested agents for about the CPU of a plain list of them', async () => {
    const big = dev.catalog.list().find((entry) => entry.id === 'big.tsx')!;
    expect(big.status).toBe('ready');
    expect(big.map!.agents).toHaveLength(AGENTS);
    expect(big.map!.agents.flatMap((agent) => agent.tools)).toHaveLength(AGENTS * TOOLS_PER_AGENT);
    expect(big.map!.agents.at(-1)!.path.split(' > ')).toHaveLength(AGENTS);

    await page.goto(`${dev.pageUrl}#/workflows/small.tsx`);
    await page
      .locator('[data-testid="workflow"][data-workflow="small.tsx"] [data-agent="one"]')
      .waitFor();
    const session = await page.context().newCDPSession(page);
    await session.send('Performance.enable');

    // the map: from the small workflow's page to the big one's, until its rows are laid out
    const beforeMap = await cpuMs(session);
    await page.click('[data-workflow="big.tsx"]');
    const map = page.locator(
      '[data-testid="workflow"][data-workflow="big.tsx"] [data-testid="capability-map"]',
    );
    await map.locator('[data-agent="agent0"]').first().waitFor();
    await page.evaluate(() => document.body.offsetHeight);
    const mapMs = (await cpuMs(session)) - beforeMap;
    expect(await map.getAttribute('data-rows')).toBe(String(AGENTS + AGENTS * TOOLS_PER_AGENT));
    await screenshot(page, 'dev-map-big');

    // the same rows as a plain list: one item per agent and per tool, with the same text
    const lines = big.map!.agents.flatMap((agent) => [
      `${agent.name} ${agent.declaration ?? ''}`,
      ...agent.tools.map((tool) => `${tool.name} ${tool.source} ${tool.declaration ?? ''}`),
    ]);
    const beforeList = await cpuMs(session);
    await page.evaluate((texts) => {
      const list = document.createElement('ul');
      for (const text of texts) {
        const item = document.createElement('li');
        item.textContent = text;
        list.append(item);
      }
      document.body.append(list);
      void document.body.offsetHeight;
      list.remove();
    }, lines);
    const listMs = (await cpuMs(session)) - beforeList;

    console.log(
      `capability map of ${lines.length} rows: ${mapMs.toFixed(1)} ms of CPU; plain list: ${listMs.toFixed(1)} ms (ratio ${(mapMs / listMs).toFixed(1)})`,
    );
    // A virtual map costs a small multiple of the plain list's CPU (an unvirtualized one, with
    // its badges and links, costs far more); measured about 4-6x here.
    expect(mapMs / Math.max(listMs, 1)).toBeLessThan(25);
    expect(errors).toEqual([]);
  }, 60_000);
});
