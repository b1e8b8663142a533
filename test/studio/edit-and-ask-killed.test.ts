import { userInfo } from 'node:os';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/trace-node.js';
import { nodesOf, onlyTrace, startJune } from '../cli/cli-harness.js';
import {
  editedAndAnswered,
  expectRecords,
  seenCalls,
  shipProject,
  type ModelMessage,
} from '../fixtures/edit-and-ask/edit-and-ask.js';
import { postAnswer } from './deploy-run.js';
import { eventually, useStudioProject, waitingCards } from './support.js';

// One `june run` (test/fixtures/edit-and-ask/ship.tsx, its script given with --script) asks
// where 1.2.0 goes (a <Question>), then calls deploy with { env: 'staging' }, which the person
// edits to { env: 'prod' }. Its process is killed (SIGKILL) at each wait; the person answers
// in Studio's page, the question through its form and the deploy through the edit card, and
// Studio resumes the run each time. Nothing runs twice, and the run ends as one that was never
// stopped, answered through Studio's API, does.

describe('June Studio: a question and an edited call, the run killed at each wait', () => {
  const ui = useStudioProject(() => {}, { project: shipProject });
  const trace = () => onlyTrace(ui.project.dir);
  const tool = (name: string) =>
    nodesOf(trace()).find((node) => node.kind === 'tool' && node.name === name);
  const waitsFor = (name: string) =>
    eventually(() => expect(tool(name)?.approval?.status).toBe('pending'), 60_000);
  /** The pid of the process that runs the run now, from its process.json. */
  const runner = (runId: string) => {
    const file = join(ui.project.dir, '.june', 'runs', runId, 'process.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
  };
  const step = (t: Trace) => nodesOf(t).find((node) => node.kind === 'step')!;

  /** Starts the run with Studio answering, on a runs folder with no earlier run or deploy. */
  async function startRun() {
    await rm(join(ui.project.dir, '.june'), {
      recursive: true,
      force: true,
      maxRetries: 20,
      retryDelay: 100,
    });
    await rm(join(ui.project.dir, 'deploys.log'), { force: true });
    const running = startJune(
      ['run', 'ship.tsx', '--script', 'ship.script.json', '--approve', 'studio'],
      ui.project.dir,
    );
    await waitsFor('ask_env');
    return { running, runId: trace().runId };
  }

  it('answered from the page across two kills: deploys once to prod, the model sees the edit, the records keep both answers', async () => {
    // uninterrupted: the same answers through Studio's API, to the live run
    const endpointOf = (runId: string) => `${ui.studio.url}api/runs/${runId}/approvals`;
    const keyOf = async (runId: string, name: string) =>
      eventually(async () => {
        const body = await (await fetch(endpointOf(runId))).json();
        const waiting = body.waiting.find((each: { tool: string }) => each.tool === name);
        expect(waiting).toBeDefined();
        return waiting.key as string;
      }, 30_000);
    const baseline = await startRun();
    const answered = await postAnswer(
      endpointOf(baseline.runId),
      { key: await keyOf(baseline.runId, 'ask_env'), approved: false, output: 'prod' },
      ui.studio.answerToken,
    );
    expect(answered.status).toBe(202);
    await waitsFor('deploy');
    const edited = await postAnswer(
      endpointOf(baseline.runId),
      { key: await keyOf(baseline.runId, 'deploy'), approved: true, input: { env: 'prod' } },
      ui.studio.answerToken,
    );
    expect(edited.status).toBe(202);
    expect((await baseline.running.done).code).toBe(0);
    expect(ui.project.deploys()).toBe('prod\n');
    const uninterrupted = {
      result: step(trace()).result,
      lastPrompt: ui.project.modelPrompts(baseline.runId).at(-1),
    };

    // killed at the question
    const { running, runId } = await startRun();
    process.kill(running.pid, 'SIGKILL');
    expect((await running.done).signal).toBe('SIGKILL');
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    const question = ui.page.locator('[data-testid="approval-card"]', { hasText: 'ask_env' });
    await question.waitFor({ timeout: 60_000 });
    expect(await question.getByTestId('question-prompt').innerText()).toBe(
      'Where should 1.2.0 go?',
    );
    await question.getByLabel('Answer').selectOption('prod');
    await question.getByRole('button', { name: 'Send answer' }).click();

    // Studio resumed the run, which asks about the deploy: the page shows it live
    const card = ui.page.locator('[data-testid="approval-card"]', { hasText: 'deploy' });
    await card.waitFor({ timeout: 60_000 });
    // the question's card stays, saying what became of its answer
    expect(await question.getByTestId('approval-outcome').innerText()).toBe(
      'Answered: resuming the run.',
    );
    await waitsFor('deploy');
    // killed there too, with the page open
    const resumed = runner(runId);
    process.kill(resumed, 'SIGKILL');
    await eventually(() => expect(() => process.kill(resumed, 0)).toThrow(), 10_000);
    await card.getByRole('button', { name: 'Edit input' }).click();
    await card.getByLabel('Edited input (JSON)').fill('{ "env": "prod" }');
    await card.getByRole('button', { name: 'Approve with this input' }).click();
    await eventually(() => expect(trace().status).toBe('succeeded'), 60_000);

    // the tool ran once, with the edit
    expect(ui.project.deploys()).toBe('prod\n');
    // each model call made once, across three processes: the journal holds three
    const prompts = ui.project.modelPrompts(runId);
    expect(prompts).toHaveLength(3);
    // what the model saw after the edit: the edited call in its own call's place, and its result
    expect(seenCalls(prompts[2]!)).toEqual(editedAndAnswered);
    expect(prompts[2]).toEqual(uninterrupted.lastPrompt);
    expect(seenCalls(step(trace()).messages as ModelMessage[])).toMatchObject(editedAndAnswered);
    // the same end as the run that was never stopped
    expect(step(trace()).result).toBe('Shipped 1.2.0.');
    expect(step(trace()).result).toEqual(uninterrupted.result);
    // and the page shows nothing waiting any more
    await waitingCards(ui.page).first().waitFor({ state: 'detached' });

    // the records: the model's input, the edit, the answer, who gave them and through what
    expectRecords(trace(), ui.project.journal(runId), {
      source: 'studio',
      answeredBy: userInfo().username,
    });
    // the two kills: Studio resumed the run twice
    expect(ui.project.journal(runId).filter((record) => record.type === 'resume')).toHaveLength(2);
  }, 300_000);
});
