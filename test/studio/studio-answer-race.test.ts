import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileJournalStore } from '../../src/journal/index.js';
import type { Studio } from '../../src/studio/index.js';
import { nodesOf, onlyTrace, tempProject } from '../cli/cli-harness.js';
import { deployFlow, deployScript, postAnswer, waitingDeployRun } from './deploy-run.js';
import { eventually, openStudio } from './support.js';

// Answers that reach Studio at once, for one run: exactly one is taken, the others are
// refused with 409, and a stopped run is resumed by one process only. The deploy tool logs
// each execution to deploys.log.

describe('June Studio: answers given at once to one run', () => {
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  const runs = () => join(project.dir, '.june', 'runs');
  const file = (...path: string[]) =>
    existsSync(join(project.dir, ...path)) ? readFileSync(join(project.dir, ...path), 'utf8') : '';
  const answerLines = (runId: string) =>
    file('.june', 'runs', runId, 'answers.jsonl').trim().split('\n').filter(Boolean);

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

  it('three answers at once to a stopped run: one is taken and resumes it once, the tool runs once', async () => {
    const run = await waitingRun('wait');
    process.kill(run.running.pid, 'SIGINT');
    expect((await run.running.done).code).toBe(130);
    expect(await (await fetch(run.endpoint)).json()).toMatchObject({
      state: 'stopped',
      resumable: true,
    });

    const answers = await Promise.all([
      postAnswer(run.endpoint, { key: run.key, approved: true }, studio.answerToken),
      postAnswer(run.endpoint, { key: run.key, approved: true }, studio.answerToken),
      postAnswer(run.endpoint, { key: run.key, approved: false, reason: 'no' }, studio.answerToken),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([202, 409, 409]);
    const taken = answers.find((answer) => answer.status === 202)!;
    expect(taken.body).toEqual({ delivered: 'resumed' });
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.body.code).toBe('studio-approval-unknown');
      expect(refused.body.error).toMatch(/^june: run ".+" waits for no approval of the call/);
    }
    expect(answerLines(run.runId)).toHaveLength(1);

    await eventually(() => expect(onlyTrace(project.dir).status).toBe('succeeded'), 60_000);
    const given = JSON.parse(answerLines(run.runId)[0]!) as { approved: boolean };
    expect(file('deploys.log')).toBe(given.approved ? 'staging\n' : '');
    // one resume process: one headline in the log the resumes share
    const log = file('.june', 'runs', run.runId, 'resume.log');
    expect(log.match(/resumed from its journal/g)).toHaveLength(1);
    expect(log).not.toMatch(/already being run/);
  }, 180_000);

  it('an approve and a deny at once to a live run: one 202, one 409, and the run does what was taken', async () => {
    const run = await waitingRun('studio');
    const [approve, deny] = await Promise.all([
      postAnswer(run.endpoint, { key: run.key, approved: true }, studio.answerToken),
      postAnswer(
        run.endpoint,
        { key: run.key, approved: false, reason: 'not now' },
        studio.answerToken,
      ),
    ]);
    expect([approve.status, deny.status].sort()).toEqual([202, 409]);
    const [taken, refused] = approve.status === 202 ? [approve, deny] : [deny, approve];
    expect(taken.body).toEqual({ delivered: 'live' });
    expect(refused.body.code).toBe('studio-approval-unknown');
    expect(answerLines(run.runId)).toHaveLength(1);

    const done = await run.running.done;
    expect(done.code).toBe(0);
    const approved = taken === approve;
    expect(file('deploys.log')).toBe(approved ? 'staging\n' : '');
    const tool = nodesOf(onlyTrace(project.dir)).find((node) => node.kind === 'tool');
    expect(tool?.approval?.status).toBe(approved ? 'approved' : 'denied');
  }, 180_000);

  it('a stopped run that another process holds is not answered (409 studio-run-owned)', async () => {
    const run = await waitingRun('wait');
    process.kill(run.running.pid, 'SIGINT');
    await run.running.done;
    // this process takes the run, as a june run --resume at a terminal would
    const lease = await fileJournalStore({ dir: runs() }).lease!(run.runId);
    try {
      expect(await (await fetch(run.endpoint)).json()).toMatchObject({
        state: 'stopped',
        resumable: false,
        notResumable: expect.stringMatching(/^it is being run by process \d+ on host /),
      });
      const answered = await postAnswer(
        run.endpoint,
        { key: run.key, approved: true },
        studio.answerToken,
      );
      expect(answered.status).toBe(409);
      expect(answered.body.code).toBe('studio-run-owned');
      expect(answered.body.error).toMatch(
        new RegExp(`^june: run "${run.runId}" is being run by process ${process.pid} on host `),
      );
      expect(answerLines(run.runId)).toHaveLength(0);
      expect(file('.june', 'runs', run.runId, 'resume.log')).toBe('');
    } finally {
      await lease.release();
    }
    const answered = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true },
      studio.answerToken,
    );
    expect(answered).toEqual({ status: 202, body: { delivered: 'resumed' } });
    await eventually(() => expect(onlyTrace(project.dir).status).toBe('succeeded'), 60_000);
    expect(file('deploys.log')).toBe('staging\n');
  }, 180_000);
});
