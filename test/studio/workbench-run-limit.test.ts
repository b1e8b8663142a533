import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { WORKBENCH_PROCESSES_MAX } from '../../src/studio/process-slots.js';
import { tempProject, traces } from '../cli/cli-harness.js';
import { deployFlow, deployScript, postAnswer } from './deploy-run.js';
import { eventually, openStudio } from './support.js';
import { entries, pageHeaders, rawPost, testCatalog } from './workbench-support.js';

// The workbench starts a `june run` per start-run request: many requests at once start no
// more than WORKBENCH_PROCESSES_MAX processes, and the rest are refused (429) with a `june:`
// message, before anything is made for them. Each started run waits for its deploy's approval,
// so all of them are still running when the last request is answered; then each is denied,
// its process ends, and its slot is free again.

describe('Studio workbench: runs started at once are bounded', () => {
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  const runs = () => join(project.dir, '.june', 'runs');
  const start = { props: {}, model: { kind: 'script', path: 'flow.script.json' } };
  const startUrl = () => `${studio.url}api/workflows/flow.tsx/runs`;
  /** The runs the test started and has not yet seen end. */
  const running = new Set<string>();

  /** Denies the deploy run `runId` waits for, and waits until the run ended. */
  async function deny(runId: string): Promise<void> {
    const endpoint = `${studio.url}api/runs/${runId}/approvals`;
    const key = await eventually(async () => {
      const listed = await (await fetch(endpoint)).json();
      expect(listed.waiting).toHaveLength(1);
      return listed.waiting[0].key as string;
    }, 60_000);
    const denied = await postAnswer(endpoint, { key, approved: false }, studio.answerToken);
    expect(denied.status).toBe(202);
    await eventually(
      () => expect(traces(project.dir).get(`${runId}.json`)?.status).toBe('succeeded'),
      60_000,
    );
    running.delete(runId);
  }

  beforeAll(async () => {
    project = tempProject();
    project.write('flow.tsx', deployFlow());
    project.write('flow.script.json', deployScript);
    studio = await openStudio(runs(), { workbench: testCatalog(project.dir, { 'flow.tsx': {} }) });
  }, 120_000);
  afterAll(async () => {
    // a failed test leaves no `june run` waiting for an answer
    await Promise.allSettled([...running].map((runId) => deny(runId)));
    await studio?.close();
    project?.remove();
  }, 300_000);

  it('starts at most the limit of 100 requests sent at once; the others get 429 with a june: message', async () => {
    const headers = pageHeaders(studio.url, studio.answerToken);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => rawPost(startUrl(), start, headers)),
    );
    const started = answers.filter((answer) => answer.status === 202);
    for (const { body } of started) running.add(body.runId as string);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(started).toHaveLength(WORKBENCH_PROCESSES_MAX);
    expect(refused).toHaveLength(100 - WORKBENCH_PROCESSES_MAX);
    for (const answer of refused) {
      expect(answer.body.code).toBe('studio-runs-busy');
      expect(answer.body.error).toMatch(/^june: Studio is running 8 runs and tool calls/);
    }
    // one folder per spawned `june run` (its log), made only once a slot was taken
    const folders = entries(runs()).filter((name) => statSync(join(runs(), name)).isDirectory());
    expect(folders.sort()).toEqual([...running].sort());

    for (const runId of [...running]) await deny(runId);
    const again = await rawPost(startUrl(), start, headers);
    expect(again.status).toBe(202);
    running.add(again.body.runId as string);
    await deny(again.body.runId as string);
  }, 300_000);
});
