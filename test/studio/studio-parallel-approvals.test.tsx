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
import { eventually, openStudio, runsDir } from './support.js';

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

  beforeAll(async () => {
    dir = await runsDir();
    studio = await openStudio(dir);
  }, 120_000);
  afterAll(async () => {
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
    } finally {
      await answers.close();
    }
  }, 180_000);
});
