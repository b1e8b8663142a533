// An answer over the database may edit the call or answer instead of the tool: RunClient
// carries the edit to the worker, which runs the tool once with it; an answer instead of the
// tool means it never runs and the model reads the answer as the call's result. An edit
// that does not fit the tool's schema is refused to the caller and the request still waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june } from '../cli/cli-harness.js';
import { postgresMissing } from '../helpers/postgres.js';
import { ledgerDatabase, lines, waitFor, type LedgerDatabase } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('runs over DBOS: an edited call, an answer instead of the tool', () => {
  let ledger: LedgerDatabase;

  beforeAll(async () => {
    ledger = await ledgerDatabase('june_approval_edits', 'worker-a');
  }, 120_000);

  afterAll(async () => {
    await ledger?.close();
  });

  const enqueueWaiting = async (runId: string, n: number) => {
    await ledger.client.enqueue({
      workflow: 'ledger',
      runId,
      props: { dir: ledger.project.logs, n, approve: true },
    });
    await waitFor(
      async () => (await ledger.client.waiting(runId)).length > 0,
      60_000,
      'the approval',
    );
  };

  it('an edit that does not fit is refused and the request waits; a good edit runs the tool once with it', async () => {
    const { client } = ledger;
    await enqueueWaiting('edited', 7);
    const [request] = await client.waiting('edited');
    expect(request).toMatchObject({ id: 'entry#2.0', tool: 'publish', input: { n: 7 } });
    expect(request!.inputSchema).toMatchObject({ type: 'object' });

    const refused = client.approve('edited', {
      requestId: 'entry#2.0',
      approved: true,
      input: { n: 'seventy' },
      answeredBy: 'ana',
    });
    await expect(refused).rejects.toMatchObject({
      code: 'approval-input-invalid',
      message: expect.stringMatching(/^june: the edited input for the "publish" call .*\$\.n: /),
    });
    expect((await client.waiting('edited')).map((waiting) => waiting.id)).toEqual(['entry#2.0']);

    const [applied] = await client.approve('edited', {
      requestId: 'entry#2.0',
      approved: true,
      input: { n: 70 },
      answeredBy: 'ana',
    });
    expect(applied).toMatchObject({
      status: 'applied',
      answer: { approved: true, input: { n: 70 } },
    });
    const { trace } = await client.result('edited');
    expect(trace.status).toBe('succeeded');
    const published = lines(ledger.project.logs, 'effects.log').filter((line) =>
      line.startsWith('publish'),
    );
    expect(published.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual(['publish p70']);
  }, 180_000);

  it('an answer instead of the tool: the tool never runs and the model reads the answer', async () => {
    const { client } = ledger;
    await enqueueWaiting('responded', 8);
    const [applied] = await client.approve('responded', {
      requestId: 'entry#2.0',
      approved: false,
      output: 'published by hand',
      answeredBy: 'ana',
    });
    expect(applied).toMatchObject({
      status: 'applied',
      answer: { approved: false, output: 'published by hand' },
    });
    const { trace } = await client.result('responded');
    expect(trace.status).toBe('succeeded');
    expect(lines(ledger.project.logs, 'effects.log')).not.toContainEqual(
      expect.stringMatching(/^publish p8/),
    );
    const read = lines(ledger.project.logs, 'results.log').filter((line) =>
      line.startsWith('8|entry|4|publish|'),
    );
    expect(read).toHaveLength(1);
    expect(JSON.parse(read[0]!.split('|').slice(4).join('|'))).toEqual({
      type: 'text',
      value: 'published by hand',
    });
  }, 180_000);

  it('june approve --input and --answer: malformed JSON exits 2, a bad edit exits 1, a good one applies', async () => {
    const { client, database, project } = ledger;
    await enqueueWaiting('cli-edit', 9);
    const approve = (...flags: string[]) =>
      june(['approve', 'cli-edit', 'entry#2.0', '--database', database, ...flags], project.dir);

    const malformed = await approve('--input', '{n: 9');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^june: june approve --input takes a JSON value/);
    const both = await approve('--input', '{"n":9}', '--answer', '"x"');
    expect(both.code).toBe(2);
    const unfit = await approve('--input', '{"n":"nine"}');
    expect(unfit.code).toBe(1);
    expect(unfit.stderr).toContain(`june: the edited input for the "publish" call`);
    expect((await client.waiting('cli-edit')).map((waiting) => waiting.id)).toEqual(['entry#2.0']);

    const edited = await approve('--input', '{"n":90}');
    expect(edited.stdout).toContain('approved entry#2.0 of run cli-edit with an edited input');
    expect(edited.code).toBe(0);
    expect((await client.result('cli-edit')).trace.status).toBe('succeeded');
    expect(lines(project.logs, 'effects.log')).toContainEqual(
      expect.stringMatching(/^publish p90 /),
    );

    await enqueueWaiting('cli-answer', 10);
    const answered = await june(
      [
        'approve',
        'cli-answer',
        'entry#2.0',
        '--answer',
        '{"url":"https://ledger.example/10"}',
        '--database',
        database,
      ],
      project.dir,
    );
    expect(answered.stdout).toContain('answered entry#2.0 of run cli-answer instead of the tool');
    expect(answered.code).toBe(0);
    expect((await client.result('cli-answer')).trace.status).toBe('succeeded');
    expect(lines(project.logs, 'effects.log')).not.toContainEqual(
      expect.stringMatching(/^publish p10 /),
    );
    const read = lines(project.logs, 'results.log').find((line) =>
      line.startsWith('10|entry|4|publish|'),
    );
    expect(read).toContain('https://ledger.example/10');
  }, 180_000);
});
