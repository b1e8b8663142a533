import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { nodesOf, onlyTrace, tempProject } from '../cli/cli-harness.js';
import { deployFlow, deployScript, postAnswer, waitingDeployRun } from './deploy-run.js';
import { openStudio } from './support.js';

// Studio's approvals route takes an edited input (`input`, with an approval) or an answer
// instead of the tool (`output`, with a denial), and the live run applies it: the deploy runs
// with the edit, or never runs and the model reads the answer.

describe('June Studio: an edited call, an answer instead of the tool', () => {
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  const deploys = () =>
    existsSync(join(project.dir, 'deploys.log'))
      ? readFileSync(join(project.dir, 'deploys.log'), 'utf8')
      : '';
  const deployNode = () =>
    nodesOf(onlyTrace(project.dir)).find((node) => node.kind === 'tool' && node.name === 'deploy')!;

  beforeAll(async () => {
    project = tempProject();
    project.write('flow.tsx', deployFlow());
    project.write('flow.script.json', deployScript);
    studio = await openStudio(join(project.dir, '.june', 'runs'));
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    project?.remove();
  });

  it('refuses an input with a denial (400); an edit runs the deploy with it', async () => {
    const run = await waitingDeployRun(project.dir, studio.url, 'studio');
    const contradicts = await postAnswer(
      run.endpoint,
      { key: run.key, approved: false, input: { env: 'qa' } },
      studio.answerToken,
    );
    expect(contradicts.status).toBe(400);
    expect(contradicts.body.error).toMatch(/^june: an approval answer is JSON/);

    const taken = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true, input: { env: 'qa' }, answeredBy: 'ana' },
      studio.answerToken,
    );
    expect(taken).toEqual({ status: 202, body: { delivered: 'live' } });
    expect((await run.running.done).code).toBe(0);
    expect(deploys()).toBe('qa\n');
    expect(deployNode().approval).toMatchObject({
      status: 'approved',
      source: 'studio',
      input: { env: 'qa' },
    });
  }, 180_000);

  it('an answer instead of the tool: the deploy never runs', async () => {
    const run = await waitingDeployRun(project.dir, studio.url, 'studio');
    const taken = await postAnswer(
      run.endpoint,
      { key: run.key, approved: false, output: 'deployed by hand' },
      studio.answerToken,
    );
    expect(taken.status).toBe(202);
    expect((await run.running.done).code).toBe(0);
    expect(deploys()).toBe(''); // the run's own log: it is removed before each run
    expect(deployNode()).toMatchObject({
      status: 'succeeded',
      output: 'deployed by hand',
      approval: { status: 'responded', output: 'deployed by hand' },
    });
  }, 180_000);
});
