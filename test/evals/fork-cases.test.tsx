// A dataset of forks: one recorded run, and cases that each fork it at the same tool result
// with another value; the live part after the fork point is answered by the case's script.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulateReadableStream, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Step, Tool } from 'june';
import { loadDataset, toolCallsIn, workflowTask } from 'june/evals';
import { scriptedModel } from 'june/testing';

const dir = mkdtempSync(join(tmpdir(), 'june-fork-evals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stockRuns = 0;
const stock = tool({
  description: 'Look up the stock',
  inputSchema: z.object({ item: z.string() }),
  execute: async () => {
    stockRuns++;
    return '12 in stock';
  },
});
const unusedModel = scriptedModel({ steps: {} });

function Shop() {
  return (
    <Agent model={unusedModel}>
      <Tool name="stock" value={stock} />
      <Step id="answer" prompt="Can we ship 10 chairs?" />
    </Agent>
  );
}

const script = (text: string) => {
  const path = join(dir, `${text.length}-${Math.random().toString(36).slice(2)}.script.json`);
  writeFileSync(
    path,
    JSON.stringify({
      $comment: 'Test fixture',
      steps: {
        answer: [{ toolCalls: [{ tool: 'stock', input: { item: 'chair' } }] }, { text }],
      },
    }),
  );
  return path;
};

describe('eval cases that fork a recorded run', () => {
  it('runs a dataset of forks, each with its own tool result, without running the tool', async () => {
    const task = workflowTask(Shop, { runsDir: dir, studioUrl: false });
    const recorded = await task({ id: 'recorded', script: script('Yes, we can.') });
    expect(recorded.status).toBe('succeeded');
    expect(stockRuns).toBe(1);

    writeFileSync(
      join(dir, 'forks.jsonl'),
      [
        { id: 'none-left', result: '0 in stock', text: 'No, none are left.' },
        { id: 'few-left', result: '3 in stock', text: 'Only 3 can go.' },
      ]
        .map((each) =>
          JSON.stringify({
            id: each.id,
            fork: { from: recorded.runId, at: 'tool stock answer#0.0', result: each.result },
            script: script(each.text),
          }),
        )
        .join('\n'),
    );
    const cases = await loadDataset(join(dir, 'forks.jsonl'));
    const outputs = await Promise.all(cases.map((each) => task(each.input)));
    expect(outputs.map((output) => output.answer)).toEqual([
      'No, none are left.',
      'Only 3 can go.',
    ]);
    expect(outputs.map((output) => toolCallsIn(output.trace, 'stock')[0]?.output)).toEqual([
      '0 in stock',
      '3 in stock',
    ]);
    expect(outputs.map((output) => output.trace.forkedFrom?.runId)).toEqual([
      recorded.runId,
      recorded.runId,
    ]);
    expect(stockRuns).toBe(1);
  });

  it('forks at a model call with other settings: that call is asked with them, the tool does not run again', async () => {
    const task = workflowTask(Shop, { runsDir: dir, studioUrl: false });
    const recorded = await task({ id: 'recorded', script: script('Yes, we can.') });
    const before = stockRuns;
    const asked: (number | undefined)[] = [];
    const answering = new MockLanguageModelV4({
      doStream: async (options) => {
        asked.push(options.temperature);
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'Yes, carefully.' },
              { type: 'text-end', id: 't' },
              {
                type: 'finish',
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: {
                  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
                  outputTokens: { total: 2, text: 2, reasoning: 0 },
                },
              },
            ],
          }),
        };
      },
    });
    writeFileSync(
      join(dir, 'cooler.jsonl'),
      JSON.stringify({
        id: 'cooler',
        fork: { from: recorded.runId, at: 'model answer #1', settings: { temperature: 0.2 } },
      }),
    );
    const [cooler] = await loadDataset(join(dir, 'cooler.jsonl'));
    const forked = await workflowTask(Shop, {
      runsDir: dir,
      studioUrl: false,
      model: answering,
    })(cooler!.input);
    expect(forked.answer).toBe('Yes, carefully.');
    expect(asked).toEqual([0.2]);
    expect(stockRuns).toBe(before);
    expect(forked.trace.forkedFrom?.change).toEqual({
      kind: 'model',
      settings: { temperature: 0.2 },
    });
  });

  it('refuses "allAgents" with a change that is not the model\'s', async () => {
    writeFileSync(
      join(dir, 'all-agents.jsonl'),
      JSON.stringify({ id: 'x', fork: { from: 'r1', at: 1, result: 'r', allAgents: true } }),
    );
    await expect(loadDataset(join(dir, 'all-agents.jsonl'))).rejects.toThrow(
      /line 1: "allAgents" goes with a fork's "model" or "settings"/,
    );
  });

  it('refuses a fork case that makes no change, naming the line', async () => {
    writeFileSync(
      join(dir, 'bad.jsonl'),
      JSON.stringify({ id: 'bad', fork: { from: 'r1', at: 1 } }),
    );
    await expect(loadDataset(join(dir, 'bad.jsonl'))).rejects.toThrow(
      /line 1: a "fork" makes one change at its record/,
    );
  });
});
