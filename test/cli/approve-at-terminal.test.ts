import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { juneOnTerminal, nodesOf, onlyTrace, repoRoot, tempProject } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'release.tsx');
const script = join(repoRoot, 'examples', 'release.script.json');
/** The last of the prompt's choices: once it is on screen, the prompt takes keys. */
const CHOICES = 'a) Answer instead of the tool';
/** Ctrl-U: clears the prompt's line (an edit starts from the model's input). */
const CLEAR = '\u0015';

describe('june run --approve ask on a terminal', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('shows the tool, step and input, and runs the call on "y"', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script],
      project.dir,
      [{ when: CHOICES, type: 'y\r' }],
    );

    expect(code).toBe(0);
    expect(screen).toMatch(/deploy.*needs approval.* in step .*release.*, with input:/);
    expect(screen).toContain('"env": "staging"');
    expect(screen).toContain('Deployed to staging');
    const deploy = nodesOf(onlyTrace(project.dir)).find(
      (node) => node.kind === 'tool' && node.name === 'deploy',
    )!;
    expect(deploy.approval).toMatchObject({ status: 'approved' });
    expect(deploy.approval?.automatic).toBeUndefined();
  });

  it("records the answer as the terminal user's, with its time, in the trace and the journal", async () => {
    const before = Date.now();
    const { code } = await juneOnTerminal(['run', example, '--script', script], project.dir, [
      { when: CHOICES, type: 'y\r' },
    ]);
    expect(code).toBe(0);
    const trace = onlyTrace(project.dir);
    const deploy = nodesOf(trace).find((node) => node.kind === 'tool' && node.name === 'deploy')!;
    const origin = { source: 'terminal', answeredBy: userInfo().username };
    expect(deploy.approval).toMatchObject({ status: 'approved', ...origin });
    const answeredAt = Date.parse(deploy.approval!.answeredAt!);
    expect(answeredAt).toBeGreaterThanOrEqual(before);
    expect(answeredAt).toBeLessThanOrEqual(Date.parse(deploy.endedAt!));
    const journal = readFileSync(
      join(project.dir, '.june/runs', trace.runId, 'journal.jsonl'),
      'utf8',
    );
    const answer = journal
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((record) => record.type === 'approval-answer');
    expect(answer).toMatchObject({
      approved: true,
      automatic: false,
      ...origin,
      answeredAt: deploy.approval!.answeredAt,
    });
  });

  it('on "n" asks for a reason, which the model is given with the denial', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script],
      project.dir,
      [
        { when: CHOICES, type: 'n\r' },
        { when: 'Reason for the model', type: 'not on a Friday\r' },
      ],
    );

    expect(code).toBe(0);
    expect(screen).toContain('denied deploy: not on a Friday');
    const trace = onlyTrace(project.dir);
    const deploy = nodesOf(trace).find((node) => node.kind === 'tool' && node.name === 'deploy')!;
    expect(deploy.status).toBe('denied');
    expect(deploy.approval).toMatchObject({ status: 'denied', reason: 'not on a Friday' });
    const step = nodesOf(trace).find((node) => node.kind === 'step')!;
    expect(JSON.stringify(step.messages)).toContain(
      '{"type":"execution-denied","reason":"not on a Friday"}',
    );
  });

  it('on "e" takes an edited input as JSON, asks again after one the schema refuses, and runs the call with it', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script],
      project.dir,
      [
        { when: CHOICES, type: 'e\r' },
        { when: 'Input to run the call with (JSON)', type: `${CLEAR}{"env":"moon"}\r` },
        { when: "does not fit the tool's input schema", type: '' },
        { when: 'Input to run the call with (JSON)', type: `${CLEAR}{"env":"prod"}\r` },
      ],
    );

    expect(code).toBe(0);
    expect(screen).toContain('$.env: Invalid option: expected one of "staging"|"prod"');
    const deploy = nodesOf(onlyTrace(project.dir)).find(
      (node) => node.kind === 'tool' && node.name === 'deploy',
    )!;
    expect(deploy.input).toEqual({ env: 'staging' });
    expect(deploy.approval).toMatchObject({
      status: 'approved',
      source: 'terminal',
      input: { env: 'prod' },
    });
    expect(deploy.output).toBe('Deployed to prod');
  });

  it('on "a" takes an answer instead of the tool, which never runs', async () => {
    const { code } = await juneOnTerminal(['run', example, '--script', script], project.dir, [
      { when: CHOICES, type: 'a\r' },
      { when: 'Answer the model reads as the result', type: 'deployed by hand\r' },
    ]);

    expect(code).toBe(0);
    const deploy = nodesOf(onlyTrace(project.dir)).find(
      (node) => node.kind === 'tool' && node.name === 'deploy',
    )!;
    expect(deploy.status).toBe('succeeded');
    expect(deploy.approval).toMatchObject({ status: 'responded', output: 'deployed by hand' });
    expect(deploy.output).toBe('deployed by hand');
  });

  it('an edit refused, then left empty, goes back to the choices, where "n" denies the call', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script],
      project.dir,
      [
        { when: CHOICES, type: 'e\r' },
        { when: 'Input to run the call with (JSON)', type: `${CLEAR}{"env":"moon"}\r` },
        { when: "does not fit the tool's input schema", type: '' },
        { when: 'or empty to go back', type: `${CLEAR}\r` },
        { when: CHOICES, type: 'n\r' },
        { when: 'Reason for the model', type: 'no moon deploys\r' },
      ],
    );

    expect(code).toBe(0);
    expect(screen).toContain('✗ denied deploy: no moon deploys');
    const deploy = nodesOf(onlyTrace(project.dir)).find(
      (node) => node.kind === 'tool' && node.name === 'deploy',
    )!;
    expect(deploy.approval).toMatchObject({ status: 'denied', reason: 'no moon deploys' });
    expect(deploy.output).toBeUndefined();
  });
});
