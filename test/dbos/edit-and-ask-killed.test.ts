// One run over DBOS and a real PostgreSQL that asks a <Question> and has a person edit a
// tool call before it runs (test/fixtures/edit-and-ask: the model asks which version to
// ship, asks to deploy to staging, and the person makes it prod), queued with
// `june run --database --script` and answered with `june approve --answer` and `--input`.
// Its worker is killed with SIGKILL while the question or the approval waits and a worker is
// started again with the same executor id: nothing is asked or called twice, the deploy runs
// once with the edit, and the run ends as the same run answered without the kill does.
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { Trace } from 'june';
import { RunClient } from 'june/dbos';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pgClient, type PgClient } from '../../src/dbos/pg-driver.js';
import type { RunLogEvent } from '../../src/events/run-event.js';
import { june, repoRoot, tempProject } from '../cli/cli-harness.js';
import {
  afterTheEdit,
  deploys,
  expectEditedAndAnsweredTrace,
  modelCallsReplayed,
  outcome,
} from '../fixtures/edit-and-ask/expected.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixture = join(repoRoot, 'test', 'fixtures', 'edit-and-ask');
const workflow = join(fixture, 'release.tsx');
const script = join(fixture, 'release.script.json');
/** Who answers with `june approve`: the user it runs as, through the database. */
const person = { source: 'cli', answeredBy: userInfo().username };

/** A step DBOS recorded for a run: its name and what it returned. */
interface RecordedStep {
  name: string;
  output: unknown;
  /** When DBOS started the step, or June stored the call's record (ms). */
  at: number;
}

