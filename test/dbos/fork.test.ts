// Forks of runs over DBOS. The run (test/engine/fixtures/composite.tsx): step "plan" calls the
// composite tool `ship` for staging, then prod; each child run's step "go" calls `check`, which
// needs approval. A fork at the staging `check` result (a nested tool result) replays the
// records before it with no model call and no tool, and runs the rest in a worker: prod's
// approval is asked again. A fork of that fork, made with `june fork --database`, denies the
// prod approval instead: `check prod` does not run, and its lineage names both runs. A fork
// with another model id (resolved by the worker's default provider) or other settings from a
// model call makes no model call of the prefix, and the later calls of that call's agent with
// the change. A fork run by a changed workflow fails with journal-mismatch.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { pgClient } from '../../src/dbos/pg-driver.js';
import { june, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixtures = new URL('../engine/fixtures/', import.meta.url);
const staging = 'plan#0.0/go#0.0';
const prod = 'plan#1.0/go#0.0';

describe.runIf(!missing)('a fork of a run over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess | undefined;
  let dir: string;
  let other: string;

  /** Approves the request `id` of the run once it waits for it. */
  const approveWhenAsked = async (runId: string, id: string) => {
    await waitFor(
      async () => (await client.waiting(runId)).some((request) => request.id === id),
      60_000,
      `the approval ${id} of ${runId}`,
    );
    const [applied] = await client.approve(runId, { requestId: id, approved: true });
    expect(applied?.status).toBe('applied');
  };

  /** The record of the run's row at `place`. */
  const row = async (runId: string, place: string): Promise<string | undefined> => {
    const db = pgClient({ connectionString: database });
    await db.connect();
    try {
      const { rows } = await db.query(
        'SELECT record FROM june.calls WHERE run_id = $1 AND place = $2',
        [runId, place],
      );
      return rows[0]?.record as string | undefined;
    } finally {
      await db.end();
    }
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_fork');
    project = tempProject();
    for (const file of readdirSync(fixtures))
      project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
    dir = project.folder('logs');
    other = project.folder('other');
    // the worker resolves a fork's model id through the AI SDK's default provider: here one
    // whose models answer step "plan" as the recorded model would, logging to other/models.log
    project.write(
      'provider.tsx',
      [
        "import { contractModel } from './fixtures/contract-model.js';",
        'globalThis.AI_SDK_DEFAULT_PROVIDER = {',
        '  languageModel: (id: string) =>',
        `    contractModel(${JSON.stringify(other)}, {`,
        '      plan: [',
        "        { toolCalls: [{ id: 'call_ship', tool: 'ship', input: { env: 'staging' } }] },",
        "        { toolCalls: [{ id: 'call_ship', tool: 'ship', input: { env: 'prod' } }] },",
        '        { text: `the plan by ${id}` },',
        '      ],',
        '    }),',
        '} as never;',
        '',
      ].join('\n'),
    );
    project.write(
      'composite.tsx',
      "import './provider.tsx';\nexport { default } from './fixtures/composite.tsx';\n",
    );
    worker = await startWorker(project.dir, database, 'fork-worker', { files: ['composite.tsx'] });
    client = await RunClient.connect(database);
    await client.enqueue({ workflow: 'composite', runId: 'recorded', props: { dir } });
    await approveWhenAsked('recorded', staging);
    await approveWhenAsked('recorded', prod);
    expect((await client.result('recorded')).output).toBe('the plan');
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('names the records of a run over the database as a journal names them', async () => {
    expect((await client.forkPoints('recorded')).map((point) => point.name)).toEqual([
      'model plan #0',
      'model plan#0.0/ship:go #0',
      `approval check ${staging}`,
      `tool check ${staging}`,
      'model plan#0.0/ship:go #1',
      'model plan #1',
      'model plan#1.0/ship:go #0',
      `approval check ${prod}`,
      `tool check ${prod}`,
      'model plan#1.0/ship:go #1',
      'model plan #2',
    ]);
  });

  it('lists the records as JSON lines with june fork --database --json, and names a run it does not know as june fork does in the runs folder', async () => {
    const listed = await june(['fork', 'recorded', '--database', database, '--json'], project.dir);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const points = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
    expect(points).toEqual(JSON.parse(JSON.stringify(await client.forkPoints('recorded'))));
    expect(points[3]).toMatchObject({ n: 4, name: `tool check ${staging}`, type: 'tool-call' });

    const unknown = await june(['fork', 'no-such-run', '--database', database], project.dir);
    expect(unknown.code).toBe(1);
    const newest = (await client.list({ limit: 5 })).map((run) => run.runId);
    expect(newest).toContain('recorded');
    expect(unknown.stderr).toBe(
      `june: there is no run no-such-run in the database (its newest: ${newest.join(', ')}); check the run id, or list every run with june runs --database <url>.\n`,
    );
  }, 60_000);

  let forkId = '';

  it('forks at a nested tool result: the prefix replays with no model call and no tool, the rest runs live', async () => {
    const models = lines(dir, 'models.log').length;
    const effects = lines(dir, 'effects.log');
    expect(effects).toEqual(['check staging', 'check prod']);
    const fork = await client.fork('recorded', {
      at: `tool check ${staging}`,
      change: { result: 'staging skipped' },
    });
    forkId = fork.runId;
    expect(fork).toMatchObject({
      workflow: 'composite',
      point: { name: `tool check ${staging}` },
      replayed: 3,
      forkedFrom: {
        runId: 'recorded',
        record: `tool check ${staging}`,
        change: { kind: 'result', result: 'staging skipped' },
      },
    });
    expect(fork.live).toContain('5 model calls, 1 tool execution (check), 1 approval');

    // the recorded staging approval stands; prod's is asked again
    await approveWhenAsked(forkId, prod);
    const { output, trace } = await client.result(forkId);
    expect(output).toBe('the plan');
    expect(trace.forkedFrom).toEqual({
      runId: 'recorded',
      record: `tool check ${staging}`,
      change: { kind: 'result', result: 'staging skipped' },
    });
    // no model call of the prefix again (plan's first, staging go's first), the rest made live
    expect(lines(dir, 'models.log').slice(models)).toEqual([
      'ship:go|2',
      'plan|2',
      'ship:go|1',
      'ship:go|2',
      'plan|3',
    ]);
    // the staging check did not run: the fork gave its new result, which the model read
    expect(lines(dir, 'effects.log')).toEqual([...effects, 'check prod']);
    expect(await row(forkId, `model ${staging.split('/')[0]}|ship:go#1`)).toContain(
      'staging skipped',
    );
    expect((await client.approvals(forkId)).decisions).toEqual({ [staging]: true, [prod]: true });
  }, 180_000);

  it('forks the fork at an approval with june fork --database: approved becomes denied, and the lineage keeps both runs', async () => {
    expect(forkId).not.toBe('');
    const listed = await june(['fork', forkId, '--database', database], project.dir);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toContain(`8. approval check ${prod}  approved`);

    const models = lines(dir, 'models.log').length;
    const effects = lines(dir, 'effects.log');
    const forked = await june(
      [
        'fork',
        forkId,
        '--at',
        `approval check ${prod}`,
        '--answer',
        'deny',
        '--database',
        database,
      ],
      project.dir,
    );
    expect(forked.stdout).toContain(`forks run ${forkId} at approval check ${prod} (approved)`);
    const queued = /^queued run (\S+)\n$/m.exec(forked.stdout);
    expect(queued).not.toBeNull();
    const again = queued![1]!;

    const { trace } = await client.result(again);
    expect(trace.forkedFrom).toEqual({
      runId: forkId,
      record: `approval check ${prod}`,
      change: { kind: 'answer', approved: false },
      forkedFrom: {
        runId: 'recorded',
        record: `tool check ${staging}`,
        change: { kind: 'result', result: 'staging skipped' },
      },
    });
    // nothing asked, `check prod` not run; only the model calls after the denial are made
    expect(lines(dir, 'effects.log')).toEqual(effects);
    expect(lines(dir, 'models.log').slice(models)).toEqual(['ship:go|2', 'plan|3']);
    expect((await client.approvals(again)).decisions).toEqual({
      [staging]: true,
      [prod]: false,
    });
  }, 180_000);

  it('forks a run its --approve all policy answered, denying one approval: the denial stands over the policy, and the tool does not run', async () => {
    await client.enqueue({
      workflow: 'composite',
      runId: 'policed',
      props: { dir },
      policy: { approve: 'all' },
    });
    expect((await client.result('policed')).output).toBe('the plan');
    const effects = lines(dir, 'effects.log');
    expect(effects.slice(-2)).toEqual(['check staging', 'check prod']);

    const fork = await client.fork('policed', {
      at: `approval check ${prod}`,
      change: { answer: 'deny' },
    });
    await client.result(fork.runId);
    // the fork's denial is given again as recorded, not answered by the policy that travels
    expect((await client.approvals(fork.runId)).decisions[prod]).toBe(false);
    expect(lines(dir, 'effects.log')).toEqual(effects);
  }, 180_000);

  /** The settings of the run's model requests, by place, as its rows in june.calls hold them. */
  const temperatures = async (runId: string): Promise<Record<string, unknown>> => {
    const db = pgClient({ connectionString: database });
    await db.connect();
    try {
      const { rows } = await db.query(
        "SELECT place, record FROM june.calls WHERE run_id = $1 AND place LIKE 'model %'",
        [runId],
      );
      return Object.fromEntries(
        rows.map((found) => {
          const { place, record } = found as { place: string; record: string };
          const parsed = JSON.parse(record) as { request?: { temperature?: unknown } };
          return [place, parsed.request?.temperature];
        }),
      );
    } finally {
      await db.end();
    }
  };

  it('forks with another model from a model call: the prefix makes no model call, the agent that made it answers with the new model from there', async () => {
    const models = lines(dir, 'models.log').length;
    const effects = lines(dir, 'effects.log');
    const fork = await client.fork('recorded', {
      at: 'model plan #1',
      change: { model: 'other-model' },
    });
    expect(fork).toMatchObject({
      point: { name: 'model plan #1' },
      replayed: 5,
      forkedFrom: {
        runId: 'recorded',
        record: 'model plan #1',
        change: { kind: 'model', model: 'other-model' },
      },
    });
    // prod's approval is live again
    await approveWhenAsked(fork.runId, prod);
    const { output, trace } = await client.result(fork.runId);
    expect(output).toBe('the plan by other-model');
    expect(trace.forkedFrom).toMatchObject({ runId: 'recorded', record: 'model plan #1' });
    // the recorded model answered none of the prefix (plan's first call, staging's go) again;
    // it answers only prod's child agent, which the change leaves alone
    expect(lines(dir, 'models.log').slice(models)).toEqual(['ship:go|1', 'ship:go|2']);
    // the new model made plan's calls from the fork point on
    expect(lines(other, 'models.log')).toEqual(['plan|2', 'plan|3']);
    expect(lines(dir, 'effects.log')).toEqual([...effects, 'check prod']);
  }, 180_000);

  it('forks with other settings from a model call, by RunClient.fork and by june fork --database --settings: only the calls from there on are made, with those settings', async () => {
    const models = lines(dir, 'models.log').length;
    const effects = lines(dir, 'effects.log');
    const fork = await client.fork('recorded', {
      at: 'model plan#1.0/ship:go #1',
      change: { settings: { temperature: 0.3 } },
    });
    expect(fork).toMatchObject({
      replayed: 9,
      forkedFrom: { change: { kind: 'model', settings: { temperature: 0.3 } } },
    });
    expect((await client.result(fork.runId)).output).toBe('the plan');
    // prod's approval and check replay as recorded; the changed call and plan's last are made
    expect(lines(dir, 'models.log').slice(models)).toEqual(['ship:go|2', 'plan|3']);
    expect(lines(dir, 'effects.log')).toEqual(effects);
    // the changed call is made with the new temperature; plan's (another agent's) is not
    expect(await temperatures(fork.runId)).toEqual({
      'model |plan#0': undefined,
      'model plan#0.0|ship:go#0': undefined,
      'model plan#0.0|ship:go#1': undefined,
      'model |plan#1': undefined,
      'model plan#1.0|ship:go#0': undefined,
      'model plan#1.0|ship:go#1': 0.3,
      'model |plan#2': undefined,
    });

    const before = lines(dir, 'models.log').length;
    const forked = await june(
      [
        'fork',
        'recorded',
        '--at',
        'model plan #2',
        '--settings',
        '{"temperature":0.7}',
        '--database',
        database,
      ],
      project.dir,
    );
    const queued = /^queued run (\S+)\n$/m.exec(forked.stdout);
    expect(queued, forked.stdout + forked.stderr).not.toBeNull();
    const { output, trace } = await client.result(queued![1]!);
    expect(output).toBe('the plan');
    expect(trace.forkedFrom).toMatchObject({
      runId: 'recorded',
      record: 'model plan #2',
      change: { kind: 'model', settings: { temperature: 0.7 } },
    });
    // the one call at the fork point is made, with the new temperature; nothing else runs
    expect(lines(dir, 'models.log').slice(before)).toEqual(['plan|3']);
    expect(lines(dir, 'effects.log')).toEqual(effects);
    const byCli = await temperatures(queued![1]!);
    expect(byCli['model |plan#2']).toBe(0.7);
    expect(Object.values(byCli).filter((value) => value !== undefined)).toEqual([0.7]);
  }, 180_000);

  it('fails a fork with journal-mismatch when the workflow changed since the recording, before anything runs', async () => {
    await worker!.stop();
    const source = readFileSync(new URL('composite.tsx', fixtures), 'utf8');
    project.write(
      'composite.tsx',
      source
        .replace("'./contract-model.js'", "'./fixtures/contract-model.js'")
        .replace('Plan the release', 'Plan the release carefully'),
    );
    worker = await startWorker(project.dir, database, 'fork-worker', { files: ['composite.tsx'] });
    const models = lines(dir, 'models.log');
    const effects = lines(dir, 'effects.log');
    const fork = await client.fork('recorded', {
      at: `tool check ${staging}`,
      change: { result: 'staging skipped' },
    });
    await expect(client.result(fork.runId)).rejects.toMatchObject({ code: 'journal-mismatch' });
    expect(lines(dir, 'models.log')).toEqual(models);
    expect(lines(dir, 'effects.log')).toEqual(effects);
  }, 180_000);
});
