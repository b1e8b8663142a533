import { Output, tool } from 'ai';
import {
  Agent,
  RequireApproval,
  run,
  Step,
  Tool,
  type RunEvent,
  type RunOptions,
  memoryJournalStore,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  description: 'Looks up a version',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => ({ name, version: '1.2' }),
});
const deployed: string[] = [];
const deploy = tool({
  description: 'Deploys',
  inputSchema: z.object({ env: z.string() }),
  execute: async ({ env }) => (deployed.push(env), `deployed to ${env}`),
});
const wipe = tool({
  description: 'Wipes a database',
  inputSchema: z.object({ db: z.string() }),
  execute: async () => 'wiped',
});
const broken = tool({
  description: 'Always fails',
  inputSchema: z.object({}),
  execute: async (): Promise<string> => {
    throw new Error('disk full');
  },
});

const script = {
  steps: {
    plan: [
      { text: 'Looking it up.', toolCalls: [{ tool: 'lookup', input: { name: 'june' } }] },
      {
        toolCalls: [
          { tool: 'deploy', input: { env: 'staging' } },
          { tool: 'wipe', input: { db: 'prod' } },
          { tool: 'broken' },
        ],
      },
      { toolCalls: [{ tool: 'research', input: { question: 'risks?' } }] },
      { text: 'Released 1.2 to staging; the wipe was denied.' },
    ],
    'research:findings': [{ text: 'No known risks.' }],
    summary: [{ object: { version: '1.2', ok: true } }],
  },
};

function Release() {
  return (
    <Agent model={scriptedModel(script)} instructions="You release software.">
      <Tool name="lookup" value={lookup} />
      <Tool name="broken" value={broken} />
      <RequireApproval>
        <Tool name="deploy" value={deploy} />
        <Tool name="wipe" value={wipe} />
      </RequireApproval>
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }: { question: string }) => (
          <Agent model={scriptedModel(script)}>
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt="Release June" />
      <Step
        id="summary"
        prompt="Summarize"
        output={Output.object({ schema: z.object({ version: z.string(), ok: z.boolean() }) })}
      />
    </Agent>
  );
}

const policy: RunOptions['onApproval'] = (request) =>
  request.tool === 'deploy' ? true : { approved: false, reason: 'never in a release' };

/**
 * The trace and events with what differs between any two runs taken out: ids, times, the run
 * id. And one thing that differs between the AI SDK's two loops: generateText puts a turn's
 * approval requests after all its tool calls in the assistant message, streamText after each
 * call; the message parts are compared in a fixed order.
 */
function comparable(value: unknown, runId: string): unknown {
  const ids = new Map<string, string>();
  const same = (id: string, prefix: string) =>
    ids.get(id) ?? (ids.set(id, `${prefix}${ids.size}`), ids.get(id)!);
  const byCall = (parts: Array<{ type: string; toolCallId?: string }>) =>
    [...parts].sort((a, b) => `${a.toolCallId}${a.type}`.localeCompare(`${b.toolCallId}${b.type}`));
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (['startedAt', 'endedAt', 'durationMs', 'at', 'answeredAt'].includes(key)) return undefined;
    if (
      key === 'content' &&
      Array.isArray(v) &&
      v.some((part) => part?.type === 'tool-approval-request')
    )
      return byCall(v);
    if (typeof v !== 'string') return v;
    if (v.startsWith(runId)) return v.replace(runId, 'RUN');
    if (key === 'id' && /^n\d+$/.test(v)) return same(v, 'node');
    if (/^aitxt-/.test(v) || key === 'approvalId') return same(v, 'approval');
    return v;
  });
}

type Node = { kind: string; name: string; status: string; children: Node[] };
/** The trace's tree: each node's kind, name and status. */
const shape = (node: Node): unknown => [
  node.kind,
  node.name,
  node.status,
  node.children.map(shape),
];

async function runOnce(stream: boolean) {
  const handle = run(<Release />, { onApproval: policy, stream });
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;
  return { result, events, runId: handle.runId };
}

describe('batch mode (stream: false)', () => {
  it("gives the same results, trace and events as streaming, a turn's text as one delta", async () => {
    const streamed = await runOnce(true);
    const batch = await runOnce(false);

    expect(batch.result.steps).toEqual({
      plan: 'Released 1.2 to staging; the wipe was denied.',
      summary: { version: '1.2', ok: true },
    });
    expect(batch.result.steps).toEqual(streamed.result.steps);
    expect(batch.result.usage).toEqual(streamed.result.usage);
    expect(comparable(batch.result.trace, batch.runId)).toEqual(
      comparable(streamed.result.trace, streamed.runId),
    );

    const withoutDeltas = (events: RunEvent[], runId: string) =>
      comparable(
        events.filter((event) => event.type !== 'text-delta'),
        runId,
      );
    expect(withoutDeltas(batch.events, batch.runId)).toEqual(
      withoutDeltas(streamed.events, streamed.runId),
    );
    const texts = (events: RunEvent[]) =>
      events.filter((event) => event.type === 'text-delta').map((event) => event.delta);
    expect(texts(batch.events)).toEqual([
      'Looking it up.',
      'No known risks.',
      'Released 1.2 to staging; the wipe was denied.',
      '{"version":"1.2","ok":true}',
    ]);
    expect(texts(streamed.events).join('')).toEqual(texts(batch.events).join(''));
  });

  it("waits for a person's approval and aborts like a streamed run", async () => {
    const handle = run(<Release />, { stream: false });
    const asked: string[] = [];
    for await (const event of handle.events) {
      if (event.type === 'approval-request' && asked.length === 0) {
        asked.push(...handle.pendingApprovals.map((request) => request.tool));
        handle.abort('stop here');
      }
    }
    expect(asked).toEqual(['deploy', 'wipe']);
    await expect(handle.result).rejects.toMatchObject({ code: 'run-aborted' });
    const trace = (await handle.result.catch((error) => error.trace)) as { status: string };
    expect(trace.status).toBe('aborted');
  });

  it('records a journal that replays in batch mode: same steps and trace, no tool runs again', async () => {
    const store = memoryJournalStore();
    const recorded = run(<Release />, { onApproval: policy, stream: false, journal: store });
    const first = await recorded.result;
    deployed.length = 0;
    const replayed = run(<Release />, {
      stream: false,
      replay: await store.read(recorded.runId),
      replayTools: true,
    });
    const again = await replayed.result;
    expect(again.steps).toEqual(first.steps);
    expect(comparable(again.trace, replayed.runId)).toMatchObject({ status: 'succeeded' });
    expect(JSON.stringify(comparable(again.trace, replayed.runId))).toContain(
      'deployed to staging',
    );
    expect(deployed).toEqual([]);
  });

  it('replays a journal recorded while streaming in batch mode, and the other way round', async () => {
    for (const [recordedStreaming, replayStreaming] of [
      [true, false],
      [false, true],
    ] as const) {
      const store = memoryJournalStore();
      const recorded = run(<Release />, {
        onApproval: policy,
        stream: recordedStreaming,
        journal: store,
      });
      const first = await recorded.result;
      const replayed = run(<Release />, {
        stream: replayStreaming,
        replay: await store.read(recorded.runId),
        replayTools: true,
      });
      const again = await replayed.result;
      expect(again.steps).toEqual(first.steps);
      expect(again.usage).toEqual(first.usage);
      expect(shape(again.trace.root)).toEqual(shape(first.trace.root));
    }
  });
});