describe.runIf(!missing)(
  'runs over DBOS: a question, an edited call, and a kill -9 at the wait',
  () => {
    let pg: TestPostgres;
    let database: string;
    let project: ReturnType<typeof tempProject>;
    let client: RunClient;
    let db: PgClient;
    const workers = new Set<WorkerProcess>();
    let straight: { runId: string; trace: Trace; output: unknown };

    const start = async (cwd: string, executor: string) => {
      const worker = await startWorker(cwd, database, executor, { files: [workflow] });
      workers.add(worker);
      return worker;
    };
    const kill = async (worker: WorkerProcess) => {
      await worker.kill();
      workers.delete(worker);
    };
    /** Queues a run of the fixture with its script, as `june run --database --script` does; its id. */
    const enqueue = async (cwd: string) => {
      const queued = await june(['run', workflow, '--database', database, '--script', script], cwd);
      expect(queued.code).toBe(0);
      return /^queued run (\S+)$/m.exec(queued.stdout)![1]!;
    };
    /** Waits until the run waits for a call of `tool`; that request's id. */
    const waitingFor = async (runId: string, tool: string) => {
      let id: string | undefined;
      await waitFor(
        async () => {
          id = (await client.waiting(runId)).find((request) => request.tool === tool)?.id;
          return id !== undefined;
        },
        60_000,
        `the run to wait for ${tool}`,
      );
      return id!;
    };
    const approve = async (cwd: string, runId: string, id: string, ...flags: string[]) => {
      const answered = await june(['approve', runId, id, '--database', database, ...flags], cwd);
      expect(answered.stderr).toBe('');
      expect(answered.code).toBe(0);
      return answered.stdout;
    };
    const answerQuestion = async (cwd: string, runId: string) => {
      const id = await waitingFor(runId, 'ask_version');
      expect(await approve(cwd, runId, id, '--answer', '"1.3.0"')).toContain(
        `answered the question ${id} of run ${runId}`,
      );
    };
    const editDeploy = async (cwd: string, runId: string) => {
      const id = await waitingFor(runId, 'deploy');
      expect(await approve(cwd, runId, id, '--input', '{"env":"prod"}')).toContain(
        `approved ${id} of run ${runId} with an edited input`,
      );
    };
    /** The steps DBOS recorded for the run, in order. */
    const steps = async (runId: string): Promise<RecordedStep[]> => {
      const { rows } = await db.query(
        `SELECT function_name, output, started_at_epoch_ms FROM dbos.operation_outputs WHERE workflow_uuid = $1 ORDER BY function_id`,
        [runId],
      );
      // DBOS keeps a step's output as superjson: plain JSON under `json`, here
      const plain = (text: unknown) => {
        const stored = text === null ? null : (JSON.parse(String(text)) as unknown);
        return (stored as { json?: unknown } | null)?.json ?? stored;
      };
      return rows.map((row) => ({
        name: String(row.function_name),
        output: plain(row.output),
        at: Number(row.started_at_epoch_ms),
      }));
    };
    /** The run's model calls and tool executions June recorded, by place (`june.calls`), in key order. */
    const calls = async (runId: string): Promise<RecordedStep[]> => {
      const { rows } = await db.query(
        `SELECT place, record, (extract(epoch from stored_at) * 1000)::float8 AS at FROM june.calls WHERE run_id = $1 ORDER BY place`,
        [runId],
      );
      return rows.map((row) => ({
        name: String(row.place),
        output: JSON.parse(String(row.record)) as unknown,
        at: Number(row.at),
      }));
    };
    const modelSteps = async (runId: string) =>
      (await calls(runId)).filter((call) => call.name.startsWith('model '));
    /** The run's events as its followers read them, to its end. */
    const events = async (runId: string) => {
      const read: RunLogEvent[] = [];
      for await (const event of client.events(runId)) read.push(event);
      return read;
    };

    /** What every finished run of the fixture must show, in DBOS's records and its trace. */
    const expectEditedAndAnswered = async (cwd: string, runId: string) => {
      const { trace, output } = await client.result(runId);
      // the tool ran once, with the edit
      expect(deploys(cwd)).toEqual([{ env: 'prod' }]);
      expect(output).toBe('Shipped.');
      expectEditedAndAnsweredTrace(trace, person);

      // the requests as asked (the model's input), the answers as given, and who gave them
      const told = await events(runId);
      expect(told.filter((event) => event.type === 'approval-request')).toMatchObject([
        {
          request: {
            tool: 'ask_version',
            kind: 'question',
            input: {},
            question: { prompt: 'Which version should ship?' },
          },
        },
        { request: { tool: 'deploy', input: { env: 'staging' } } },
      ]);
      const responses = told.filter((event) => event.type === 'approval-response');
      expect(responses).toMatchObject([
        { approved: false, output: '1.3.0', automatic: false, ...person },
        { approved: true, input: { env: 'prod' }, automatic: false, ...person },
      ]);
      const approvals = await client.approvals(runId);
      expect(approvals.waiting).toEqual([]);
      expect(Object.values(approvals.decisions)).toEqual([false, true]);

      // what the database keeps (June's records by place): each request and each answer
      // taken once, as given; the deploy's execution once, with the edit, and each of the three
      // model calls once, the one after the edit reading the edited call and its result. DBOS
      // numbers no approval as a step (its only step is the one that publishes the events,
      // recorded unless the run ended first).
      const recorded = await steps(runId);
      expect(recorded.filter((step) => step.name !== 'june.events')).toEqual([]);
      const approvalRecords = (await calls(runId)).filter(
        (call) => !/^(model|tool) /.test(call.name),
      );
      expect(approvalRecords.map((call) => call.name)).toEqual([
        'answer ship#0.0',
        'answer ship#1.0',
        'approval ship#0.0',
        'approval ship#1.0',
      ]);
      expect(approvalRecords.map((call) => call.output)).toMatchObject([
        { approved: false, output: '1.3.0', ...person },
        { approved: true, input: { env: 'prod' }, ...person },
        { tool: 'ask_version', kind: 'question' },
        { tool: 'deploy', input: { env: 'staging' } },
      ]);
      expect((await calls(runId)).filter((call) => call.name.startsWith('tool '))).toMatchObject([
        {
          name: 'tool |ship|ship#1.0',
          output: { tool: 'deploy', input: { env: 'prod' }, output: 'Deployed to prod' },
        },
      ]);
      const models = await modelSteps(runId);
      expect(models.map((step) => step.name)).toEqual([
        'model |ship#0',
        'model |ship#1',
        'model |ship#2',
      ]);
      const prompt = (models[2]!.output as { request: { prompt: unknown[] } }).request.prompt;
      expect(prompt.slice(-2)).toEqual(afterTheEdit);
      return { trace, output };
    };

    beforeAll(async () => {
      pg = await startPostgres();
      database = pg.url('june_edit_and_ask');
      project = tempProject();
      // the run answered without a kill, to compare the others with (its worker makes the database)
      const cwd = project.folder('straight');
      const worker = await start(cwd, 'worker-straight');
      client = await RunClient.connect(database);
      db = pgClient({ connectionString: database });
      await db.connect();
      const runId = await enqueue(cwd);
      await answerQuestion(cwd, runId);
      await editDeploy(cwd, runId);
      const { trace, output } = await client.result(runId);
      straight = { runId, trace, output };
      await worker.stop();
      workers.delete(worker);
    }, 180_000);

    // each case's runs are taken by its own workers only (a worker started again puts its runs
    // back on the queue, for any worker), so their deploys land in the case's folder
    afterEach(async () => {
      await Promise.all([...workers].map((worker) => worker.stop()));
      workers.clear();
    });

    afterAll(async () => {
      await client?.close().catch(() => {});
      await db?.end().catch(() => {});
      await Promise.all([...workers].map((worker) => worker.stop().catch(() => {})));
      await pg?.stop();
      project?.remove();
    });

    it('without a kill: the deploy runs once with the edit, the model reads the edited call, the records keep both answers', async () => {
      await expectEditedAndAnswered(join(project.dir, 'straight'), straight.runId);
      expect(modelCallsReplayed(straight.trace)).toEqual([false, false, false]);
    }, 60_000);

    it('killed while the deploy waits: a worker started again asks only the deploy, runs it once with the edit, and ends as without the kill', async () => {
      const cwd = project.folder('killed-at-approval');
      const worker = await start(cwd, 'worker-b');
      const runId = await enqueue(cwd);
      await answerQuestion(cwd, runId);
      await waitingFor(runId, 'deploy');
      await kill(worker);
      const killedAt = Date.now();
      expect(deploys(cwd)).toEqual([]);
      expect((await modelSteps(runId)).map((step) => step.name)).toEqual([
        'model |ship#0',
        'model |ship#1',
      ]);

      await start(cwd, 'worker-b');
      // the question is not asked again: only the deploy waits
      const id = await waitingFor(runId, 'deploy');
      expect((await client.waiting(runId)).map((request) => request.id)).toEqual([id]);
      await editDeploy(cwd, runId);

      const { trace, output } = await expectEditedAndAnswered(cwd, runId);
      // the two model calls made before the kill were not made again
      const models = await modelSteps(runId);
      expect(models.slice(0, 2).every((step) => step.at < killedAt)).toBe(true);
      expect(models[2]!.at).toBeGreaterThan(killedAt);
      expect(modelCallsReplayed(trace)).toEqual([true, true, false]);
      expect(output).toEqual(straight.output);
      expect(outcome(trace)).toEqual(outcome(straight.trace));
    }, 180_000);

    it('killed while the question waits: a worker started again asks it, then the deploy, and ends as without the kill', async () => {
      const cwd = project.folder('killed-at-question');
      const worker = await start(cwd, 'worker-c');
      const runId = await enqueue(cwd);
      await waitingFor(runId, 'ask_version');
      await kill(worker);
      const killedAt = Date.now();
      expect((await modelSteps(runId)).map((step) => step.name)).toEqual(['model |ship#0']);

      await start(cwd, 'worker-c');
      await answerQuestion(cwd, runId);
      await editDeploy(cwd, runId);

      const { trace, output } = await expectEditedAndAnswered(cwd, runId);
      const models = await modelSteps(runId);
      expect(models[0]!.at).toBeLessThan(killedAt);
      expect(models.slice(1).every((step) => step.at > killedAt)).toBe(true);
      expect(modelCallsReplayed(trace)).toEqual([true, false, false]);
      expect(output).toEqual(straight.output);
      expect(outcome(trace)).toEqual(outcome(straight.trace));
    }, 180_000);

    it('killed while the deploy waits, the edit given while no worker runs: the worker started again takes it and runs the deploy once with it', async () => {
      const cwd = project.folder('edited-while-down');
      const worker = await start(cwd, 'worker-d');
      const runId = await enqueue(cwd);
      await answerQuestion(cwd, runId);
      const id = await waitingFor(runId, 'deploy');
      await kill(worker);

      const edited = await june(
        ['approve', runId, id, '--input', '{"env":"prod"}', '--database', database],
        cwd,
      );
      expect(edited.code).toBe(0);
      expect(edited.stdout).toContain(`approved ${id} of run ${runId} with an edited input`);
      expect(edited.stderr).toContain(`june: the run ${runId} has not taken the answer yet`);
      // stored: the run waits for nothing more, and nothing ran
      expect(await client.waiting(runId)).toEqual([]);
      expect(deploys(cwd)).toEqual([]);

      await start(cwd, 'worker-d');
      const { trace, output } = await expectEditedAndAnswered(cwd, runId);
      expect(modelCallsReplayed(trace)).toEqual([true, true, false]);
      expect(output).toEqual(straight.output);
      expect(outcome(trace)).toEqual(outcome(straight.trace));
    }, 180_000);
  },
);

describe.runIf(missing)('runs over DBOS: a question, an edited call, and a kill -9', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
