// The approval rules of spec/capabilities.md, run on ai@7: a tool's own needsApproval is
// honoured (June decides every call through one call-level toolApproval, which in ai@7
// replaces each tool's needsApproval), <RequireApproval> only adds, a grant carries the
// parent's requirement, an agent's own `toolApproval` cannot take the rules over, and an
// answer a policy gave is recorded as automatic, a person's as not. Streaming and batch,
// without and with a journal (whose engine decides too).
import { tool } from 'ai';
import {
  Agent,
  Inherit,
  RequireApproval,
  run,
  Step,
  Tool,
  type ApprovalRequest,
  type RunOptions,
  type TraceNode,
  memoryJournalStore,
} from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A tool `name` that records each run in `ran` (`name:n`), with `needsApproval` as given. */
function counted(
  name: string,
  ran: string[],
  needsApproval?: boolean | ((input: { n: number }, options: { toolCallId: string }) => boolean),
) {
  return tool({
    description: `The tool ${name}`,
    inputSchema: z.object({ n: z.number() }),
    ...(needsApproval !== undefined ? { needsApproval } : {}),
    execute: async ({ n }) => {
      ran.push(`${name}:${n}`);
      return `${name} ${n}`;
    },
  });
}

const calls = (...list: Array<[string, number]>): ScriptTurn => ({
  toolCalls: list.map(([tool, n], i) => ({ id: `c${i}_${tool}_${n}`, tool, input: { n } })),
});

const model = (steps: Record<string, ScriptTurn[]>) =>
  scriptedModel({ $comment: 'Test fixture: approval rules', steps });

function toolNodes(node: TraceNode): TraceNode[] {
  return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(toolNodes)];
}

const modes: Array<{ mode: string; options: () => Partial<RunOptions> }> = [
  { mode: 'streaming', options: () => ({}) },
  { mode: 'batch', options: () => ({ stream: false }) },
  { mode: 'streaming, journaled', options: () => ({ journal: memoryJournalStore() }) },
  { mode: 'batch, journaled', options: () => ({ stream: false, journal: memoryJournalStore() }) },
];

describe.each(modes)('approval rules on ai@7 ($mode)', ({ options }) => {
  /** Runs `workflow`, approving every request through a policy; what was asked, in order. */
  async function approvingAll(workflow: Parameters<typeof run>[0]) {
    const asked: string[] = [];
    const result = await run(workflow, {
      ...options(),
      onApproval: (request: ApprovalRequest) => {
        asked.push(`${request.tool}:${(request.input as { n: number }).n}`);
        return true;
      },
    }).result;
    return { asked, result };
  }

  it("honours a tool's own needsApproval: true asks, a function asks when it says so, none runs", async () => {
    const ran: string[] = [];
    const seen: string[] = [];
    const big = counted('big', ran, ({ n }, { toolCallId }) => {
      seen.push(toolCallId);
      return n > 10;
    });
    const { asked } = await approvingAll(
      <Agent
        model={model({
          go: [calls(['always', 1], ['plain', 2], ['big', 3], ['big', 30]), { text: 'Done.' }],
        })}
      >
        <Tool name="always" value={counted('always', ran, true)} />
        <Tool name="plain" value={counted('plain', ran)} />
        <Tool name="big" value={big} />
        <Step id="go" prompt="Go" />
      </Agent>,
    );
    expect(asked).toEqual(['always:1', 'big:30']);
    expect([...ran].sort()).toEqual(['always:1', 'big:3', 'big:30', 'plain:2']);
    // the function was asked with each call's id
    expect(seen).toEqual(expect.arrayContaining(['c2_big_3', 'c3_big_30']));
  });

  it('<RequireApproval> only adds: needsApproval false, a function saying no, or none, all wait', async () => {
    const ran: string[] = [];
    const { asked } = await approvingAll(
      <Agent
        model={model({
          go: [calls(['off', 1], ['no', 2], ['plain', 3], ['free', 4]), { text: 'Done.' }],
        })}
      >
        <RequireApproval>
          <Tool name="off" value={counted('off', ran, false)} />
          <Tool name="no" value={counted('no', ran, () => false)} />
          <Tool name="plain" value={counted('plain', ran)} />
        </RequireApproval>
        <Tool name="free" value={counted('free', ran, false)} />
        <Step id="go" prompt="Go" />
      </Agent>,
    );
    expect(asked).toEqual(['off:1', 'no:2', 'plain:3']);
    expect(ran).toContain('free:4');
  });

  it("a grant carries the parent's requirement: a wrapper's, and the tool's own function", async () => {
    const ran: string[] = [];
    const { asked } = await approvingAll(
      <Agent
        model={model({ child: [calls(['files', 1], ['big', 30], ['big', 3]), { text: 'Done.' }] })}
      >
        <RequireApproval>
          <Tool name="files" value={counted('files', ran)} />
        </RequireApproval>
        <Tool name="big" value={counted('big', ran, ({ n }) => n > 10)} />
        <Agent
          model={model({
            child: [calls(['files', 1], ['big', 30], ['big', 3]), { text: 'Done.' }],
          })}
        >
          <Inherit capabilities={['files', 'big']} />
          <Step id="child" prompt="Use the parent's tools" />
        </Agent>
      </Agent>,
    );
    expect(asked).toEqual(['files:1', 'big:30']);
    expect([...ran].sort()).toEqual(['big:3', 'big:30', 'files:1']);
  });

  it("an agent's own toolApproval setting cannot take the rules over", async () => {
    const ran: string[] = [];
    const notAsked = { toolApproval: () => 'approved' } as Record<string, unknown>;
    const { asked } = await approvingAll(
      <Agent
        model={model({ go: [calls(['always', 1], ['plain', 2]), { text: 'Done.' }] })}
        {...notAsked}
      >
        <Tool name="always" value={counted('always', ran, true)} />
        <Tool name="plain" value={counted('plain', ran)} />
        <Step id="go" prompt="Go" />
      </Agent>,
    );
    expect(asked).toEqual(['always:1']);
  });

  it("a policy's answer is recorded as automatic, a person's as not: in the events, the trace and the journal", async () => {
    const workflow = () => (
      <Agent model={model({ go: [calls(['always', 1]), { text: 'Done.' }] })}>
        <Tool name="always" value={counted('always', [], true)} />
        <Step id="go" prompt="Go" />
      </Agent>
    );
    for (const by of ['policy', 'person'] as const) {
      const journal = memoryJournalStore();
      const handle = run(workflow(), {
        ...options(),
        journal,
        ...(by === 'policy' ? { onApproval: () => true } : {}),
      });
      const answers: boolean[] = [];
      for await (const event of handle.events) {
        if (event.type === 'approval-request' && by === 'person') handle.approve(event.request.id);
        if (event.type === 'approval-response') answers.push(event.automatic);
      }
      const result = await handle.result;
      const automatic = by === 'policy';
      expect(answers).toEqual([automatic]);
      const approval = toolNodes(result.trace.root)[0]!.approval;
      expect(approval?.status).toBe('approved');
      expect(approval?.automatic ?? false).toBe(automatic);
      const records = await journal.read(handle.runId);
      expect(records.filter((record) => record.type === 'approval-answer')).toEqual([
        expect.objectContaining({ approved: true, automatic }),
      ]);
    }
  });
});
