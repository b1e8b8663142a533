import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { nodesOf, onlyTrace, tempProject } from '../cli/cli-harness.js';
import { deployFlow, deployScript, postAnswer, waitingDeployRun } from './deploy-run.js';
import { eventually, openStudio } from './support.js';

// An answer given in Studio, to a live run and to a stopped one it resumes, is recorded as
// given through `studio`, by whom and when (the time Studio took it), in the run's trace
// (reduced from its events) and its journal.

describe('June Studio: who answered, through what and when', () => {
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  const runs = () => join(project.dir, '.june', 'runs');
  const file = (...path: string[]) =>
    existsSync(join(project.dir, ...path)) ? readFileSync(join(project.dir, ...path), 'utf8') : '';
  const lines = (...path: string[]) =>
    file(...path)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    project = tempProject();
    project.write('flow.tsx', deployFlow());
    project.write('flow.script.json', deployScript);
    studio = await openStudio(runs());
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    project?.remove();
  });

  const waitingRun = (approve: 'studio' | 'wait') =>
    waitingDeployRun(project.dir, studio.url, approve);

  /** The answer as the trace and the journal hold it, and the time Studio wrote it. */
  function recorded(runId: string) {
    const tool = nodesOf(onlyTrace(project.dir)).find((node) => node.kind === 'tool')!;
    const journal = lines('.june', 'runs', runId, 'journal.jsonl').find(
      (record) => record.type === 'approval-answer',
    );
    const [given] = lines('.june', 'runs', runId, 'answers.jsonl');
    return { trace: tool.approval, journal, given: given as { at: string; by?: string } };
  }

  it('a live run (--approve studio)', async () => {
    const run = await waitingRun('studio');
    const taken = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true, answeredBy: 'ana@example.com' },
      studio.answerToken,
    );
    expect(taken).toEqual({ status: 202, body: { delivered: 'live' } });
    expect((await run.running.done).code).toBe(0);
    const { trace, journal, given } = recorded(run.runId);
    expect(given.by).toBe('ana@example.com');
    const origin = { source: 'studio', answeredBy: 'ana@example.com', answeredAt: given.at };
    expect(trace).toMatchObject({ status: 'approved', ...origin });
    expect(trace).not.toHaveProperty('automatic');
    expect(journal).toMatchObject({ approved: true, automatic: false, ...origin });
  }, 180_000);

  it('a stopped run Studio resumes: the answer keeps the time it was given, before the resume', async () => {
    const run = await waitingRun('wait');
    process.kill(run.running.pid, 'SIGINT');
    expect((await run.running.done).code).toBe(130);
    const taken = await postAnswer(
      run.endpoint,
      { key: run.key, approved: false, reason: 'not today', answeredBy: 'bo' },
      studio.answerToken,
    );
    expect(taken).toEqual({ status: 202, body: { delivered: 'resumed' } });
    await eventually(() => expect(onlyTrace(project.dir).status).toBe('succeeded'), 60_000);
    const { trace, journal, given } = recorded(run.runId);
    const origin = { source: 'studio', answeredBy: 'bo', answeredAt: given.at };
    expect(trace).toMatchObject({ status: 'denied', reason: 'not today', ...origin });
    expect(journal).toMatchObject({ approved: false, automatic: false, ...origin });
    // given before the resumed process asked again
    const resumed = lines('.june', 'runs', run.runId, 'journal.jsonl').find(
      (record) => record.type === 'resume',
    ) as { at: string };
    expect(Date.parse(given.at)).toBeLessThanOrEqual(Date.parse(resumed.at));
  }, 180_000);

  it('answering an answered call again is refused, and the first answer stands', async () => {
    const run = await waitingRun('studio');
    const first = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true },
      studio.answerToken,
    );
    expect(first.status).toBe(202);
    const again = await postAnswer(
      run.endpoint,
      { key: run.key, approved: false },
      studio.answerToken,
    );
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/answered already/);
    expect((await run.running.done).code).toBe(0);
    expect(recorded(run.runId).trace).toMatchObject({ status: 'approved', source: 'studio' });
  }, 180_000);
});
