import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunList, RunSummary } from '../../src/host/run-list.js';
import type { RunApprovals } from '../../src/host/waiting-approvals.js';
import type { Studio } from '../../src/studio/index.js';
import type { Trace } from '../../src/trace/trace-node.js';
import type { HostUnderTest } from '../host/host-contract.js';
import { folderHost, localHost, memoryHost } from '../host/hosts-under-test.js';
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

// The same API over any run host: Studio takes a host and never asks which one it has, so
// the run list, the run page and the approvals answer alike over a runs folder and over a
// host in memory (test/host/hosts-under-test.ts).
describe.each([
  ['memory', memoryHost],
  ['runs folder', folderHost],
  ['runs folder, run here', localHost],
])('June Studio over the %s run host: one answer, who gave it, one state', (_name, make) => {
  let subject: HostUnderTest;
  let studio: Studio;
  const get = async (path: string) => (await fetch(`${studio.url}${path}`)).json();
  const listed = async (runId: string) =>
    ((await get('api/runs')) as RunList).runs.find((run) => run.runId === runId) as
      RunSummary | undefined;

  beforeAll(async () => {
    subject = await make();
    studio = await openStudio(join(tmpdir(), 'june-no-runs-here'), { runHost: subject.host });
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    await subject?.close();
  });

  it('lists a waiting run as waiting, takes one answer (an edited call) with who gave it, refuses a second, and shows the end alike', async () => {
    const runId = await subject.host.start({
      workflow: subject.workflow,
      props: { mode: 'deploy' },
    });
    const endpoint = `${studio.url}api/runs/${encodeURIComponent(runId)}/approvals`;
    const decisions = await eventually(async () => {
      const body = (await (await fetch(endpoint)).json()) as RunApprovals;
      expect(body.waiting).toHaveLength(1);
      return body;
    }, 60_000);
    await eventually(async () =>
      expect(await listed(runId)).toMatchObject({ status: 'waiting', pendingApprovals: 1 }),
    );
    const key = decisions.waiting[0]!.key;
    const taken = await postAnswer(
      endpoint,
      { key, approved: true, answeredBy: 'ana@example.com', input: { env: 'staging' } },
      studio.answerToken,
    );
    expect(taken).toEqual({ status: 202, body: { delivered: 'live' } });
    const again = await postAnswer(endpoint, { key, approved: false }, studio.answerToken);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('studio-approval-unknown');

    await subject.host.result(runId);
    await eventually(async () => {
      const page = (await get(`api/runs/${encodeURIComponent(runId)}`)) as Trace;
      expect(page.status).toBe('succeeded');
      expect((await listed(runId))?.status).toBe('succeeded');
      const tool = nodesOf(page).find((node) => node.kind === 'tool');
      expect(tool?.approval).toMatchObject({
        status: 'approved',
        answeredBy: 'ana@example.com',
        input: { env: 'staging' },
      });
      expect(tool?.output).toBe('deployed staging');
    }, 10_000);
  }, 180_000);
});
