import { tool } from 'ai';
import { Agent, Step, Tool, run, type Trace, type TraceNode } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeTrace } from '../fixtures/studio/workflows.js';
import { useStudioPage } from './support.js';

/** How long the approved deploy works after its answer, in ms: long beside the wait, so the wait's end is not the call's. */
const DEPLOY_WORK_MS = 600;

/**
 * A release whose deploy a person approves at once (through a source named `studio`, as
 * `ana`), then works for {@link DEPLOY_WORK_MS}; its trace is written for Studio.
 */
async function recordQuickApproval(dir: string): Promise<Trace> {
  const deploy = tool({
    description: 'Deploy',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      await new Promise((resolve) => setTimeout(resolve, DEPLOY_WORK_MS));
      return `Deployed to ${env}`;
    },
  });
  const model = scriptedModel({
    $comment: 'Test fixture: one approved deploy for the timeline of an approval wait',
    steps: {
      release: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
    },
  });
  const handle = run(
    <Agent model={model}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy" />
    </Agent>,
    { workflow: 'QuickApproval' },
  );
  handle.connect({
    name: 'studio',
    requested: (request, inbox) =>
      void inbox.answer(request.id, { approved: true, answeredBy: 'ana' }),
  });
  const { trace } = await handle.result;
  await writeTrace(dir, trace);
  return trace;
}

function deployNode(trace: Trace): TraceNode {
  const stack = [trace.root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.kind === 'tool') return node;
    stack.push(...node.children);
  }
  throw new Error('no tool node');
}

describe('June Studio: the timeline of an approval wait', () => {
  let trace: Trace;
  const ui = useStudioPage(async (dir) => {
    trace = await recordQuickApproval(dir);
  });

  it("draws the wait from the request to the answer, and the call's work after it", async () => {
    const node = deployNode(trace);
    expect(node.approval).toMatchObject({
      status: 'approved',
      source: 'studio',
      answeredBy: 'ana',
    });
    const start = Date.parse(node.startedAt);
    const end = Date.parse(node.endedAt!);
    const answered = Date.parse(node.approval!.answeredAt!);
    expect(end - answered).toBeGreaterThanOrEqual(DEPLOY_WORK_MS - 5);

    await ui.page.goto(`${ui.studio.url}#/runs/${encodeURIComponent(trace.runId)}`);
    await ui.page.getByTestId('view-timeline').click();
    const row = ui.page.locator('.tl-row[data-kind="tool"][data-name="deploy"]');
    const bar = (await row.getByTestId('bar').boundingBox())!;
    const wait = row.getByTestId('wait');
    expect(await wait.getAttribute('data-answered-at')).toBe(node.approval!.answeredAt);
    expect(await wait.getAttribute('title')).toMatch(
      /^waited .+ for an answer: approved by ana through studio at /,
    );
    const drawn = (await wait.boundingBox())!;
    // the wait starts with the call and ends where the answer came, not where the call ended
    const pxPerMs = bar.width / (end - start);
    expect(drawn.x).toBeCloseTo(bar.x, 0);
    const answerX = bar.x + (answered - start) * pxPerMs;
    expect(Math.abs(drawn.x + drawn.width - Math.max(answerX, bar.x + 2))).toBeLessThanOrEqual(2);
    expect(drawn.width).toBeLessThan(bar.width / 2);
    // "where the time went": the wait counts as an approval wait, the work as a tool call
    const summary = ui.page.getByTestId('time-summary');
    await expect.poll(() => summary.locator('[data-kind=approval]').count()).toBe(1);
    await expect.poll(() => summary.locator('[data-kind=tool]').count()).toBe(1);

    // the inspector names who answered, through what and when
    await row.getByTestId('bar').click();
    const answerer = ui.page.getByTestId('inspector').getByTestId('answerer');
    expect(await answerer.innerText()).toBe('ana');
    expect(await answerer.getAttribute('data-source')).toBe('studio');
    expect(await answerer.getAttribute('data-answered-at')).toBe(node.approval!.answeredAt);
  });
});
