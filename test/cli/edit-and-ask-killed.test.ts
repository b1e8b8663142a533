// One `june run` on a real terminal that asks a <Question> and has a person edit a tool call
// before it runs (test/fixtures/edit-and-ask: the model asks which version to ship, asks to
// deploy to staging, and the person makes it prod). The run is killed with SIGKILL while the
// question or the approval waits, and `june run --resume` on a terminal takes it up (or
// `june approve --input` gives the edit to the stopped run, which a resume then takes):
// nothing is asked or called twice, the deploy runs once with the edit, and the run ends as
// the same run answered without the kill does.
import { copyFileSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { JournalRecord, Trace } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  afterTheEdit,
  deploys,
  expectEditedAndAnsweredTrace,
  modelCallsReplayed,
  outcome,
  tool,
} from '../fixtures/edit-and-ask/expected.js';
import { waitUntil } from '../mcp/support.js';
import {
  june,
  juneOnTerminal,
  onlyTrace,
  repoRoot,
  startJune,
  tempProject,
} from './cli-harness.js';

const fixture = join(repoRoot, 'test', 'fixtures', 'edit-and-ask');
const args = [
  'run',
  join(fixture, 'release.tsx'),
  '--script',
  join(fixture, 'release.script.json'),
];
/** The last choice of a question's prompt: once it is on screen, the prompt takes keys. */
const QUESTION = 'd) Decline (with a reason for the model)';
/** The last choice of a tool call's approval prompt. */
const APPROVAL = 'a) Answer instead of the tool';
/** Ctrl-U: clears the prompt's line (an edit starts from the model's input). */
const CLEAR = '\u0015';
const answerQuestion = [
  { when: 'Which version should ship?', type: '' },
  { when: QUESTION, type: 'a\r' },
  { when: 'Answer:', type: '1.3.0\r' },
];
const editDeploy = [
  { when: APPROVAL, type: 'e\r' },
  { when: 'Input to run the call with (JSON)', type: `${CLEAR}{"env":"prod"}\r` },
];
/** Who answers at the terminal: the user the process runs as. */
const person = { source: 'terminal', answeredBy: userInfo().username };

let project: ReturnType<typeof tempProject>;
let straight: { cwd: string; screen: string; trace: Trace; journal: JournalRecord[] };
beforeAll(async () => {
  project = tempProject();
  const cwd = project.folder('straight');
  const { code, screen } = await juneOnTerminal(args, cwd, [...answerQuestion, ...editDeploy]);
  expect(code).toBe(0);
  const trace = onlyTrace(cwd);
  straight = { cwd, screen, trace, journal: journalOf(cwd, trace.runId) };
}, 60_000);
afterAll(() => project?.remove());

