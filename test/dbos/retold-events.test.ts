// A follower of a run over DBOS matches the events a recovered run tells again by what they
// concern (node, type, and their count at that node), not by their position: a recovery that
// does concurrent work in another order gives each event once, and streamed text once.
import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from 'june';
import { RetoldEvents } from '../../src/dbos/retold-events.js';

const at = 1;
const runStart = (runId: string, nodeId: string, parentId?: string): RunLogEvent => ({
  type: 'run-start',
  runId,
  nodeId,
  ...(parentId ? { parentId } : {}),
  at,
});
const toolCall = (nodeId: string, runId = 'r'): RunLogEvent => ({
  type: 'tool-call',
  runId,
  step: 'go',
  toolCallId: nodeId,
  tool: 'work',
  input: {},
  nodeId,
  parentId: 'step',
  at,
});
const delta = (delta: string): RunLogEvent => ({
  type: 'text-delta',
  runId: 'r',
  step: 'go',
  delta,
  nodeId: 'model',
  at,
});

function given(retold: RetoldEvents, events: RunLogEvent[]): RunLogEvent[] {
  return events.flatMap((event) => {
    const taken = retold.take(event);
    return taken ? [taken] : [];
  });
}

describe('the events a recovered run tells again', () => {
  it('are given once, whatever order the recovery tells them in', () => {
    const retold = new RetoldEvents();
    retold.telling();
    expect(given(retold, [runStart('r', 'root'), toolCall('b'), toolCall('a')])).toHaveLength(3);
    retold.telling();
    const again = given(retold, [
      runStart('r', 'root'),
      toolCall('a'),
      toolCall('b'),
      toolCall('c'),
    ]);
    expect(again.map((event) => event.nodeId)).toEqual(['c']);
  });

  it('give streamed text past what was given only, however it is cut', () => {
    const retold = new RetoldEvents();
    retold.telling();
    expect(given(retold, [delta('Hel'), delta('lo')]).map((e) => 'delta' in e && e.delta)).toEqual([
      'Hel',
      'lo',
    ]);
    retold.telling();
    expect(
      given(retold, [delta('Hello, wor'), delta('ld')]).map((e) => 'delta' in e && e.delta),
    ).toEqual([', wor', 'ld']);
  });

  it("keep each child run's first id, and a new child run never takes one given to another", () => {
    const retold = new RetoldEvents();
    retold.telling();
    given(retold, [runStart('r', 'root'), runStart('r.1', 'x', 'cx'), toolCall('tx', 'r.1')]);
    retold.telling();
    const again = given(retold, [
      runStart('r', 'root'),
      runStart('r.1', 'y', 'cy'),
      runStart('r.2', 'x', 'cx'),
      toolCall('tx', 'r.2'),
      toolCall('ty', 'r.1'),
    ]);
    expect(again.map((event) => [event.type, event.runId])).toEqual([
      ['run-start', 'r.2'],
      ['tool-call', 'r.2'],
    ]);
    // x keeps r.1; y, new, is shown as r.2 (r.1 was x's)
    expect(given(retold, [toolCall('tx2', 'r.2')])[0]?.runId).toBe('r.1');
  });
});
