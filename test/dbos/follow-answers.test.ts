// `june run --database --follow` on a real pseudo-terminal answers what its run over DBOS
// asks as a local run does: a <Question> through its form, a call edited before it runs. An
// answer the run's published schemas refuse is shown and asked for again (the request waits
// in the database meanwhile), and the call runs once, with the edit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, juneOnTerminal, repoRoot, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixture = join(repoRoot, 'test', 'fixtures', 'edit-and-ask');
/** The last choice of an approval's prompt, and of a question's. */
const CALL_CHOICES = 'a) Answer instead of the tool';
const QUESTION_CHOICES = 'd) Decline (with a reason for the model)';
/** Ctrl-U: clears the prompt's line (an edit starts from the model's input). */
const CLEAR = '\u0015';
const DOWN = '\u001b[B';

describe.runIf(!missing)('june run --database --follow at a terminal', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let worker: WorkerProcess;
  let database: string;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_follow_answers');
    project = tempProject();
    for (const name of ['ship.tsx', 'ship.script.json'])
      project.write(name, readFileSync(join(fixture, name), 'utf8'));
    worker = await startWorker(project.dir, database, 'follow-answers', { files: ['ship.tsx'] });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('answers the question, edits the call after an edit the schema refuses, and the call runs once with the edit', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', 'ship.tsx', '--database', database, '--follow', '--script', 'ship.script.json'],
      project.dir,
      [
        { when: QUESTION_CHOICES, type: 'a\r' },
        { when: 'Answer:', type: `${DOWN}\r` },
        { when: CALL_CHOICES, type: 'e\r' },
        { when: 'Input to run the call with (JSON)', type: `${CLEAR}{"env":"moon"}\r` },
        { when: "does not fit the tool's input schema", type: '' },
        { when: 'Input to run the call with (JSON)', type: `${CLEAR}{"env":"prod"}\r` },
      ],
    );

    expect(code).toBe(0);
    expect(screen).toContain('$.env: Invalid option: expected one of "staging"|"prod"');
    expect(screen).toContain('✓ answered ask_env: "prod"');
    expect(screen).toContain('✓ approved deploy with an edited input: {"env":"prod"}');
    expect(screen).toContain('Shipped 1.2.0.');
    expect(readFileSync(join(project.dir, 'deploys.log'), 'utf8')).toBe('prod\n');
  }, 120_000);

  it('takes a prompt off the screen when another source answered it, and prompts the next request', async () => {
    const following = juneOnTerminal(
      ['run', 'ship.tsx', '--database', database, '--follow', '--script', 'ship.script.json'],
      project.dir,
      [{ when: CALL_CHOICES, type: 'y\r' }],
    );
    // the question waits (its prompt on the terminal): june approve answers it from another shell
    let runId: string | undefined;
    await waitFor(
      async () => {
        const listed = await june(['runs', '--database', database, '--json'], project.dir);
        const runs = listed.stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { runId: string; waiting: { tool: string }[] });
        runId = runs.find((run) => run.waiting.some((call) => call.tool === 'ask_env'))?.runId;
        return runId !== undefined;
      },
      60_000,
      'the question to wait in the database',
    );
    const answered = await june(
      ['approve', runId!, '--all', '--answer', '"staging"', '--database', database],
      project.dir,
    );
    expect(answered.stderr).toBe('');
    // the question's prompt went away, so the deploy's came and was approved at the terminal
    const { code, screen } = await following;
    expect(code).toBe(0);
    expect(screen).toContain('✓ answered ask_env: "staging"');
    expect(screen).toContain('Shipped 1.2.0.');
    expect(readFileSync(join(project.dir, 'deploys.log'), 'utf8')).toBe('prod\nstaging\n');
  }, 120_000);
});