function journalOf(cwd: string, runId: string): JournalRecord[] {
  return readFileSync(join(cwd, '.june', 'runs', runId, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);
}

/** Whether the trace file in `cwd` shows the deploy waiting for an answer. */
const deployWaits = (cwd: string) => () => {
  try {
    return tool(onlyTrace(cwd), 'deploy')?.status === 'waiting';
  } catch {
    return false; // not written yet, or being written
  }
};

const recordsOf = <T extends JournalRecord['type']>(records: JournalRecord[], type: T) =>
  records.filter((record): record is Extract<JournalRecord, { type: T }> => record.type === type);

/**
 * The asserted facts of a finished run of the fixture in `cwd`, answered at the terminal (or
 * as `origin` says).
 */
function expectEditedAndAnswered(
  cwd: string,
  origin: { source?: string; answeredBy: string } = person,
) {
  // the tool ran once, with the edit
  expect(deploys(cwd)).toEqual([{ env: 'prod' }]);

  const trace = onlyTrace(cwd);
  expectEditedAndAnsweredTrace(trace, origin);

  // the journal: the model's input and the question as asked, the edit and the answer with who gave them
  const journal = journalOf(cwd, trace.runId);
  const requests = recordsOf(journal, 'approval-request');
  expect(requests).toMatchObject([
    {
      tool: 'ask_version',
      toolCallId: 'call_ask',
      input: {},
      question: { prompt: 'Which version should ship?' },
    },
    { tool: 'deploy', toolCallId: 'call_deploy', input: { env: 'staging' } },
  ]);
  const answers = recordsOf(journal, 'approval-answer');
  expect(answers).toMatchObject([
    { toolCallId: 'call_ask', approved: false, output: '1.3.0', automatic: false, ...origin },
    {
      toolCallId: 'call_deploy',
      approved: true,
      input: { env: 'prod' },
      automatic: false,
      ...origin,
    },
  ]);
  expect(answers[0]).not.toHaveProperty('input');
  expect(answers[1]).not.toHaveProperty('output');
  expect(recordsOf(journal, 'tool-call')).toMatchObject([
    { tool: 'deploy', input: { env: 'prod' }, output: 'Deployed to prod' },
  ]);
  // each of the three model calls made once; the one after the edit reads the edited call and its result
  const calls3 = recordsOf(journal, 'model-call');
  expect(calls3.map((call) => call.index)).toEqual([0, 1, 2]);
  expect((calls3[2]!.request as { prompt: unknown }).prompt).toEqual(afterTheEdit);
  expect(journal.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
  return { trace, journal };
}

describe('june run on a terminal: a question, an edited call, and a kill -9 at the wait', () => {
  it('without a kill: the deploy runs once with the edit, the model reads the edited call, the records keep both answers', () => {
    expectEditedAndAnswered(straight.cwd);
    // the answer to the question is no denial, and the edit is said
    expect(straight.screen).toContain('✓ answered ask_version');
    expect(straight.screen).toContain('✓ approved deploy with an edited input');
    expect(straight.screen).not.toContain('denied');
    expect(modelCallsReplayed(straight.trace)).toEqual([false, false, false]);
  });

  it('killed while the deploy waits: --resume asks only the deploy, runs it once with the edit, and ends as without the kill', async () => {
    const cwd = project.folder('killed-at-approval');
    const first = await juneOnTerminal(args, cwd, answerQuestion, { killAt: APPROVAL });
    expect(first.killed).toBe(true);
    expect(first.code).toBe(137); // script ends as its command did: SIGKILL
    expect(first.screen).toMatch(/\? .*deploy.* needs approval/);
    const runId = /· run (\S+)/.exec(first.screen)![1]!;
    expect(deploys(cwd)).toEqual([]);
    const before = journalOf(cwd, runId);
    expect(before.at(-1)).toMatchObject({ type: 'approval-request', tool: 'deploy' });
    expect(recordsOf(before, 'model-call')).toHaveLength(2);
    expect(recordsOf(before, 'approval-answer')).toMatchObject([
      { toolCallId: 'call_ask', output: '1.3.0', ...person },
    ]);

    const second = await juneOnTerminal([...args, '--resume', runId], cwd, editDeploy);
    expect(second.code).toBe(0);
    expect(second.screen).toContain(`run ${runId} · resumed from its journal`);
    // the question is not asked again, and the script has no turn left over
    expect(second.screen).not.toContain(QUESTION);
    expect(second.screen).not.toContain('june: warning');

    const { trace, journal } = expectEditedAndAnswered(cwd);
    expect(trace.runId).toBe(runId);
    const resumeAt = journal.findIndex((record) => record.type === 'resume');
    expect(resumeAt).toBeGreaterThan(0);
    expect(recordsOf(journal.slice(resumeAt), 'model-call').map((call) => call.index)).toEqual([2]);
    expect(modelCallsReplayed(trace)).toEqual([true, true, false]);
    expect(recordsOf(journal.slice(resumeAt), 'approval-answer')).toHaveLength(1);
    // the question's answer was read from the journal: who gave it, and when, as recorded
    expect(tool(trace, 'ask_version').approval).toMatchObject({
      replayed: true,
      ...person,
      answeredAt: recordsOf(before, 'approval-answer')[0]!.answeredAt,
    });
    // what the model was asked, call by call, and how the run ended: as without the kill
    const hashes = (records: JournalRecord[]) =>
      recordsOf(records, 'model-call').map((call) => call.requestHash);
    expect(hashes(journal)).toEqual(hashes(straight.journal));
    expect(outcome(trace)).toEqual(outcome(straight.trace));
  }, 60_000);

  it('killed while the question waits: --resume asks it, then the deploy, and ends as without the kill', async () => {
    const cwd = project.folder('killed-at-question');
    const first = await juneOnTerminal(args, cwd, [], { killAt: QUESTION });
    expect(first.killed).toBe(true);
    expect(first.code).toBe(137); // script ends as its command did: SIGKILL
    expect(first.screen).toContain('Which version should ship?');
    const runId = /· run (\S+)/.exec(first.screen)![1]!;
    const before = journalOf(cwd, runId);
    expect(before.at(-1)).toMatchObject({ type: 'approval-request', tool: 'ask_version' });
    expect(recordsOf(before, 'model-call')).toHaveLength(1);

    const second = await juneOnTerminal([...args, '--resume', runId], cwd, [
      ...answerQuestion,
      ...editDeploy,
    ]);
    expect(second.code).toBe(0);
    expect(second.screen).not.toContain('june: warning');

    const { trace, journal } = expectEditedAndAnswered(cwd);
    const resumeAt = journal.findIndex((record) => record.type === 'resume');
    expect(recordsOf(journal.slice(resumeAt), 'model-call').map((call) => call.index)).toEqual([
      1, 2,
    ]);
    expect(modelCallsReplayed(trace)).toEqual([true, false, false]);
    expect(outcome(trace)).toEqual(outcome(straight.trace));
  }, 60_000);

  it('killed while the deploy waits, the edit given with june approve: the resumed run asks nothing and runs the deploy once with it', async () => {
    const cwd = project.folder('approved-after-kill');
    // june approve resumes a stopped run of a workflow file inside the project only
    for (const name of ['release.tsx', 'release.script.json'])
      copyFileSync(join(fixture, name), join(cwd, name));
    // --approve wait: the run waits for june approve (or Studio), and can be resumed by it
    const running = startJune(
      ['run', 'release.tsx', '--script', 'release.script.json', '--approve', 'wait'],
      cwd,
    );
    const printed = (text: string) => () => running.output().stdout.includes(text);
    await waitUntil(printed('? ask_version asks'), 'the question to wait', 30_000);
    const runId = /· run (\S+)/.exec(running.output().stdout)![1]!;
    const answered = await june(['approve', runId, '--all', '--answer', '"1.3.0"'], cwd);
    expect(answered.stdout).toMatch(/^answered the question \S+ of run /);
    await waitUntil(printed('? deploy needs approval'), 'the deploy to wait', 30_000);
    // june approve reads the wait from the trace file
    await waitUntil(deployWaits(cwd), 'the trace to show the deploy waiting', 10_000);
    process.kill(running.pid, 'SIGKILL');
    expect((await running.done).signal).toBe('SIGKILL');
    expect(deploys(cwd)).toEqual([]);

    const edited = await june(['approve', runId, '--all', '--input', '{"env":"prod"}'], cwd);
    expect(edited.stderr).toBe('');
    expect(edited.stdout).toMatch(
      new RegExp(`^approved \\S+ of run ${runId} with an edited input\nresumed run ${runId}\n$`),
    );
    expect(edited.code).toBe(0);
    // the run goes on in a process of its own, which ends with the run
    const ended = () => {
      try {
        return onlyTrace(cwd).status === 'succeeded';
      } catch {
        return false; // being written
      }
    };
    await waitUntil(ended, 'the resumed run to end', 60_000);

    // who answered, and through what: june approve writes its answers to the run's answers
    // file as its own (`source: 'cli'`)
    const byApprove = { source: 'cli', answeredBy: userInfo().username };
    const { trace, journal } = expectEditedAndAnswered(cwd, byApprove);
    const resumeAt = journal.findIndex((record) => record.type === 'resume');
    expect(recordsOf(journal.slice(resumeAt), 'model-call').map((call) => call.index)).toEqual([2]);
    expect(recordsOf(journal.slice(resumeAt), 'approval-request')).toEqual([]);
    expect(modelCallsReplayed(trace)).toEqual([true, true, false]);
    // as without the kill, but for through what the answers came
    const anySource = (shown: ReturnType<typeof outcome>) =>
      JSON.parse(JSON.stringify(shown).replace(/"source":"[^"]*"/g, '"source":"-"')) as unknown;
    expect(anySource(outcome(trace))).toEqual(anySource(outcome(straight.trace)));
  }, 120_000);

  it('killed on the terminal while the deploy waits, the edit given with june approve: --resume --approve studio asks nothing and runs the deploy once with it', async () => {
    const cwd = project.folder('recorded-after-kill');
    // killed once the trace file, which june approve reads, shows the wait (it is written as the run asks)
    const first = await juneOnTerminal(args, cwd, answerQuestion, {
      killAt: APPROVAL,
      beforeKill: () => waitUntil(deployWaits(cwd), 'the trace to show the deploy waiting', 10_000),
    });
    expect(first.code).toBe(137);
    const runId = /· run (\S+)/.exec(first.screen)![1]!;

    // a run asked at a terminal leaves nothing to resume it by: the answer is kept for a resume
    // that takes the runs folder's answers
    const edited = await june(['approve', runId, '--all', '--input', '{"env":"prod"}'], cwd);
    expect(edited.stdout).toMatch(
      new RegExp(`^approved \\S+ of run ${runId} with an edited input\n$`),
    );
    expect(edited.stderr).toContain(
      `the answer is kept for june run <file> --resume ${runId} --approve studio, which takes it.`,
    );
    expect(deploys(cwd)).toEqual([]);

    const second = await juneOnTerminal(
      [...args, '--resume', runId, '--approve', 'studio'],
      cwd,
      [],
    );
    expect(second.code).toBe(0);
    expect(second.screen).not.toContain(QUESTION);
    expect(second.screen).not.toContain(APPROVAL);
    expect(second.screen).not.toContain('june: warning');
    const { trace, journal } = expectEditedAndAnswered(cwd, { answeredBy: userInfo().username });
    // the question answered at the terminal, the edit by june approve, through the answers file
    expect(tool(trace, 'ask_version').approval).toMatchObject({ source: 'terminal' });
    expect(tool(trace, 'deploy').approval).toMatchObject({ source: 'cli' });
    const resumeAt = journal.findIndex((record) => record.type === 'resume');
    expect(recordsOf(journal.slice(resumeAt), 'model-call').map((call) => call.index)).toEqual([2]);
    expect(modelCallsReplayed(trace)).toEqual([true, true, false]);
  }, 60_000);
});
