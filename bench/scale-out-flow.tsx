// The short run of bench/scale-out.ts: one agent, one step; the model calls a tool once, then
// answers. Three durable steps a run (two model calls, one tool execution), on a scripted
// model that answers at once. Workers load this file (`june worker bench/scale-out-flow.tsx`).
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

const script = {
  $comment: 'Bench fixture: one tool call, then the answer',
  steps: {
    work: [{ toolCalls: [{ tool: 'note', input: { text: 'hi' } }] }, { text: 'Noted.' }],
  },
};

const note = tool({
  description: 'Note a line',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => `noted ${text}`,
});

/** Durable steps per run: two model calls and one tool execution. */
export const STEPS_PER_RUN = 3;

/**
 * The run; with `empty`, the same agent with no step (no durable step at all): the floor of
 * the per-step overhead on the same path (a worker over PostgreSQL, or one process).
 */
export default function ScaleOutFlow({ n, empty }: { n: number; empty?: boolean }) {
  return (
    <Agent model={scriptedModel(script, { name: 'bench' })}>
      <Tool name="note" value={note} />
      {empty ? null : <Step id="work" prompt={`Note entry ${n}`} />}
    </Agent>
  );
}
