// questionsIn reads what a run asked and how each question ended, child runs included.
import type { Trace, TraceNode } from 'june';
import { questionsIn } from 'june/evals';
import { describe, expect, it } from 'vitest';

const at = '2026-12-01T09:00:00.000Z';
const asked = { prompt: 'Where?', answerSchema: { type: 'string', enum: ['staging', 'prod'] } };

function node(kind: TraceNode['kind'], name: string, extra: Partial<TraceNode> = {}): TraceNode {
  return { id: name, kind, name, status: 'succeeded', startedAt: at, children: [], ...extra };
}

function trace(root: TraceNode): Trace {
  return { version: 1, runId: 'r1', status: 'succeeded', startedAt: at, root };
}

describe('questionsIn', () => {
  it('lists questions only, with their answer, denial, wait or withdrawal, in order', () => {
    const question = (id: string, approval: Partial<NonNullable<TraceNode['approval']>>) =>
      node('tool', 'ask_env', {
        id,
        approval: { id, kind: 'question', question: asked, status: 'pending', ...approval },
      });
    const step = node('step', 'release', {
      step: 'release',
      children: [
        question('a', { status: 'responded', output: 'prod', source: 'studio', answeredBy: 'ana' }),
        question('b', {
          status: 'denied',
          reason: 'no answer within 500 ms',
          source: 'timeout',
          automatic: true,
        }),
        question('c', { status: 'pending' }),
        question('d', { status: 'withdrawn' }),
        node('tool', 'deploy', { approval: { id: 'e', status: 'approved' } }),
      ],
    });
    expect(questionsIn(trace(node('run', 'run', { children: [step] })))).toEqual([
      expect.objectContaining({
        step: 'release',
        status: 'answered',
        answer: 'prod',
        answeredBy: 'ana',
        automatic: false,
      }),
      expect.objectContaining({
        status: 'denied',
        reason: 'no answer within 500 ms',
        source: 'timeout',
        automatic: true,
      }),
      expect.objectContaining({
        status: 'pending',
        prompt: 'Where?',
        answerSchema: asked.answerSchema,
      }),
      expect.objectContaining({ status: 'withdrawn' }),
    ]);
  });
});
