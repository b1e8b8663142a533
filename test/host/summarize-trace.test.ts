import { describe, expect, it } from 'vitest';
import { summarizeTrace } from '../../src/host/summarize-trace.js';
import type { Trace } from 'june';

const at = '2026-11-30T12:00:00.000Z';
const trace = (failures?: { tools: number; caught: number }): Trace => ({
  version: 1,
  runId: 'r1',
  status: 'succeeded',
  startedAt: at,
  endedAt: at,
  root: {
    id: 'n1',
    kind: 'run',
    name: 'report',
    status: 'succeeded',
    startedAt: at,
    endedAt: at,
    children: [],
    ...(failures ? { failures } : {}),
  },
});

describe("Studio's run list", () => {
  it('says what failed inside a run that succeeded', () => {
    expect(summarizeTrace(trace({ tools: 1, caught: 0 }), 'r1.json', at)).toMatchObject({
      status: 'succeeded',
      failures: { tools: 1, caught: 0 },
    });
  });

  it('has no failures for a run where nothing failed', () => {
    expect(summarizeTrace(trace(), 'r1.json', at)).not.toHaveProperty('failures');
  });

  it('counts the failed calls whose child run failed, and the approvals a run waits for', () => {
    const withChild = trace({ tools: 1, caught: 0 });
    const child = trace();
    child.status = child.root.status = 'failed';
    withChild.root.children.push(
      {
        id: 'n2',
        kind: 'tool',
        name: 'research',
        status: 'failed',
        startedAt: at,
        children: [],
        output: { trace: child },
      },
      {
        id: 'n3',
        kind: 'tool',
        name: 'deploy',
        status: 'waiting',
        startedAt: at,
        children: [],
        approval: { id: 'a1', status: 'pending' },
      },
    );
    expect(summarizeTrace(withChild, 'r1.json', at)).toMatchObject({
      failures: { tools: 1, caught: 0, childRuns: 1 },
      pendingApprovals: 1,
      nodeCount: 4,
    });
  });
});
