import { rm } from 'node:fs/promises';
import { tool } from 'ai';
import { Agent, Step, Tool, run, traceWriter } from 'june';
import { startStudio } from 'june/studio';
import { scriptedModel } from 'june/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { launchBrowser, newPage, runsDir, studioUi } from './support.js';

// A program's own run() shows in Studio when it writes its trace with traceWriter({ dir }):
// the same consumer `june run` uses, into the folder Studio reads.
const lookup = tool({
  description: 'Look a word up',
  inputSchema: z.object({ word: z.string() }),
  execute: async ({ word }) => `${word}: a short word`,
});

function Glossary() {
  return (
    <Agent
      model={scriptedModel({
        steps: {
          define: [
            { toolCalls: [{ tool: 'lookup', input: { word: 'june' } }] },
            { text: 'June is a month.' },
          ],
        },
      })}
    >
      <Tool name="lookup" value={lookup} />
      <Step id="define" prompt="Define june" />
    </Agent>
  );
}

describe("June Studio: runs started by a program's run()", () => {
  let dir: string;
  let browser: Browser;

  beforeAll(async () => {
    [dir, browser] = await Promise.all([runsDir(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists and opens a run whose program passed traceWriter({ dir })', async () => {
    const handle = run(<Glossary />, { consumers: [traceWriter({ dir })] });
    await handle.result;
    const studio = await startStudio({ dir, port: 0, assetsDir: await studioUi() });
    try {
      const { runs } = await (await fetch(`${studio.url}api/runs`)).json();
      expect(runs).toMatchObject([
        { runId: handle.runId, workflow: 'Glossary', status: 'succeeded' },
      ]);
      const errors: string[] = [];
      const page = await newPage(browser, errors);
      await page.goto(studio.pageUrl);
      await page.locator(`tr[data-run-id="${handle.runId}"] a`).click();
      await page.locator('[role=treeitem][data-kind="tool"][data-name="lookup"]').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await studio.close();
    }
  }, 120_000);
});
