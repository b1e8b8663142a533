// A <Question> over the database: RunClient.waiting tells it as a question (its prompt and
// answer schema), june runs lists it as one, and june approve answers it with --answer,
// refusing an approval (a question needs a value) and a value its schema refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june } from '../cli/cli-harness.js';
import { postgresMissing } from '../helpers/postgres.js';
import { ledgerDatabase, lines, waitFor, type LedgerDatabase } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('runs over DBOS: a question', () => {
  let ledger: LedgerDatabase;

  beforeAll(async () => {
    ledger = await ledgerDatabase('june_questions', 'worker-a');
  }, 120_000);

  afterAll(async () => {
    await ledger?.close();
  });

  it('is listed with its prompt and answer schema, and answered with june approve --answer', async () => {
    const { client, database, project } = ledger;
    await client.enqueue({
      workflow: 'ledger',
      runId: 'asked',
      props: { dir: project.logs, n: 11, ask: true },
    });
    await waitFor(async () => (await client.waiting('asked')).length > 0, 60_000, 'the question');
    const [request] = await client.waiting('asked');
    expect(request).toMatchObject({
      tool: 'ask_env',
      kind: 'question',
      question: {
        prompt: 'Where should entry 11 go?',
        answerSchema: { type: 'string', enum: ['staging', 'prod'] },
      },
    });

    const runs = await june(['runs', '--database', database], project.dir);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toContain(
      `  question: ${request!.id} · ask_env "Where should entry 11 go?" (step entry); answer: one of "staging"|"prod"`,
    );

    const approve = (...flags: string[]) =>
      june(['approve', 'asked', request!.id, '--database', database, ...flags], project.dir);
    const approved = await approve();
    expect(approved.code).toBe(1);
    expect(approved.stderr).toMatch(
      /^june: the question "ask_env" .* was approved without an answer/,
    );
    const unfit = await approve('--answer', '"moon"');
    expect(unfit.code).toBe(1);
    expect(unfit.stderr).toContain('june: ');
    expect(unfit.stderr).toContain('Invalid option');
    expect((await client.waiting('asked')).map((waiting) => waiting.id)).toEqual([request!.id]);

    const answered = await approve('--answer', '"prod"');
    expect(answered.stdout).toContain(`answered the question ${request!.id} of run asked`);
    expect(answered.code).toBe(0);
    expect((await client.result('asked')).trace.status).toBe('succeeded');
    const read = lines(project.logs, 'results.log').filter((line) =>
      line.startsWith('11|entry|4|ask_env|'),
    );
    expect(read.map((line) => JSON.parse(line.split('|').slice(4).join('|')))).toEqual([
      { type: 'text', value: 'prod' },
    ]);
  }, 180_000);
});
