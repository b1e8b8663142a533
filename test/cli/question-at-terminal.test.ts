import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../mcp/support.js';
import {
  june,
  juneOnTerminal,
  nodesOf,
  onlyTrace,
  repoRoot,
  startJuneOnTerminal,
  tempProject,
  traces,
} from './cli-harness.js';

const example = join(repoRoot, 'examples', 'questions', 'ship.tsx');
/** The last choice of a question's first prompt: once it is on screen, the prompt takes keys. */
const CHOICES = 'd) Decline (with a reason for the model)';
/** Ctrl-U: clears the prompt's line (a form asked again starts from the refused answer). */
const CLEAR = '\u0015';
const DOWN = '\u001b[B';

/**
 * Writes the example's script with the questions' answers taken out, so the terminal is
 * asked; its path.
 */
function unansweredScript(dir: string): string {
  const script = JSON.parse(
    readFileSync(join(repoRoot, 'examples', 'questions', 'ship.script.json'), 'utf8'),
  ) as { steps: { ship: Array<{ toolCalls?: Array<{ answer?: unknown }> }> } };
  for (const turn of script.steps.ship) for (const call of turn.toolCalls ?? []) delete call.answer;
  const path = join(dir, 'ship.script.json');
  writeFileSync(path, JSON.stringify(script));
  return path;
}

/** The question nodes of the run's trace, by name. */
function questionNode(dir: string, name: string) {
  return nodesOf(onlyTrace(dir)).find((node) => node.kind === 'tool' && node.name === name)!;
}

