// The UI stream reads a run's log: events nest by their trace nodes, not by tool call ids
// (which providers only keep unique within one response), and the model's reasoning streams.
import type { RunLogEvent } from 'june';
import { UIChunkMapper } from 'june/web';
import { describe, expect, it } from 'vitest';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 } as never;

/** A log event with its node (times are not read). */
function log(event: Record<string, unknown>): RunLogEvent {
  return { at: 0, ...event } as RunLogEvent;
}

function call(runId: string, step: string, toolCallId: string, nodeId: string, parentId: string) {
  return log({
    type: 'tool-call',
    runId,
    step,
    toolCallId,
    tool: 'research',
    input: {},
    nodeId,
    parentId,
  });
}

describe('UIChunkMapper on a run log', () => {
  it('puts a child run under the call whose node is its parent, when two runs share a call id', () => {
    const mapper = new UIChunkMapper();
    const events = [
      log({ type: 'run-start', runId: 'R', nodeId: 'n1' }),
      log({
        type: 'step-start',
        runId: 'R',
        step: 'a',
        agent: 'x',
        prompt: '',
        nodeId: 'n2',
        parentId: 'n1',
      }),
      call('R', 'a', 'c1', 'n3', 'n2'),
      call('R', 'a', 'c2', 'n4', 'n2'),
      log({ type: 'run-start', runId: 'A', parentToolCallId: 'c1', nodeId: 'n5', parentId: 'n3' }),
      log({ type: 'run-start', runId: 'B', parentToolCallId: 'c2', nodeId: 'n6', parentId: 'n4' }),
      // both child runs' models gave their calls the same id
      call('A', 'research:f', 'd', 'n7', 'n5'),
      call('B', 'research:f', 'd', 'n8', 'n6'),
      log({ type: 'run-start', runId: 'G', parentToolCallId: 'd', nodeId: 'n9', parentId: 'n7' }),
      log({
        type: 'run-finish',
        runId: 'G',
        status: 'succeeded',
        usage,
        nodeId: 'n9',
        parentId: 'n7',
      }),
    ];
    const chunks = events.flatMap((event) => mapper.map(event));
    const runs = chunks.filter((chunk) => chunk.type === 'data-june-run');
    expect(runs.map((chunk) => chunk.data)).toEqual([
      { step: 'a', toolCallId: 'a/c1', status: 'running' },
      { step: 'a', toolCallId: 'a/c2', status: 'running' },
      // run G belongs to run A's call, the first of the two "d" calls
      { step: 'research:f', toolCallId: 'research:f/d', status: 'running' },
      { step: 'research:f', toolCallId: 'research:f/d', status: 'succeeded' },
    ]);
    expect(mapper.calls.parentOf('G')?.runId).toBe('A');
  });

  it('streams reasoning as reasoning parts, ended by the text that follows', () => {
    const mapper = new UIChunkMapper();
    const step = { runId: 'R', step: 'think', nodeId: 'n3', parentId: 'n2' };
    const chunks = [
      log({ type: 'run-start', runId: 'R', nodeId: 'n1' }),
      log({ type: 'model-start', ...step }),
      log({ type: 'reasoning-delta', ...step, delta: 'Hmm, ' }),
      log({ type: 'reasoning-delta', ...step, delta: 'two.' }),
      log({ type: 'text-delta', ...step, delta: 'Two.' }),
      log({ type: 'model-finish', ...step, model: 'm', usage, finishReason: 'stop' }),
      log({ type: 'run-finish', runId: 'R', status: 'succeeded', usage, nodeId: 'n1' }),
    ].flatMap((event) => mapper.map(event));
    expect(chunks.map((chunk) => [chunk.type, 'delta' in chunk ? chunk.delta : undefined])).toEqual(
      [
        ['start', undefined],
        ['reasoning-start', undefined],
        ['reasoning-delta', 'Hmm, '],
        ['reasoning-delta', 'two.'],
        ['reasoning-end', undefined],
        ['text-start', undefined],
        ['text-delta', 'Two.'],
        ['text-end', undefined],
      ],
    );
  });
});

describe('UIChunkMapper and requests within a call', () => {
  it("shows a served workflow's request under a call (its node under the call's) not as the call's approval: a denial there leaves the call running", () => {
    const mapper = new UIChunkMapper();
    const request = {
      id: 'call-1',
      tool: 'ship',
      input: { env: 'prod' },
      step: 'a',
      toolCallId: 'c1',
      key: 'R/a#c1/ship#0.0',
    };
    const events = [
      log({ type: 'run-start', runId: 'R', nodeId: 'n1' }),
      log({
        type: 'step-start',
        runId: 'R',
        step: 'a',
        agent: 'x',
        prompt: '',
        nodeId: 'n2',
        parentId: 'n1',
      }),
      call('R', 'a', 'c1', 'n3', 'n2'),
      log({ type: 'approval-request', runId: 'R', request, nodeId: 'n4', parentId: 'n3' }),
      log({
        type: 'approval-response',
        runId: 'R',
        id: 'call-1',
        approved: false,
        automatic: false,
        nodeId: 'n4',
        parentId: 'n3',
      }),
      log({
        type: 'tool-result',
        runId: 'R',
        toolCallId: 'c1',
        tool: 'research',
        output: 'done',
        nodeId: 'n3',
        parentId: 'n2',
      }),
    ];
    const chunks = events.flatMap((event) => mapper.map(event));
    const types = chunks.map((chunk) => chunk.type);
    expect(types).not.toContain('tool-approval-request');
    expect(types).not.toContain('tool-output-denied');
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: 'tool-output-available', output: 'done' }),
    );
  });
});
