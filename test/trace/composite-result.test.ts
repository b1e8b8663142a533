import { describe, expect, it } from 'vitest';
import { childRunOf, modelOutputOf } from '../../src/trace/composite-result.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';

const trace = {
  version: 1,
  runId: 'child',
  status: 'running',
  startedAt: '2026-11-30T12:00:00.000Z',
  root: { kind: 'run', name: 'Research', status: 'running', children: [] },
} as unknown as Trace;
const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
const toolNode = (output: unknown) =>
  ({
    kind: 'tool',
    name: 'research',
    status: 'succeeded',
    children: [],
    output,
  }) as unknown as TraceNode;

describe("a composite call's result: one reader for the printer, spans, the UI stream and Studio", () => {
  it('the model saw the output of a finished child run, nothing of one still running or failed', () => {
    expect(modelOutputOf({ output: 'found 3 issues', trace, usage })).toBe('found 3 issues');
    expect(modelOutputOf({ trace, usage })).toBeUndefined();
  });

  it("leaves a plain tool's output as it is, even one with an output field", () => {
    expect(modelOutputOf({ rows: 3 })).toEqual({ rows: 3 });
    expect(modelOutputOf({ output: 'x', trace: 'not a run' })).toEqual({
      output: 'x',
      trace: 'not a run',
    });
    expect(modelOutputOf('text')).toBe('text');
  });

  it('finds the child run of a composite call node only', () => {
    expect(childRunOf(toolNode({ output: 'ok', trace, usage }))).toBe(trace);
    expect(childRunOf(toolNode({ rows: 3 }))).toBeUndefined();
    expect(
      childRunOf({ ...toolNode({ trace, usage }), kind: 'step' } as TraceNode),
    ).toBeUndefined();
  });
});