describe('june run asks a <Question> on a terminal', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('shows the prompt and asks a choice as a select and an object as one prompt per property', async () => {
    const script = unansweredScript(project.dir);
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script],
      project.dir,
      [
        { when: 'Where should 1.2.0 go?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'Answer:', type: `${DOWN}\r` },
        { when: 'What title and highlights should the 1.2.0 notes have?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'title:', type: 'Faster builds\r' },
        { when: 'highlights (JSON, string[]):', type: '["cached modules"]\r' },
      ],
    );

    expect(code).toBe(0);
    expect(screen).toMatch(/ask_env.* asks.* in step .*ship/);
    expect(screen).toContain('prod');
    expect(questionNode(project.dir, 'ask_env').approval).toMatchObject({
      status: 'responded',
      source: 'terminal',
      output: 'prod',
    });
    expect(questionNode(project.dir, 'ask_notes').approval).toMatchObject({
      status: 'responded',
      output: { title: 'Faster builds', highlights: ['cached modules'] },
    });
  });

  it('shows an answer the schema refuses, then on "a" asks the form again, filled with it', async () => {
    const script = unansweredScript(project.dir);
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script],
      project.dir,
      [
        { when: CHOICES, type: 'a\r' },
        { when: 'Answer:', type: '\r' },
        { when: 'What title and highlights should the 1.2.0 notes have?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'title:', type: 'Faster builds\r' },
        { when: 'highlights (JSON, string[]):', type: '["a","b","c","d"]\r' },
        { when: 'does not fit its answer schema', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'title:', type: '\r' },
        { when: 'highlights (JSON, string[]):', type: `${CLEAR}["a"]\r` },
      ],
    );

    expect(code).toBe(0);
    expect(screen).toContain('$.highlights');
    expect(questionNode(project.dir, 'ask_env').approval).toMatchObject({ output: 'staging' });
    expect(questionNode(project.dir, 'ask_notes').approval).toMatchObject({
      status: 'responded',
      output: { title: 'Faster builds', highlights: ['a'] },
    });
  });

  it('after an answer the schema refuses, "d" declines the question instead', async () => {
    const script = unansweredScript(project.dir);
    const { code } = await juneOnTerminal(['run', example, '--script', script], project.dir, [
      { when: CHOICES, type: 'a\r' },
      { when: 'Answer:', type: '\r' },
      { when: 'What title and highlights should the 1.2.0 notes have?', type: '' },
      { when: CHOICES, type: 'a\r' },
      { when: 'title:', type: 'Faster builds\r' },
      { when: 'highlights (JSON, string[]):', type: '["a","b","c","d"]\r' },
      { when: 'does not fit its answer schema', type: '' },
      { when: CHOICES, type: 'd\r' },
      { when: 'Reason for the model', type: 'ask the writers\r' },
    ]);

    expect(code).toBe(0);
    expect(questionNode(project.dir, 'ask_notes').approval).toMatchObject({
      status: 'denied',
      reason: 'ask the writers',
    });
  });

  it('on "d" declines with a reason, which the model reads', async () => {
    const script = unansweredScript(project.dir);
    const { code } = await juneOnTerminal(['run', example, '--script', script], project.dir, [
      { when: CHOICES, type: 'd\r' },
      { when: 'Reason for the model', type: 'ask the release manager\r' },
      { when: 'What title and highlights should the 1.2.0 notes have?', type: '' },
      { when: CHOICES, type: 'd\r' },
      { when: 'Reason for the model', type: '\r' },
    ]);

    expect(code).toBe(0);
    const env = questionNode(project.dir, 'ask_env');
    expect(env.status).toBe('denied');
    expect(env.approval).toMatchObject({ status: 'denied', reason: 'ask the release manager' });
  });

  it('asks an integer as a number, a boolean as a yes/no, and leaves an optional property left empty out', async () => {
    project.write(
      'flow.tsx',
      `import { Agent, Question, Step } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

export default function Scale() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Question name="ask_replicas" prompt="How many replicas?" answer={z.number().int().min(1)} />
      <Question name="ask_sure" prompt="Scale now?" answer={z.boolean()} />
      <Question name="ask_service" prompt="Which service?" answer={z.object({ name: z.string(), count: z.number().optional() })} />
      <Step id="scale" prompt="Ask, then scale." />
    </Agent>
  );
}
`,
    );
    const ask = (tool: string) => ({ toolCalls: [{ id: `call_${tool}`, tool, input: {} }] });
    project.write(
      'flow.script.json',
      JSON.stringify({
        steps: {
          scale: [ask('ask_replicas'), ask('ask_sure'), ask('ask_service'), { text: 'Scaled.' }],
        },
      }),
    );
    const { code } = await juneOnTerminal(
      ['run', 'flow.tsx', '--script', 'flow.script.json'],
      project.dir,
      [
        { when: 'How many replicas?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'Answer:', type: '3\r' },
        { when: 'Scale now?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'Answer:', type: 'y\r' },
        { when: 'Which service?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'name:', type: 'web\r' },
        { when: 'count (optional):', type: '\r' },
      ],
    );

    expect(code).toBe(0);
    expect(questionNode(project.dir, 'ask_replicas').approval).toMatchObject({ output: 3 });
    expect(questionNode(project.dir, 'ask_sure').approval).toMatchObject({ output: true });
    expect(questionNode(project.dir, 'ask_service').approval?.output).toEqual({ name: 'web' });
  });

  it('Ctrl-C at a question aborts the run and withdraws it; the resumed run asks it once and finishes', async () => {
    const script = unansweredScript(project.dir);
    const stopped = await juneOnTerminal(['run', example, '--script', script], project.dir, [
      { when: CHOICES, type: '\u0003' },
    ]);

    expect(stopped.code).toBe(130);
    expect(stopped.screen).toContain('question ask_env withdrawn: the run was aborted');
    const aborted = onlyTrace(project.dir);
    expect(aborted.root.status).toBe('aborted');
    const runId = aborted.runId;
    expect(stopped.screen).toContain(`--resume ${runId}`);

    const resumed = await juneOnTerminal(
      ['run', example, '--script', script, '--resume', runId],
      project.dir,
      [
        { when: 'Where should 1.2.0 go?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'Answer:', type: `${DOWN}\r` },
        { when: 'What title and highlights should the 1.2.0 notes have?', type: '' },
        { when: CHOICES, type: 'a\r' },
        { when: 'title:', type: 'Faster builds\r' },
        { when: 'highlights (JSON, string[]):', type: '["cached modules"]\r' },
      ],
    );

    expect(resumed.code).toBe(0);
    expect(resumed.screen.split('Where should 1.2.0 go?').length - 1).toBe(1); // asked once
    expect(resumed.screen).toContain('✓ answered ask_env: "prod"');
    expect(questionNode(project.dir, 'ask_env').approval).toMatchObject({ output: 'prod' });
    const deploys = nodesOf(onlyTrace(project.dir)).filter((node) => node.name === 'deploy');
    expect(deploys.map((node) => node.status)).toEqual(['succeeded']);
  });

  it('a terminal closed at a question stops the run as a hang-up: the trace is aborted and the journal can resume it', async () => {
    const script = unansweredScript(project.dir);
    const terminal = startJuneOnTerminal(['run', example, '--script', script], project.dir);
    await waitUntil(() => terminal.screen().includes(CHOICES), 'the question to be asked', 30_000);
    terminal.closeTerminal();

    const root = () => {
      try {
        return [...traces(project.dir).values()][0]?.root;
      } catch {
        return undefined; // being written
      }
    };
    await waitUntil(() => root()?.status === 'aborted', 'the trace to say aborted', 30_000);
    expect(root()!.error?.message).toBe(
      'june: the run was aborted: stopped by SIGHUP (its terminal closed)',
    );
    const { runId } = onlyTrace(project.dir);
    const lastRecord = () => {
      const journal = readFileSync(
        join(project.dir, '.june', 'runs', runId, 'journal.jsonl'),
        'utf8',
      ).trim();
      try {
        return JSON.parse(journal.split('\n').at(-1)!) as { type: string; status?: string };
      } catch {
        return undefined; // being written
      }
    };
    await waitUntil(() => lastRecord()?.type === 'run-finish', 'the journal to end', 30_000);
    expect(lastRecord()).toMatchObject({ type: 'run-finish', status: 'aborted' });

    // june runs says how to go on: the run left no details for june approve to resume it with
    const listed = await june(['runs'], project.dir);
    expect(listed.stdout).toContain(
      `  stopped while waiting, not resumed by june approve: it left no resume details (runs with --approve wait or studio do); june run ship.tsx --resume ${runId} asks again\n`,
    );
  });

  it('a question answered before Ctrl-C is not asked on resume: its line names it and says the journal gave the answer', async () => {
    const script = unansweredScript(project.dir);
    const stopped = await juneOnTerminal(['run', example, '--script', script], project.dir, [
      { when: CHOICES, type: 'a\r' },
      { when: 'Answer:', type: `${DOWN}\r` },
      { when: 'What title and highlights should the 1.2.0 notes have?', type: '' },
      { when: CHOICES, type: '\u0003' },
    ]);
    expect(stopped.code).toBe(130);
    const { runId } = onlyTrace(project.dir);

    const resumed = await juneOnTerminal(
      ['run', example, '--script', script, '--resume', runId],
      project.dir,
      [
        { when: CHOICES, type: 'a\r' },
        { when: 'title:', type: 'Faster builds\r' },
        { when: 'highlights (JSON, string[]):', type: '[]\r' },
      ],
    );

    expect(resumed.code).toBe(0);
    expect(resumed.screen).not.toContain('Where should 1.2.0 go?'); // not asked again
    expect(resumed.screen).toMatch(
      /✓ answered ask_env: "prod" \(from the journal: (\S+, )?through terminal\)/,
    );
    expect(resumed.screen).not.toContain('the tool call');
  });
});
