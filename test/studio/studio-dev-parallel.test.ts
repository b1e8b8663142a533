import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../../src/cli/dev-command.js';
import { tempProject } from '../cli/cli-harness.js';
import { launchBrowser, newPage, screenshot, studioUi } from './support.js';

// `june dev`'s capability map of a workflow that fans out: one reviewer agent per file, each
// in a <Parallel> branch. The map lists each branch's agent on its own, marked with its branch.

const review = `
import { tool } from 'ai';
import { Agent, Parallel, Step, Tool } from 'june';
import { z } from 'zod';
const model = {} as never;
const read = tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => path });
function Reviewer({ file }: { file: string }) {
  return (
    <Agent name="reviewer" model={model}>
      <Tool name="read" value={read} />
      <Step id={'review-' + file} prompt={'Review ' + file} />
    </Agent>
  );
}
export default function Review() {
  return (
    <Agent name="lead" model={model}>
      <Parallel limit={2}>
        {['a.ts', 'b.ts'].map((file) => <Reviewer key={file} file={file} />)}
      </Parallel>
      <Step id="sum" prompt="Sum up" />
    </Agent>
  );
}
`;

describe("june dev's capability map of a <Parallel>", () => {
  const project = tempProject();
  let dev: DevServer;
  let browser: Browser;

  beforeAll(async () => {
    project.write('review.tsx', review);
    const [ui, launched] = await Promise.all([studioUi(), launchBrowser()]);
    browser = launched;
    dev = await startDev(project.dir, [], { port: '0', assetsDir: ui });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dev?.close();
    project.remove();
  });

  it('shows the agent of each branch, marked with its branch', async () => {
    const entry = dev.catalog.list().find((listed) => listed.id === 'review.tsx')!;
    expect(entry.status).toBe('ready');
    expect(entry.map!.agents.map((agent) => [agent.path, agent.branch])).toEqual([
      ['lead', undefined],
      ['lead > reviewer', 'a.ts'],
      ['lead > reviewer', 'b.ts'],
    ]);

    const errors: string[] = [];
    const page = await newPage(browser, errors);
    await page.goto(`${dev.pageUrl}#/workflows/review.tsx`);
    const map = page.locator(
      '[data-testid="workflow"][data-workflow="review.tsx"] [data-testid="capability-map"]',
    );
    await map.locator('[data-agent="lead > reviewer"]').first().waitFor();
    const badges = map.locator('[data-agent="lead > reviewer"] .map-badge-branch');
    expect(await badges.allTextContents()).toEqual(['branch a.ts', 'branch b.ts']);
    expect(await map.locator('[data-tool="read"]').count()).toBe(2);
    await screenshot(page, 'dev-map-parallel');
    expect(errors).toEqual([]);
  }, 120_000);
});
