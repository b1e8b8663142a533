import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadJournal, type JournalRecord, type RunEvent, type Trace, type TraceNode } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  june,
  onlyTrace,
  repoRoot,
  startJune,
  tempProject,
  type RunningJune,
} from '../cli/cli-harness.js';

// `june run` in new processes: a workflow whose approval waits three composite levels down
// (plan > release > ship > deploy) is stopped while it waits (SIGKILL, SIGINT), then resumed
// with --resume in a new process. Its tools append a line per execution to counts.log; the
// model of counted.tsx appends one per call to models.log, so the counts span both processes.

const flow = `import { appendFileSync } from 'node:fs';
import { tool, type LanguageModel } from 'ai';
import { Agent, Step, Tool } from 'june';
import { z } from 'zod';

const count = (name: string) => appendFileSync('counts.log', name + '\\n');

const lookup = tool({ description: 'Look up the release notes', inputSchema: z.object({ version: z.string() }), execute: async ({ version }) => { count('lookup'); return 'notes for ' + version; } });
const check = tool({ description: 'Check the build', inputSchema: z.object({ version: z.string() }), execute: async ({ version }) => { count('check'); return { green: true, version }; } });
const deploy = tool({ description: 'Deploy', inputSchema: z.object({ env: z.string() }), needsApproval: true, execute: async ({ env }) => { count('deploy'); return 'deployed to ' + env; } });

export function releaseWorkflow(model: LanguageModel, task: string) {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={lookup} />
      <Tool name="release" description="Prepare and ship a version" input={z.object({ version: z.string() })}>
        {({ version }) => (
          <Agent model={model}>
            <Tool name="check" value={check} />
            <Tool name="ship" description="Ship to an environment" input={z.object({ env: z.string() })}>
              {({ env }) => (
                <Agent model={model}>
                  <Tool name="deploy" value={deploy} />
                  <Step id="go" prompt={'Deploy ' + version + ' to ' + env} />
                </Agent>
              )}
            </Tool>
            <Step id="prepare" prompt={'Prepare ' + version} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt={task} />
    </Agent>
  );
}
`;

// for --script: the agents' own model is never called
const scripted = `import type { LanguageModelV3 } from '@ai-sdk/provider';
import { releaseWorkflow } from './flow.js';

const unused = { specificationVersion: 'v3', provider: 'none', modelId: 'none', supportedUrls: {}, doGenerate: async () => { throw new Error('run with --script'); }, doStream: async () => { throw new Error('run with --script'); } } as unknown as LanguageModelV3;

export default function Release({ task = 'Release 1.2' }: { task?: string }) {
  return releaseWorkflow(unused, task);
}
`;

// a model that answers from the same script, reading its turn off the request (no state), and counts its calls
const counted = `import { appendFileSync, readFileSync } from 'node:fs';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { scriptedModel } from 'june/testing';
import { releaseWorkflow } from './flow.js';

const script = JSON.parse(readFileSync(new URL('./release.script.json', import.meta.url), 'utf8'));
function answer(options: LanguageModelV3CallOptions) {
  if (process.env.NO_MODEL) throw new Error('the model was called');
  const step = (options.providerOptions?.june as { step: string }).step;
  const lastUser = options.prompt.map((message) => message.role).lastIndexOf('user');
  const turn = options.prompt.slice(lastUser + 1).filter((message) => message.role === 'assistant').length + 1;
  appendFileSync('models.log', step + '#' + turn + '\\n');
  return scriptedModel({ steps: { [step]: [script.steps[step][turn - 1]] } }, { name: 'counted' });
}
const model: LanguageModelV3 = { specificationVersion: 'v3', provider: 'test', modelId: 'counted', supportedUrls: {}, doGenerate: (o) => answer(o).doGenerate(o), doStream: (o) => answer(o).doStream(o) };

export default function Release({ task = 'Release 1.2' }: { task?: string }) {
  return releaseWorkflow(model, task);
}
`;

const script = {
  $comment: 'Test fixture: scripted turns for test/durable/cli-resume.test.ts (8 model calls)',
  steps: {
    plan: [
      { toolCalls: [{ id: 'c_lookup', tool: 'lookup', input: { version: '1.2' } }] },
      { toolCalls: [{ id: 'c_release', tool: 'release', input: { version: '1.2' } }] },
      { text: 'Released 1.2.' },
    ],
    'release:prepare': [
      { toolCalls: [{ id: 'c_check', tool: 'check', input: { version: '1.2' } }] },
      { toolCalls: [{ id: 'c_ship', tool: 'ship', input: { env: 'prod' } }] },
      { text: 'Prepared and shipped.' },
    ],
    'release:ship:go': [
      { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Deploy finished.' },
    ],
  },
};
const allTurns = [
  'plan#1',
  'plan#2',
  'release:prepare#1',
  'release:prepare#2',
  'release:ship:go#1',
  'release:ship:go#2',
  'release:prepare#3',
  'plan#3',
];

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  project.write('flow.tsx', flow);
  project.write('release.tsx', scripted);
  project.write('counted.tsx', counted);
  project.write('release.script.json', JSON.stringify(script));
});
afterAll(() => project.remove());

