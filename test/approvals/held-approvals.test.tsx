// A model turn that asks for two approvals: the step goes on once both are answered, so a
// call answered first is held. Its trace node waits (approved, not running) until the other
// request is answered, whoever answered first (a policy, the handle), with or without a
// journal, streaming or batch; then both calls run.
import { tool } from 'ai';
import {
  memoryJournalStore,
  Agent,
  applyEvent,
  liveTrace,
  run,
  Step,
  Tool,
  type ApprovalPolicy,
  type RunLogEvent,
  type RunOptions,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

function refunds(ran: string[]) {
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => (ran.push(order), `refunded ${order}`),
  });
  const model = scriptedModel({
    $comment: 'Test fixture: two approvals in one turn',
    steps: {
      refunds: [
        {
          toolCalls: [
            { tool: 'refund', input: { order: 'A1' } },
            { tool: 'refund', input: { order: 'B2' } },
          ],
        },
        { text: 'Both handled.' },
      ],
    },
  });
  return (
    <Agent model={model}>
      <Tool name="refund" value={refund} />
      <Step id="refunds" prompt="Refund A1 and B2" />
    </Agent>
  );
}

function toolNodes(node: TraceNode): TraceNode[] {
  return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(toolNodes)];
}

/** The tool node of the refund of `order`. */
const refundOf = (root: TraceNode, order: string) =>
  toolNodes(root).find((node) => (node.input as { order?: string }).order === order)!;

const modes: Array<{ mode: string; options: () => Partial<RunOptions> }> = [
  { mode: 'streaming', options: () => ({}) },
  { mode: 'batch', options: () => ({ stream: false }) },
  { mode: 'streaming, journaled', options: () => ({ journal: memoryJournalStore() }) },
  { mode: 'batch, journaled', options: () => ({ stream: false, journal: memoryJournalStore() }) },
];

const approveA1: ApprovalPolicy = (request) =>
  (request.input as { order: string }).order === 'A1' ? true : undefined;

describe.each(modes)('a call answered while its turn waits ($mode)', ({ options }) => {
  it('is held: its node waits approved, the run waits for the other one, then both run', async () => {
    const ran: string[] = [];
    const handle = run(refunds(ran), { ...options(), onApproval: approveA1 });
    const log: RunLogEvent[] = [];
    let b2: string | undefined;
    for await (const event of handle.events) {
      log.push(event);
      if (event.type !== 'approval-request') continue;
      if ((event.request.input as { order: string }).order === 'B2') b2 = event.request.id;
      const trace = handle.trace();
      const a1 = refundOf(trace.root, 'A1');
      if (b2 === undefined || a1.approval?.status !== 'approved') continue;
      // A1 was approved, B2 waits: A1 is held, not running
      expect(a1).toMatchObject({ status: 'waiting', approval: { status: 'approved' } });
      expect(refundOf(trace.root, 'B2')).toMatchObject({
        status: 'waiting',
        approval: { status: 'pending' },
      });
      expect(handle.pendingApprovals.map((request) => request.id)).toEqual([b2]);
      expect(ran).toEqual([]);
      // a follower reducing the events alone sees the same
      const followed = liveTrace();
      for (const seen of log) applyEvent(followed, seen);
      expect(refundOf(followed.trace!.root, 'A1').status).toBe('waiting');
      handle.approve(b2);
    }
    const result = await handle.result;
    expect(result.output).toBe('Both handled.');
    expect(ran.sort()).toEqual(['A1', 'B2']);
    for (const order of ['A1', 'B2'])
      expect(refundOf(result.trace.root, order)).toMatchObject({
        status: 'succeeded',
        approval: { status: 'approved' },
      });
  });

  it('runs the turn at once when the last answer comes: nothing stays held', async () => {
    const ran: string[] = [];
    const handle = run(refunds(ran), { ...options() });
    const seen: string[] = [];
    for await (const event of handle.events) {
      if (event.type === 'approval-request') seen.push(event.request.id);
      if (seen.length !== 2 || event.type !== 'approval-request') continue;
      handle.approve(seen[0]!);
      const a1 = toolNodes(handle.trace().root).find((node) => node.approval?.id === seen[0])!;
      expect(a1.status).toBe('waiting');
      handle.deny(seen[1]!, 'not B2');
      const nodes = toolNodes(handle.trace().root);
      expect(nodes.find((node) => node.approval?.id === seen[0])!.status).toBe('running');
    }
    await handle.result;
    expect(ran).toEqual(['A1']);
  });
});
