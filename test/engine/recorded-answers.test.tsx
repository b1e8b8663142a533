// Model answers a durable engine gives back, whatever recorded them: an engine over a
// database (DBOS's step outputs, say) holds rows June 0.1 wrote (AI SDK 6: `{ parts }` or
// `{ result }` in provider specification v3), and may hold one this June cannot read. The
// first are taken up again; the second fails the run with a `june:` error, never silently.
import { tool } from 'ai';
import {
  Agent,
  JuneError,
  run,
  Step,
  Tool,
  type DurableEngine,
  type DurableEngineFactory,
  type ModelAnswer,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

type Rows = Map<string, { requestHash: string; answer: unknown }>;

/** An engine keeping model answers as rows (as DBOS keeps a step's output), and running tools. */
const rowEngine =
  (rows: Rows): DurableEngineFactory =>
  async ({ runId }): Promise<DurableEngine> => ({
    runId,
    failure: undefined,
    decidesApprovals: false,
    async modelCall(call, work) {
      const key = `${call.place.step} #${call.index}`;
      const row = rows.get(key);
      if (row) return row.answer as ModelAnswer;
      const answer = await work();
      rows.set(key, { requestHash: call.requestHash, answer });
      return answer;
    },
    toolCall: (_call, work) => work(),
    needsApproval: async (_call, decide) => (await decide()) === true,
    approval: (question) => question.ask(),
    finish: async () => {},
  });

const lookup = tool({
  description: 'Look up a key',
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }) => `value of ${key}`,
});

const script = () =>
  scriptedModel({
    $comment: 'Test fixture',
    steps: {
      ask: [
        { toolCalls: [{ id: 'c1', tool: 'lookup', input: { key: 'disk' } }] },
        { text: 'The disk is full.' },
      ],
    },
  });

function Ask({ model }: { model: ReturnType<typeof script> }) {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={lookup} />
      <Step id="ask" prompt="What is the disk?" />
    </Agent>
  );
}

describe('model answers an engine gives back', () => {
  it('rows June 0.1 recorded (spec v3 parts, no version) are taken up again as they are', async () => {
    const rows: Rows = new Map();
    await run(<Ask model={script()} />, { engine: rowEngine(rows) }).result;
    expect([...rows.values()].map((row) => row.answer)).toEqual([
      expect.objectContaining({ version: 1, spec: 'v4' }),
      expect.objectContaining({ version: 1, spec: 'v4' }),
    ]);
    // the same rows as June 0.1 wrote them: text and tool calls are the same in v3 and v4
    const old: Rows = new Map(
      [...rows].map(([key, row]) => [
        key,
        { ...row, answer: { parts: (row.answer as ModelAnswer).parts } },
      ]),
    );
    const model = script();
    const result = await run(<Ask model={model} />, { engine: rowEngine(old) }).result;
    expect(result.output).toBe('The disk is full.');
    expect(model.calls).toEqual([]);
  });

  it('a row this June cannot read fails the run with model-answer-unreadable, and the model is not called', async () => {
    const rows: Rows = new Map([
      ['ask #0', { requestHash: 'h', answer: { version: 2, spec: 'v5', parts: [] } }],
    ]);
    const model = script();
    const handle = run(<Ask model={model} />, { engine: rowEngine(rows) });
    const error = await handle.result.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(JuneError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'model-answer-unreadable',
      message: `june: the recorded answer of model call 1 of step "ask" in run ${handle.runId} cannot be read: it is of the format version 2, and this June reads version 1. Take the run up again with the June version that recorded it, or start a new run.`,
    });
    expect(model.calls).toEqual([]);
  });
});
