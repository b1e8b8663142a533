import { tool } from 'ai';
import {
  Agent,
  Guard,
  memoryJournalStore,
  run,
  Step,
  subtreeCost,
  Tool,
  type JournalRecord,
  type RunEvent,
  type TraceNode,
} from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from 'june/testing';
import { scriptModel } from '../helpers/mock-stream-model.js';
import { collect, firstEvent, isApprovalRequest, turnModel } from '../durable/support.js';

/** A judge model that escalates every call, counting its calls. */
const escalatingJudge = () =>
  scriptModel([
    {
      text: JSON.stringify({ action: 'escalate', reason: 'a deploy to prod' }),
      usage: [30, 7],
    },
  ]);

function deployTool() {
  const ran: string[] = [];
  const deploy = tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
    execute: async ({ env }) => {
      ran.push(env);
      return `deployed to ${env}`;
    },
  });
  return { deploy, ran };
}

function Ship({ judge, deploy }: { judge: ReturnType<typeof scriptModel>; deploy: unknown }) {
  return (
    <Guard
      name="release-judge"
      judge={{ model: judge, instructions: 'Escalate deploys to prod; allow the rest.' }}
      on={['tool-input']}
    >
      <Agent
        model={turnModel({
          ship: [
            { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
            { text: 'Deployed to prod.' },
          ],
        })}
      >
        <Tool name="deploy" value={deploy as ReturnType<typeof deployTool>['deploy']} />
        <Step id="ship" prompt="Deploy to prod" />
      </Agent>
    </Guard>
  );
}

const guardsOfTool = (root: TraceNode): TraceNode['guards'] => {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.kind === 'tool') return node.guards;
    stack.push(...node.children);
  }
  return undefined;
};

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch', stream: false },
])('an LLM-judge <Guard> ($mode)', ({ stream }) => {
  it('is asked once; a resume past its decision and a replay ask it 0 times', async () => {
    const store = memoryJournalStore();
    const { deploy, ran } = deployTool();

    // the first process: the judge escalates, the call waits; the process stops
    const judge = escalatingJudge();
    const first = run(<Ship judge={judge} deploy={deploy} />, { journal: store, stream });
    const { request } = await firstEvent(first, isApprovalRequest);
    expect(request.guard).toEqual({
      name: 'release-judge',
      declaration: '<Guard name="release-judge">',
      reason: 'a deploy to prod',
    });
    expect(judge.calls).toBe(1);
    expect(ran).toEqual([]);
    first.abort('the process stopped');
    await first.result.catch(() => {});

    // the decision and the judge's model call are the guard's records
    const records = await store.read(first.runId);
    expect(
      records.flatMap((record) =>
        record.type === 'tool-call' || record.type === 'model-call'
          ? [[record.type, record.step, record.type === 'tool-call' ? record.tool : record.index]]
          : [],
      ),
    ).toEqual([
      ['model-call', 'ship', 0],
      ['model-call', 'ship@release-judge', 0],
      ['tool-call', 'ship', 'june-guards'],
    ]);

    // the request's record keeps who escalated it, and why: the approval's audit trail
    expect(records.find((record) => record.type === 'approval-request')).toMatchObject({
      tool: 'deploy',
      guard: {
        name: 'release-judge',
        declaration: '<Guard name="release-judge">',
        reason: 'a deploy to prod',
      },
    });

    // a new process takes the run up: the judge is not asked again; the call waits again
    const again = escalatingJudge();
    const resumed = run(<Ship judge={again} deploy={deploy} />, {
      journal: store,
      resume: first.runId,
      stream,
    });
    const waiting = await firstEvent(resumed, isApprovalRequest);
    expect(waiting.request.guard?.reason).toBe('a deploy to prod');
    resumed.approve(waiting.request.id, { answeredBy: 'ana' });
    const result = await resumed.result;
    expect(again.calls).toBe(0);
    expect(ran).toEqual(['prod']);
    expect(result.output).toBe('Deployed to prod.');
    expect(guardsOfTool(result.trace.root)).toEqual([
      {
        guard: 'release-judge',
        declaration: '<Guard name="release-judge">',
        check: 'tool-input',
        action: 'escalate',
        reason: 'a deploy to prod',
        replayed: true,
        usage: expect.objectContaining({ inputTokens: 30, outputTokens: 7 }),
      },
    ]);
    // the judge's tokens count for the run
    expect(result.usage.inputTokens).toBeGreaterThanOrEqual(30);

    // a replay of the finished run: the judge is not asked either
    const recording: JournalRecord[] = await store.read(first.runId);
    const replayJudge = escalatingJudge();
    const replayed = run(<Ship judge={replayJudge} deploy={deployTool().deploy} />, {
      replay: recording,
      replayTools: true,
      stream,
    });
    const { events, done } = collect(replayed);
    expect((await replayed.result).output).toBe('Deployed to prod.');
    await done;
    expect(replayJudge.calls).toBe(0);
    expect(
      events.filter(
        (event): event is Extract<RunEvent, { type: 'guard-decision' }> =>
          event.type === 'guard-decision',
      ),
    ).toMatchObject([{ guard: 'release-judge', action: 'escalate', replayed: true }]);
  });

  it("is priced like a step's calls: its cost is the decision's, counted in the run's, the same on replay", async () => {
    const store = memoryJournalStore();
    const { deploy } = deployTool();
    // USD per million tokens: 30 tokens in at 1, 7 out at 10
    const prices = { 'mock-provider:mock-model-id': { inputPerMTok: 1, outputPerMTok: 10 } };
    const handle = run(<Ship judge={escalatingJudge()} deploy={deploy} />, {
      journal: store,
      stream,
      prices,
      onApproval: () => true,
      guardEscalations: 'on-approval',
    });
    const result = await handle.result;
    const cost = 30e-6 + 70e-6;
    expect(guardsOfTool(result.trace.root)?.[0]?.costUsd).toBeCloseTo(cost, 12);
    expect(subtreeCost(result.trace.root)).toMatchObject({ calls: 3 });
    expect(subtreeCost(result.trace.root).usd).toBeCloseTo(cost, 12);

    // a replay reports what the judge cost, though the prices changed since
    const replayed = await run(<Ship judge={escalatingJudge()} deploy={deployTool().deploy} />, {
      replay: await store.read(handle.runId),
      replayTools: true,
      stream,
      prices: { 'mock-provider:mock-model-id': { inputPerMTok: 100, outputPerMTok: 100 } },
    }).result;
    expect(subtreeCost(replayed.trace.root).usd).toBeCloseTo(cost, 12);
  });

  it('a replay that runs its tools still answers the judge from the recording', async () => {
    const store = memoryJournalStore();
    const { deploy } = deployTool();
    const handle = run(<Ship judge={escalatingJudge()} deploy={deploy} />, {
      journal: store,
      stream,
    });
    const { request } = await firstEvent(handle, isApprovalRequest);
    handle.approve(request.id);
    await handle.result;
    const judge = escalatingJudge();
    const tools = deployTool();
    const replayed = run(<Ship judge={judge} deploy={tools.deploy} />, {
      replay: await store.read(handle.runId),
      stream,
    });
    expect((await replayed.result).output).toBe('Deployed to prod.');
    expect(judge.calls).toBe(0);
    expect(tools.ran).toEqual(['prod']);
  });
});

describe('a judge under a run-wide model', () => {
  it('is answered by the run\'s model (a script) under the step "<step>@<guard>"', async () => {
    const { deploy, ran } = deployTool();
    const model = scriptedModel({
      steps: {
        ship: [
          { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
          { text: 'The judge said no.' },
        ],
        'ship@release-judge': [{ object: { action: 'reject', reason: 'not on a Friday' } }],
      },
    });
    const result = await run(<Ship judge={escalatingJudge()} deploy={deploy} />, { model }).result;
    expect(ran).toEqual([]);
    expect(result.output).toBe('The judge said no.');
    model.assertAllTurnsUsed();
  });
});
