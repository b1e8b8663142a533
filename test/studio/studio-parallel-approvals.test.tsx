import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { tool } from 'ai';
import { Agent, Parallel, run, Step, Tool, traceWriter, type TraceNode } from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StudioAnswers } from '../../src/host/studio-answers.js';
import type { RunApprovals } from '../../src/host/waiting-approvals.js';
import type { Studio } from '../../src/studio/index.js';
import { postAnswer } from './deploy-run.js';
import { eventually, launchBrowser, newPage, openStudio, runsDir, screenshot } from './support.js';
import type { Browser } from 'playwright-core';

// A program's run fans out over five <Parallel> branches; two of them ask for approval. Both
// requests wait at once, each named by its branch, in the one inbox: Studio (over the runs
// folder the program writes its trace to) lists them together, answers one through its
// answer API, and the program answers the other through its handle. Each tool runs once.

const items = ['a', 'b', 'c', 'd', 'e'];
const approving = ['b', 'd'];

function fanOut(ran: string[]) {
  const steps: Record<string, ScriptTurn[]> = { sum: [{ text: 'all shipped' }] };
  for (const item of items)
    steps[`ship-${item}`] = [
      { toolCalls: [{ tool: 'ship', input: { item } }] },
      { text: `${item} shipped` },
    ];
  const ship = tool({
    description: 'Ship an item',
    inputSchema: z.object({ item: z.string() }),
    needsApproval: ({ item }) => approving.includes(item),
    execute: async ({ item }) => {
      ran.push(item);
      return `shipped ${item}`;
    },
  });
  return function FanOut() {
    return (
      <Agent model={scriptedModel({ steps })}>
        <Tool name="ship" value={ship} />
        <Parallel>
          {items.map((item) => (
            <Step key={item} id={`ship-${item}`} prompt={`Ship ${item}`} />
          ))}
        </Parallel>
        <Step id="sum" prompt="Sum up" />
      </Agent>
    );
  };
}

describe('June Studio: approvals of <Parallel> branches', () => {
  let dir: string;
  let studio: Studio;
  let browser: Browser;

  beforeAll(async () => {
    dir = await runsDir();
    [studio, browser] = await Promise.all([openStudio(dir), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('two branches wait together; one is answered in Studio, the other through the handle', async () => {
    const ran: string[] = [];
    const FanOut = fanOut(ran);
    const handle = run(<FanOut />, { consumers: [traceWriter({ dir })] });
    const answers = await StudioAnswers.start({
      runsDir: dir,
      runId: handle.runId,
      approve: 'studio',
      resume: { workflow: resolve('fan-out.tsx'), cwd: resolve('.'), flags: {} },
      sealed: false,
    });
    handle.connect(answers);
    try {
      const endpoint = `${studio.url}api/runs/${encodeURIComponent(handle.runId)}/approvals`;
      // both requests wait at the same time, each keyed by its branch
      const waiting = await eventually(async () => {
        const body = (await (await fetch(endpoint)).json()) as RunApprovals;
        expect(body.waiting).toHaveLength(2);
        return body.waiting;
      }, 60_000);
      const keys = waiting.map((request) => request.key).sort();
      expect(keys).toEqual([
        expect.stringMatching(new RegExp(`^${handle.runId}/\\[b\\]/ship-b#`)),
        expect.stringMatching(new RegExp(`^${handle.runId}/\\[d\\]/ship-d#`)),
      ]);
      expect(handle.pendingApprovals.map((request) => request.key).sort()).toEqual(keys);
      expect(ran.sort()).toEqual(['a', 'c', 'e']);

      const taken = await postAnswer(
        endpoint,
        { key: keys[0], approved: true, answeredBy: 'ana@example.com' },
        studio.answerToken,
      );
      expect(taken).toEqual({ status: 202, body: { delivered: 'live' } });
      const d = handle.pendingApprovals.find((request) => request.key === keys[1])!;
      await eventually(() => expect(handle.pendingApprovals).toEqual([d]), 30_000);
      handle.approve(d.id, { answeredBy: 'bo' });

      const result = await handle.result;
      expect(result.steps.sum).toBe('all shipped');
      expect(ran.sort()).toEqual(items);
      const tools = (node: TraceNode): TraceNode[] => [
        ...(node.kind === 'tool' ? [node] : []),
        ...node.children.flatMap(tools),
      ];
      const approvals = tools(result.trace.root)
        .filter((node) => node.approval)
        .map((node) => [node.input, node.approval!.source, node.approval!.answeredBy]);
      expect(approvals).toEqual([
        [{ item: 'b' }, 'studio', 'ana@example.com'],
        [{ item: 'd' }, 'handle', 'bo'],
      ]);

      // the run's page shows the <Parallel> with its five branches, each holding its step
      await eventually(async () => {
        const page = (await (
          await fetch(`${studio.url}api/runs/${encodeURIComponent(handle.runId)}`)
        ).json()) as { status: string };
        expect(page.status).toBe('succeeded');
      }, 30_000);
      const errors: string[] = [];
      const page = await newPage(browser, errors);
      await page.goto(studio.pageUrl);
      await page.locator(`tr[data-run-id="${handle.runId}"] a`).click();
      await page.locator('[role=treeitem][data-kind="parallel"]').waitFor();
      await page.locator('[role=treeitem][data-kind="step"][data-name="ship-e"]').waitFor();
      const branches = page.locator('[role=treeitem][data-kind="branch"]');
      expect(await branches.evaluateAll((rows) => rows.map((row) => row.dataset.name))).toEqual(
        items,
      );
      await page.locator('[role=treeitem][data-kind="branch"][data-name="b"]').click();
      await page.getByText('the branch "b" of <Parallel>').first().waitFor();
      await screenshot(page, 'parallel-branches');
      expect(errors).toEqual([]);
    } finally {
      await answers.close();
    }
  }, 180_000);
});
