// A run its database cancelled writes nothing more: the trace its host gives ends it aborted
// as of its last event, says why, and counts the tokens its model calls spent so far.
import { describe, expect, it } from 'vitest';
import { cancelledTrace } from '../../src/host/cancelled-trace.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';

const usage = { inputTokens: 40, outputTokens: 10, totalTokens: 50 };

function node(kind: TraceNode['kind'], name: string, extra: Partial<TraceNode> = {}): TraceNode {
  return {
    id: name,
    kind,
    name,
    status: 'running',
    startedAt: '2026-12-07T10:00:00.000Z',
    children: [],
    ...extra,
  } as TraceNode;
}

describe('cancelledTrace', () => {
  it('ends every open node aborted, withdraws a waiting call, and names the cancel as the run error', () => {
    const deploy = node('tool', 'deploy', {
      approval: { status: 'pending', key: 'k1' },
    } as Partial<TraceNode>);
    const model = node('model', 'turn', {
      status: 'succeeded',
      endedAt: '2026-12-07T10:00:01.000Z',
      usage,
    } as Partial<TraceNode>);
    const step = node('step', 'release', { children: [model, deploy] });
    const trace = {
      runId: 'r1',
      status: 'running',
      root: node('run', 'release', { children: [step] }),
    } as Trace;

    const ended = cancelledTrace(trace, Date.parse('2026-12-07T10:00:05.000Z'));

    expect(ended.status).toBe('aborted');
    expect(ended.root.status).toBe('aborted');
    expect(ended.root.error).toMatchObject({ code: 'run-aborted' });
    expect(ended.root.error?.message).toBe(
      'june: the run was aborted: cancelled through its database (june cancel, Studio or RunClient.cancel), where it stopped',
    );
    expect(ended.root.usage).toMatchObject({ inputTokens: 40, outputTokens: 10, totalTokens: 50 });
    const [endedStep] = ended.root.children;
    expect(endedStep!.children[1]!.approval?.status).toBe('withdrawn');
    // the model call that finished stays as it ended
    expect(endedStep!.children[0]!.status).toBe('succeeded');
    expect(trace.root.status).toBe('running');
  });

  it('gives a trace that ended back as it is', () => {
    const trace = {
      runId: 'r2',
      status: 'succeeded',
      endedAt: '2026-12-07T10:00:01.000Z',
      root: node('run', 'release', { status: 'succeeded' }),
    } as Trace;
    expect(cancelledTrace(trace, Date.now())).toBe(trace);
  });
});