let folders = 0;
const folder = () => project.folder(`case-${++folders}`);
const lines = (cwd: string, name: string) =>
  existsSync(join(cwd, name)) ? readFileSync(join(cwd, name), 'utf8').trim().split('\n') : [];
const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
const journalOf = (cwd: string, runId: string) =>
  loadJournal(join(cwd, '.june', 'runs', runId, 'journal.jsonl'));
const modelCalls = (records: JournalRecord[]) =>
  records.filter(
    (record): record is Extract<JournalRecord, { type: 'model-call' }> =>
      record.type === 'model-call',
  );

/** Waits (bounded) until the process printed the approval-request event, and returns the run id. */
async function waitForApproval(running: RunningJune): Promise<string> {
  for (
    let tries = 0;
    tries < 400 && !running.output().stdout.includes('"type":"approval-request"');
    tries++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const printed = running.output().stdout;
  expect(printed).toContain('"type":"approval-request"');
  const request = events(printed.slice(0, printed.lastIndexOf('\n'))).find(
    (event) => event.type === 'approval-request',
  );
  expect(request).toMatchObject({
    request: { tool: 'deploy', step: 'release:ship:go', toolCallId: 'c_deploy' },
  });
  return events(printed.slice(0, printed.indexOf('\n')))[0]!.runId;
}

/** Every node of a trace, the child runs of composite tool calls included. */
function allNodes(trace: Trace): TraceNode[] {
  const all = (node: TraceNode): TraceNode[] => {
    const child = (node.output as { trace?: Trace } | undefined)?.trace?.root;
    return [node, ...node.children.flatMap(all), ...(child ? all(child) : [])];
  };
  return all(trace.root);
}

function deployNode(trace: Trace): TraceNode | undefined {
  return allNodes(trace).find((node) => node.kind === 'tool' && node.name === 'deploy');
}

describe('june run --resume after the process was stopped while it waited for approval', () => {
  it('SIGKILL, then --resume --approve all with --script: every tool ran once and every scripted turn was used once', async () => {
    const cwd = folder();
    const first = startJune(
      [
        'run',
        '../release.tsx',
        '--script',
        '../release.script.json',
        '--json',
        '--approve',
        'wait',
      ],
      cwd,
    );
    const runId = await waitForApproval(first);
    process.kill(first.pid, 'SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    expect(lines(cwd, 'counts.log')).toEqual(['lookup', 'check']);
    const beforeResume = await journalOf(cwd, runId);
    expect(beforeResume.at(-1)).toMatchObject({
      type: 'approval-request',
      step: 'release:ship:go',
      calls: ['plan#1.0', 'prepare#1.0'],
      call: 'go#0.0',
      toolCallId: 'c_deploy',
    });

    const second = await june(
      [
        'run',
        '../release.tsx',
        '--script',
        '../release.script.json',
        '--resume',
        runId,
        '--approve',
        'all',
        '--json',
      ],
      cwd,
    );
    // no "turns that never ran" warning: the resumed process used exactly the turns the first had not
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(lines(cwd, 'counts.log')).toEqual(['lookup', 'check', 'deploy']);

    // a model-call record is written only when the model was called (replayed calls write none):
    // 5 before the kill, 3 after the resume, each (place, index) once: the 8 turns of the script
    const records = await journalOf(cwd, runId);
    const resumeAt = records.findIndex((record) => record.type === 'resume');
    const calls = modelCalls(records).map((record) => `${record.step}#${record.index + 1}`);
    expect(modelCalls(records.slice(0, resumeAt))).toHaveLength(5);
    expect(modelCalls(records.slice(resumeAt))).toHaveLength(3);
    expect([...calls].sort()).toEqual([...allTurns].sort());
    expect(records.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });

    // the same run id, the same trace file, rewritten
    const resumedEvents = events(second.stdout);
    expect(resumedEvents[0]).toMatchObject({ type: 'run-start', runId });
    expect(resumedEvents.find((event) => event.type === 'approval-response')).toMatchObject({
      approved: true,
      automatic: true,
    });
    const trace = onlyTrace(cwd);
    expect(trace).toMatchObject({ runId, status: 'succeeded' });
    expect(deployNode(trace)).toMatchObject({ status: 'succeeded', output: 'deployed to prod' });
  });

  it('SIGKILL, then --resume, with a model that counts its calls in a file: each call made once across both processes', async () => {
    const cwd = folder();
    const first = startJune(['run', '../counted.tsx', '--json', '--approve', 'wait'], cwd);
    const runId = await waitForApproval(first);
    process.kill(first.pid, 'SIGKILL');
    await first.done;
    expect(lines(cwd, 'models.log')).toEqual(allTurns.slice(0, 5));

    const second = await june(
      ['run', '../counted.tsx', '--resume', runId, '--approve', 'all'],
      cwd,
    );
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`run ${runId} · resumed from its journal`);
    expect(lines(cwd, 'models.log')).toEqual(allTurns);
    expect(lines(cwd, 'counts.log')).toEqual(['lookup', 'check', 'deploy']);
  });

  it('SIGINT: exits 130 with the journal complete, and --resume finishes the run', async () => {
    const cwd = folder();
    const first = startJune(['run', '../counted.tsx', '--json', '--approve', 'wait'], cwd);
    const runId = await waitForApproval(first);
    process.kill(first.pid, 'SIGINT');
    const stopped = await first.done;
    expect(stopped.code).toBe(130);
    const text = readFileSync(join(cwd, '.june', 'runs', runId, 'journal.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const records = await journalOf(cwd, runId);
    expect(records.slice(-2)).toMatchObject([
      { type: 'approval-request' },
      { type: 'run-finish', status: 'aborted', error: { code: 'run-aborted' } },
    ]);
    expect(onlyTrace(cwd).status).toBe('aborted');

    const second = await june(
      ['run', '../counted.tsx', '--resume', runId, '--approve', 'all', '--json'],
      cwd,
    );
    expect(second.code).toBe(0);
    expect(lines(cwd, 'models.log')).toEqual(allTurns);
    expect(lines(cwd, 'counts.log')).toEqual(['lookup', 'check', 'deploy']);
    expect(onlyTrace(cwd)).toMatchObject({ runId, status: 'succeeded' });
  });

  it('--resume --approve none: the denied tool never runs, and the model is told', async () => {
    const cwd = folder();
    const first = startJune(['run', '../counted.tsx', '--json', '--approve', 'wait'], cwd);
    const runId = await waitForApproval(first);
    process.kill(first.pid, 'SIGKILL');
    await first.done;

    const second = await june(
      ['run', '../counted.tsx', '--resume', runId, '--approve', 'none'],
      cwd,
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('✗ denied deploy: denied by --approve none (automatic)');
    expect(lines(cwd, 'counts.log')).toEqual(['lookup', 'check']);
    expect(lines(cwd, 'models.log')).toEqual(allTurns);
    const trace = onlyTrace(cwd);
    const deploy = deployNode(trace)!;
    expect(deploy.status).toBe('denied');
    expect(deploy.approval).toMatchObject({
      status: 'denied',
      reason: 'denied by --approve none',
      automatic: true,
    });
    const go = allNodes(trace).find(
      (node) => node.kind === 'step' && node.step === 'release:ship:go',
    )!;
    const denial = (go.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>)
      .flatMap((message) => (message.role === 'tool' ? message.content : []))
      .find((part) => part.type === 'tool-result' && part.toolName === 'deploy');
    expect(denial?.output).toEqual({
      type: 'execution-denied',
      reason: 'denied by --approve none',
    });
  });

  it('a run that stopped because no one could answer (no terminal) prints how to resume it, and resuming finishes it', async () => {
    const cwd = folder();
    const first = await june(['run', '../counted.tsx'], cwd);
    expect(first.code).toBe(1);
    const runId = onlyTrace(cwd).runId;
    expect(first.stdout).toContain(`resume: june run ../counted.tsx --resume ${runId}\n`);

    const second = await june(
      ['run', '../counted.tsx', '--resume', runId, '--approve', 'all'],
      cwd,
    );
    expect(second.code).toBe(0);
    expect(lines(cwd, 'models.log')).toEqual(allTurns);
    expect(lines(cwd, 'counts.log')).toEqual(['lookup', 'check', 'deploy']);
  });

  it('a corrupt journal fails --resume with the file and line, before the run (its trace is left as it was)', async () => {
    const cwd = folder();
    const first = startJune(['run', '../counted.tsx', '--json', '--approve', 'wait'], cwd);
    const runId = await waitForApproval(first);
    process.kill(first.pid, 'SIGKILL');
    await first.done;
    const file = join(cwd, '.june', 'runs', runId, 'journal.jsonl');
    const journal = readFileSync(file, 'utf8').split('\n');
    journal[3] = `${journal[3]!.slice(0, 30)}`;
    writeFileSync(file, journal.join('\n'));
    const tracePath = join(cwd, '.june', 'runs', `${runId}.json`);
    const traceBefore = statSync(tracePath).mtimeMs;

    const second = await june(
      ['run', '../counted.tsx', '--resume', runId, '--approve', 'all'],
      cwd,
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `^june: \\.june/runs/${runId}/journal\\.jsonl is corrupt at line 4: it is not JSON \\(.*\\)\\. Fix or remove that line, or start a new run\\.\\n$`,
      ),
    );
    expect(lines(cwd, 'models.log')).toEqual(allTurns.slice(0, 5));
    expect(statSync(tracePath).mtimeMs).toBe(traceBefore);
  });

  it('--resume of an unknown run says which runs have a journal', async () => {
    const cwd = folder();
    const result = await june(['run', '../counted.tsx', '--resume', 'no-such-run'], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `june: there is no journal for the run no-such-run (looked for ${join('.june', 'runs', 'no-such-run', 'journal.jsonl')}); no run has a journal there. Check the run id.\n`,
    );
  });
});

describe('june run --replay', () => {
  it('replays a recorded run with no model call and the same result; an edited prompt fails with the diff', async () => {
    const cwd = folder();
    const recorded = await june(['run', '../counted.tsx', '--approve', 'all', '--json'], cwd);
    expect(recorded.code).toBe(0);
    const runId = events(recorded.stdout)[0]!.runId;
    const resultOf = (stdout: string) =>
      events(stdout).find((event) => event.type === 'step-finish' && event.step === 'plan');
    expect(resultOf(recorded.stdout)).toMatchObject({ result: 'Released 1.2.' });
    expect(lines(cwd, 'models.log')).toHaveLength(8);

    // the model throws if it is called (NO_MODEL); recorded approvals answer again
    const replayed = await june(['run', '../counted.tsx', '--replay', runId, '--json'], cwd, {
      NO_MODEL: '1',
    });
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(resultOf(replayed.stdout)).toMatchObject({ result: 'Released 1.2.' });
    expect(lines(cwd, 'models.log')).toHaveLength(8);
    // a replay is a new run, with a journal of its own
    const replayId = events(replayed.stdout)[0]!.runId;
    expect(replayId).not.toBe(runId);

    const fromFile = await june(
      [
        'run',
        '../counted.tsx',
        '--replay',
        join('.june', 'runs', runId, 'journal.jsonl'),
        '--json',
      ],
      cwd,
      { NO_MODEL: '1' },
    );
    expect(fromFile.code).toBe(0);

    const edited = await june(
      ['run', '../counted.tsx', '--replay', runId, '--props', '{"task":"Release 1.3"}'],
      cwd,
      { NO_MODEL: '1' },
    );
    expect(edited.code).toBe(1);
    expect(edited.stderr).toBe(
      `june: the workflow no longer matches the recording of run ${runId}: model call 1 of step "plan" asks something else than the recorded call; ` +
        'first difference at message 1 (user): recorded "Release 1.2", now "Release 1.3". If the change is intended, record the run again.\n',
    );
    expect(lines(cwd, 'models.log')).toHaveLength(8);
  }, 120_000); // four CLI processes
});

describe('june run --resume of a run whose <Parallel> branch failed at a model call', () => {
  it('with a fixed --script, the failed branch runs again from that script and the run succeeds', async () => {
    const cwd = project.folder('parallel');
    const examples = join(repoRoot, 'examples');
    project.write('parallel/parallel.tsx', readFileSync(join(examples, 'parallel.tsx'), 'utf8'));
    const whole = JSON.parse(readFileSync(join(examples, 'parallel.script.json'), 'utf8')) as {
      steps: Record<string, unknown>;
    };
    writeFileSync(join(cwd, 'parallel.script.json'), JSON.stringify(whole));
    const { 'review-user': _missing, ...steps } = whole.steps;
    writeFileSync(join(cwd, 'broken.script.json'), JSON.stringify({ ...whole, steps }));

    const failed = await june(['run', 'parallel.tsx', '--script', 'broken.script.json'], cwd);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('broken.script.json has no turns for step "review-user"');
    const { runId } = onlyTrace(cwd);
    // another branch's records came after the failed call
    const records = await journalOf(cwd, runId);
    const failure = records.findIndex(
      (record) => record.type === 'model-call' && record.answer.error !== undefined,
    );
    expect(
      records
        .slice(failure + 1)
        .filter((record) => 'step' in record && record.step !== 'review-user'),
    ).not.toEqual([]);

    const resumed = await june(
      ['run', 'parallel.tsx', '--resume', runId, '--script', 'parallel.script.json'],
      cwd,
    );
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('greet() throws');
    expect(onlyTrace(cwd)).toMatchObject({ runId, status: 'succeeded' });
    // the script the resume was given is the one the run keeps from now on
    expect(
      JSON.parse(readFileSync(join(cwd, '.june', 'runs', runId, 'script.json'), 'utf8')),
    ).toEqual(whole);
  }, 60_000);
});
