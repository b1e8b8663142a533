import type { RunLogEvent } from '../events/run-event.js';
import { JuneError, WorkflowError } from '../errors/index.js';
import { newRunId } from '../engine/run-id.js';
import { stableJson } from '../json/stable-json.js';
import { AnswerStore, settledAnswerOf } from './answer-store.js';
import { checkAnswerFits } from './answer-fit.js';
import { messageOf, type DbosAnswer, type DbosAnswerResult } from './dbos-answer.js';
import type { DbosApprovalAnswer, DbosApprovalRequest } from './dbos-engine.js';
import { databaseError } from './database-error.js';
import { probeDatabase } from './database-probe.js';
import type { StreamedRunEvents } from './event-publisher.js';
import { loadDbos } from './load-dbos.js';
import {
  APPLICATION,
  APPLICATION_VERSION,
  APPROVALS_EVENT,
  EVENTS_STREAM,
  FOLLOW_POLLING_MS,
  RUN_WORKFLOW,
  approvalEvent,
  approvalTopic,
  approvalTurn,
  queueName,
} from './names.js';
import { queuedRun, type QueuedRun, type RunToEnqueue } from './queued-run.js';

export type { DbosAnswer, DbosAnswerResult } from './dbos-answer.js';
import type { DbosRunOutput } from './run-workflow.js';
import { EnqueueNotices } from './enqueue-notices.js';
import { readRows, storeRows } from './dbos-fork.js';
import { forkRows, rowForkPoints } from '../run/fork-rows.js';
import { pgPool, type PgPool } from './pg-driver.js';
import { changeRecord, type ForkChange, type ForkedFrom, type ForkPoint } from '../run/fork-run.js';
import type { ModelScript } from '../testing/script-format.js';
import { StreamWakeups } from './stream-wakeups.js';
import { RetoldEvents } from './retold-events.js';
import { ThreadStore } from './thread-store.js';
import { checkThreadId, type ThreadHistory, type ThreadRun } from '../engine/thread-id.js';

type Client = import('@dbos-inc/dbos-sdk').DBOSClient;

/**
 * `getEvent`'s options for reading an event once, without waiting for it. A timeout of 0
 * is not that: DBOS's wait reads the clock twice, and when a millisecond passes between the
 * two reads it sleeps -1 ms, which Node warns of on stderr (`TimeoutNegativeWarning`), then
 * reads the event a second time. A deadline already past ends the wait after its first read.
 */
const READ_ONCE = { timeoutSeconds: -1 };
type WorkflowStatus = import('@dbos-inc/dbos-sdk').WorkflowStatus;

/** How a run over a database stands: `queued`, `running`, or how it ended. */
export type DbosRunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** One run in the database, as `june runs` lists it. */
export interface DbosRunSummary {
  runId: string;
  workflow: string;
  status: DbosRunStatus;
  /** The executor id of the worker that took it. */
  worker?: string;
  /** Approval requests waiting for an answer. */
  waiting: DbosApprovalRequest[];
  /**
   * Requests approved while another request of their model turn waits: their calls wait too
   * (a step goes on once every request of its turn is answered) and run then. Nothing to answer.
   */
  held: DbosApprovalRequest[];
  /** ms since epoch. */
  createdAt: number;
  /** A failed run's error message. */
  error?: string;
  /** The thread the run continues (`RunToEnqueue.thread`): its id and the run's place in it. */
  thread?: { id: string; order: number };
}

/** Options of {@link RunClient.connect}. */
export interface RunClientOptions {
  /**
   * ms between a follower's reads of a run's events when no notification woke it sooner
   * (`events`): new events are read when the worker's notification of them arrives, and at
   * least this often (notifications do not pass a pooler in transaction mode), and a run's
   * end is seen at the next read after it. One statement per read while a follower waits.
   * {@link RunClient.result} reads the run's status this often too while it waits.
   * @default 50
   */
  followPollingMs?: number;
}

/**
 * A connection to the database of runs, for processes that enqueue, follow, answer and
 * cancel runs without running any (a web app, `june run --database`, `june approve`).
 * Every method throws `database-unreachable` / `database-auth-failed` for a database it
 * cannot use.
 */
export class RunClient {
  readonly #client: Client;
  readonly #url: string;
  readonly #wakeups: StreamWakeups;
  readonly #notices: EnqueueNotices;
  readonly #followPollingMs: number;
  readonly #answers: AnswerStore;
  #pool: PgPool | undefined;
  readonly #threads: ThreadStore;

  private constructor(client: Client, url: string, followPollingMs: number) {
    this.#client = client;
    this.#url = url;
    this.#answers = new AnswerStore(url);
    this.#threads = new ThreadStore(url);
    this.#wakeups = new StreamWakeups(url, client);
    this.#notices = new EnqueueNotices(url);
    this.#followPollingMs = followPollingMs;
  }

  /**
   * Connects to `database` (a PostgreSQL URL).
   * @throws {SystemError} `dbos-missing`
   */
  static async connect(database: string, options: RunClientOptions = {}): Promise<RunClient> {
    const { DBOSClient } = await loadDbos();
    await probeDatabase(database, false);
    const client = await DBOSClient.create({
      systemDatabaseUrl: database,
      applicationName: APPLICATION,
    });
    return new RunClient(client, database, options.followPollingMs ?? FOLLOW_POLLING_MS);
  }

  /**
   * Enqueues a run of the workflow `workflow` (its name on the workers: `release` for
   * `release.tsx`); a worker that has it takes it. `script` and `props` travel with the run;
   * secret props travel by name only and take their values from the worker; the run's
   * redaction travels as environment variable names and patterns (see {@link RunToEnqueue}).
   * A given `runId` makes the call idempotent: the same request again (the same workflow,
   * props, script and settings) is the same run, queued once. A run of that id that is
   * another request (another workflow, other props), whatever its status, is refused, as a
   * journal refuses a second run of one id (`journal-exists`): DBOS itself would hand back
   * the older run, and its result would pass for this one's. Once the run is stored, the
   * workflow's workers are told (a notification on a connection of the client's own), so an
   * idle worker starts it at once instead of at its next poll of the queue.
   *
   * With `options.onlyNew` the run is queued only when the database has no run of `runId` at
   * all: of any number of such calls at once, in any processes, DBOS lets exactly one store
   * it, and every other is refused, the same request too (a chat's message sent twice).
   * @returns the run id (given, or a new one).
   * @throws {WorkflowError} `dbos-props-secret` when the props or script hold a secret the
   *   run redacts (nothing is stored); `dbos-run-exists` when `runId` is a run of another
   *   request, or, with `onlyNew`, of any request.
   */
  async enqueue(run: RunToEnqueue, options: RunEnqueueOptions = {}): Promise<string> {
    const input = queuedRun(run);
    const runId = run.runId ?? newRunId();
    const queue = queueName(run.workflow);
    const onlyNew = options.onlyNew === true && run.runId !== undefined;
    // a run of a thread takes its place and the thread's hold before it is stored
    const place = input.thread
      ? await this.#call(() => this.#threads.take(input.thread!, runId))
      : undefined;
    const letGo = async () => {
      if (place?.taken) await this.#threads.forget(runId).catch(() => {});
    };
    const enqueued = this.#call(async () => {
      const sdk = await loadDbos();
      try {
        await this.#client.enqueue(
          {
            workflowName: RUN_WORKFLOW,
            queueName: queue,
            workflowID: runId,
            appVersion: APPLICATION_VERSION,
            // DBOS's own uniqueness of workflow ids decides which of the calls stored the run
            ...(onlyNew ? { workflowIDReusePolicy: 'reject' as const } : {}),
          },
          input,
        );
      } catch (error) {
        if (onlyNew && sdk.Error.isWorkflowIDInUseError(error))
          throw runTaken(runId, (error as { status?: string }).status);
        throw error;
      }
    });
    enqueued.then(() => this.#notices.notify(queue)).catch(() => {});
    if (run.runId === undefined || onlyNew) {
      await enqueued.catch(async (error: unknown) => {
        await letGo();
        throw error;
      });
      return runId;
    }
    // DBOS keeps the first run of an id (of two enqueues at once, too), or refuses one of
    // another workflow: either way, what the database holds says whether this request is it
    const failed = await enqueued.then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    await this.#sameRequest(runId, input).catch(async (error: unknown) => {
      await letGo();
      throw error;
    });
    if (failed) {
      await letGo();
      throw failed.error;
    }
    return runId;
  }

  /**
   * The runs of a thread in the database, in their order (oldest first); `[]` for a thread
   * with none. @throws {WorkflowError} `thread-id-invalid`
   */
  async listThread(threadId: string): Promise<ThreadRun[]> {
    checkThreadId(threadId);
    return this.#call(() => this.#threads.list(threadId));
  }

  /** The ids of the threads with a run in the database, sorted. */
  async listThreads(): Promise<string[]> {
    return this.#call(() => this.#threads.threads());
  }

  /**
   * What the thread's next run starts from: the conversation its newest run that left one
   * left (see `threadConversation`). @throws {WorkflowError} `thread-id-invalid`
   */
  async threadConversation(threadId: string): Promise<ThreadHistory> {
    checkThreadId(threadId);
    return this.#call(() => this.#threads.history(threadId, 2 ** 31 - 1));
  }

  /**
   * Deletes a thread from the database: its runs (their DBOS workflows, with their events
   * and steps, and June's rows of their calls and answers) and its rows in `june.threads`, so
   * its conversation is gone and a next run of the thread id starts a new one.
   * @returns the runs deleted, in order.
   * @throws {WorkflowError} `thread-id-invalid`
   * @throws {SystemError} `thread-busy` while a run of the thread is queued or runs.
   */
  async deleteThread(threadId: string): Promise<ThreadRun[]> {
    checkThreadId(threadId);
    return this.#call(() =>
      this.#threads.delete(threadId, (runIds) => this.#client.deleteWorkflows(runIds)),
    );
  }

  /** Refuses `runId` when the database has a run of that id made for another request. */
  async #sameRequest(runId: string, input: QueuedRun): Promise<void> {
    const existing = await this.#call(() => this.#client.getWorkflow(runId));
    if (!existing) return;
    const stored = existing.workflowName === RUN_WORKFLOW ? existing.input?.[0] : undefined;
    if (stored !== undefined && sameInput(stored, input)) return;
    const what =
      existing.workflowName !== RUN_WORKFLOW
        ? `a workflow that is not a June run (${existing.workflowName})`
        : (stored as QueuedRun | undefined)?.workflow === input.workflow
          ? `a run of "${input.workflow}" with other props or settings`
          : `a run of "${(stored as QueuedRun | undefined)?.workflow ?? '?'}"`;
    throw new WorkflowError(
      'dbos-run-exists',
      `june: the database already has a run ${runId}, ${what} (${statusOf(existing.status)}); a run of "${input.workflow}" cannot take its id. Leave out the run id for a new run, or pick another one.`,
    );
  }

  /**
   * Forks the run `runId` at one of its records with one change there, as `forkRun` forks a
   * journal (the same record names and numbers, see {@link RunClient.forkPoints}, and the same
   * changes), into a new run of the same workflow over the database: the run's records before
   * the fork point are copied under the new run id with the changed record, in one
   * transaction, and the new run is enqueued with the recorded props (or `props`), script and
   * settings, its lineage (`forkedFrom`) in its input and trace. Its worker replays that prefix
   * without a model call or a tool execution (approvals answered as recorded) and runs the rest
   * live. A changed model is a model id, resolved by the worker. A workflow that changed since
   * the recording fails with `journal-mismatch` at the first record that no longer fits.
   *
   * @throws {WorkflowError} `dbos-run-unknown`, `fork-record-unknown`, `fork-change-invalid`,
   *   `dbos-run-exists` (a `runId` the database has).
   * @example
   * ```ts
   * const fork = await client.fork(runId, { at: 'approval deploy plan#1.0', change: { answer: 'deny' } });
   * await client.result(fork.runId);
   * ```
   */
  async fork(runId: string, options: DbosForkOptions): Promise<DbosFork> {
    const status = await this.#status(runId);
    const stored = (status.input?.[0] ?? {}) as QueuedRun;
    if ('model' in options.change && typeof options.change.model !== 'string')
      throw new WorkflowError(
        'fork-change-invalid',
        'june: a fork over the database changes the model to a model id (the worker resolves it, as the AI SDK resolves a model id), not a model object.',
      );
    const change = changeRecord(options.change);
    const forkId = options.runId ?? newRunId();
    if (options.runId !== undefined && (await this.#call(() => this.#client.getWorkflow(forkId))))
      throw new WorkflowError(
        'dbos-run-exists',
        `june: the database already has a run ${forkId}; a fork is a new run: leave out its run id, or pick another one.`,
      );
    const pool = this.#forkPool();
    const rows = await this.#call(() => readRows(pool, runId));
    const forked = forkRows(runId, rows, stored.fork, { runId: forkId, at: options.at, change });
    const props =
      options.props === undefined
        ? undefined
        : queuedRun({
            workflow: stored.workflow,
            props: options.props,
            ...(stored.secretProps ? { secretProps: stored.secretProps } : {}),
          }).props;
    const input: QueuedRun = {
      ...stored,
      ...(props ? { props } : {}),
      ...(options.script ? { script: options.script } : {}),
      fork: forked.forkedFrom,
    };
    await this.#call(() => storeRows(pool, forkId, forked.rows));
    const queue = queueName(stored.workflow);
    await this.#call(() =>
      this.#client.enqueue(
        {
          workflowName: RUN_WORKFLOW,
          queueName: queue,
          workflowID: forkId,
          appVersion: APPLICATION_VERSION,
          workflowIDReusePolicy: 'reject' as const,
        },
        input,
      ),
    );
    this.#notices.notify(queue);
    return {
      runId: forkId,
      workflow: stored.workflow,
      forkedFrom: forked.forkedFrom,
      point: forked.point,
      replayed: forked.replayed,
      live: forked.live,
    };
  }

  /**
   * What {@link fork} would make of the same arguments, checked as it checks them, with
   * nothing stored or queued: the record, how much replays, what runs live after it.
   * @throws {WorkflowError} what {@link fork} throws, `dbos-run-exists` aside.
   */
  async forkPlan(
    runId: string,
    options: Pick<DbosForkOptions, 'at' | 'change'>,
  ): Promise<Omit<DbosFork, 'runId' | 'forkedFrom'>> {
    const status = await this.#status(runId);
    const stored = (status.input?.[0] ?? {}) as QueuedRun;
    const change = changeRecord(options.change);
    const rows = await this.#call(() => readRows(this.#forkPool(), runId));
    const planned = forkRows(runId, rows, stored.fork, {
      runId: `${runId}-plan`,
      at: options.at,
      change,
    });
    return {
      workflow: stored.workflow,
      point: planned.point,
      replayed: planned.replayed,
      live: planned.live,
    };
  }

  /**
   * The records the run `runId` may be forked at, in the order they were stored, named and
   * numbered as `forkPoints` names a journal's (see {@link RunClient.fork}).
   * @throws {WorkflowError} `dbos-run-unknown`
   */
  async forkPoints(runId: string): Promise<ForkPoint[]> {
    await this.#status(runId);
    const rows = await this.#call(() => readRows(this.#forkPool(), runId));
    return rowForkPoints(rows);
  }

  #forkPool(): PgPool {
    return (this.#pool ??= pgPool({
      connectionString: this.#url,
      connectionTimeoutMillis: 10_000,
      max: 2,
      idleTimeoutMillis: 10_000,
    }));
  }

  /** The run's approval requests still waiting for an answer. @throws {WorkflowError} `dbos-run-unknown` */
  async waiting(runId: string): Promise<DbosApprovalRequest[]> {
    await this.#status(runId);
    return this.#waiting(runId);
  }

  /**
   * Answers approval requests of a run: `requestId`, or every waiting one with `all`. The
   * first answer stored for a request is the one that applies, whichever process gives it,
   * decided atomically in the database (June's table `june.answers`, see `AnswerStore`),
   * where the run waits for it by the request's id (one an older June started gets it as a
   * DBOS message, sent in the same transaction). The answer is stored even while no worker
   * runs the run; the run gets it when a worker takes it up ({@link untaken} tells).
   * @returns one result per request: `applied`, `answered` (another answer stands: the
   *   result names it), `unknown` (no such request; `pending` lists the waiting ones).
   *
   * An answer may approve with an edited `input`, or answer instead of the tool with an
   * `output`: either is checked first against the tool's schema the request published (as
   * JSON Schema), and one that does not fit is refused before anything is stored, so the
   * request still waits.
   * @throws {WorkflowError} `dbos-run-unknown` (no such run), `dbos-run-finished` (the run
   *   has ended: for `all`, or for a request it got no answer to; the answer to one it got
   *   is told as `answered`); `approval-input-invalid`, `approval-output-invalid`,
   *   `approval-answer-invalid` for an edit or output that does not fit (nothing stored).
   */
  async approve(runId: string, answer: DbosAnswer): Promise<DbosAnswerResult[]> {
    const status = await this.#status(runId);
    const ended = !['PENDING', 'ENQUEUED'].includes(status.status);
    const known = await this.#approvals(runId);
    const ids = answer.all ? known.waiting.map((request) => request.id) : [answer.requestId ?? ''];
    // an ended run takes nothing; of a request it got an answer to, that answer is told
    if (ended && (answer.all || !known.answers.has(answer.requestId ?? '')))
      throw new WorkflowError(
        'dbos-run-finished',
        `june: the run ${runId} has ended (${statusOf(status.status)}); there is nothing to approve.`,
      );
    const results: DbosAnswerResult[] = [];
    for (const id of ids) {
      const request = known.requests.find((asked) => asked.id === id);
      const standing = known.answers.get(id);
      if (!request) results.push({ status: 'unknown', ref: id, pending: known.waiting });
      else if (standing)
        results.push({ status: 'answered', request, answer: settledAnswerOf(standing) });
      else {
        checkAnswerFits(request, answer);
        const message = messageOf(id, answer);
        results.push(await this.#answer(runId, request, message, known.placed.has(id)));
      }
    }
    return results;
  }

  /**
   * Stores `message`, unless another answer to `request` was stored first. A request the run
   * recorded by place (`placed`) waits for the stored answer itself; to one published as a
   * DBOS event (a run an older June started, which receives its answers with `DBOS.recv`) the
   * answer is sent as a DBOS message too, with the row that makes it the answer.
   */
  async #answer(
    runId: string,
    request: DbosApprovalRequest,
    message: DbosApprovalAnswer,
    placed: boolean,
  ): Promise<DbosAnswerResult> {
    const standing = await this.#call(() =>
      this.#answers.store(runId, message, async (db) => {
        if (placed) return;
        await this.#client.sendInTransaction(
          db as Parameters<Client['sendInTransaction']>[0],
          runId,
          message,
          approvalTopic(message.id),
          `${runId}/${message.id}`,
        );
      }),
    );
    return standing
      ? { status: 'answered', request, answer: settledAnswerOf(standing) }
      : { status: 'applied', request, answer: settledAnswerOf(message) };
  }

  /**
   * Waits up to `waitMs` ms for the run `runId` to take the answers to `requestIds` (its
   * worker received them), looking every `followPollingMs` ms.
   * @returns the ids whose answers the run has not taken yet: no worker runs it now (it
   *   died, or the run is queued), or every worker is busy.
   */
  async untaken(runId: string, requestIds: string[], waitMs: number): Promise<string[]> {
    if (requestIds.length === 0) return [];
    const deadline = Date.now() + waitMs;
    for (;;) {
      const received = await this.#received(runId);
      const left = requestIds.filter((id) => !received.has(id));
      if (left.length === 0 || Date.now() >= deadline) return left;
      await new Promise((resolve) => setTimeout(resolve, this.#followPollingMs));
    }
  }

  /** Cancels a run: its worker aborts it (the running tool's `abortSignal` fires) and it ends `cancelled`. */
  async cancel(runId: string): Promise<void> {
    await this.#status(runId);
    await this.#call(() => this.#client.cancelWorkflow(runId));
  }

  /** The runs in the database, newest first; `idPrefix`: only runs whose id starts with it. */
  async list(options: { limit?: number; idPrefix?: string } = {}): Promise<DbosRunSummary[]> {
    const runs = await this.#call(() =>
      this.#client.listWorkflows({
        workflowName: RUN_WORKFLOW,
        sortDesc: true,
        limit: options.limit ?? 50,
        loadInput: true,
        ...(options.idPrefix !== undefined ? { workflow_id_prefix: options.idPrefix } : {}),
      }),
    );
    const threads = await this.#call(() => this.#threads.ofRuns(runs.map((run) => run.workflowID)));
    return Promise.all(runs.map((run) => this.#summary(run, threads.get(run.workflowID))));
  }

  /** One run as {@link list} shows it. @throws {WorkflowError} `dbos-run-unknown` */
  async get(runId: string): Promise<DbosRunSummary> {
    const status = await this.#status(runId);
    const threads = await this.#call(() => this.#threads.ofRuns([runId]));
    return this.#summary(status, threads.get(runId));
  }

  /**
   * The run's events from its start, as its worker publishes them, until it ends. A run
   * recovered by a worker tells its events again from the start, maybe in another order:
   * those already given are matched by what they concern and skipped (see `RetoldEvents`). New events are read as soon as the worker's notification of them arrives (the
   * client listens on one connection of its own from its first follower on), and every
   * `followPollingMs` ms anyway (see {@link RunClientOptions}); the end of the run is seen at
   * the first read after its workflow ended.
   */
  async *events(runId: string): AsyncGenerator<RunLogEvent> {
    await this.#status(runId);
    await this.#wakeups.listen();
    const retold = new RetoldEvents();
    const read = { pollingIntervalMs: this.#followPollingMs };
    for await (const value of this.#client.readStream<StreamedRunEvents>(
      runId,
      EVENTS_STREAM,
      read,
    )) {
      if ('start' in value) {
        retold.telling();
        continue;
      }
      if (value.first) retold.telling(); // a recovered run tells its events again
      for (const told of value.events) {
        const event = retold.take(told);
        if (event) yield event;
      }
    }
  }

  /**
   * Waits for the run to end: its output when it succeeded. Reads the run's status every
   * `followPollingMs` ms (50 by default; DBOS's own default is 1000), so the result comes at
   * most that long after the run ended, for one statement a read.
   * @throws the run's error (with its `code`)
   */
  async result(runId: string): Promise<DbosRunOutput> {
    await this.#status(runId);
    const polling = { pollingIntervalMs: this.#followPollingMs };
    return this.#call(() => this.#client.retrieveWorkflow<DbosRunOutput>(runId).getResult(polling));
  }

  /** Closes the connection (and those that listen for new events and tell workers of new runs). */
  async close(): Promise<void> {
    await this.#answers.close();
    await this.#pool?.end().catch(() => {});
    await this.#threads.close();
    await this.#wakeups.close();
    await this.#notices.close();
    await this.#client.destroy();
  }

  async #summary(
    run: WorkflowStatus,
    thread?: { id: string; order: number },
  ): Promise<DbosRunSummary> {
    const status = statusOf(run.status);
    const error = run.error as { message?: string } | undefined;
    return {
      runId: run.workflowID,
      workflow: (run.input?.[0] as QueuedRun | undefined)?.workflow ?? '?',
      status,
      ...(run.executorId && status !== 'queued' ? { worker: run.executorId } : {}),
      ...(status === 'running'
        ? await this.#approvals(run.workflowID).then(({ waiting, held }) => ({ waiting, held }))
        : { waiting: [], held: [] }),
      createdAt: run.createdAt,
      ...(error?.message ? { error: error.message } : {}),
      ...(thread ? { thread } : {}),
    };
  }

  async #status(runId: string): Promise<WorkflowStatus> {
    const status = await this.#call(() => this.#client.getWorkflow(runId));
    if (!status || status.workflowName !== RUN_WORKFLOW)
      throw new WorkflowError(
        'dbos-run-unknown',
        `june: there is no run ${runId} in the database; see june runs --database for the runs there.`,
      );
    return status;
  }

  /**
   * Every approval request the run made: those still waiting, the ids of those answered
   * (received by the run, or stored by {@link approve} for a run whose worker has yet to take
   * them; `decisions`: approved or not, by id), and the approved ones held with a
   * waiting request of their turn (see {@link DbosRunSummary.held}).
   * @throws {WorkflowError} `dbos-run-unknown`
   */
  async approvals(runId: string): Promise<{
    waiting: DbosApprovalRequest[];
    answered: string[];
    decisions: Record<string, boolean>;
    held: DbosApprovalRequest[];
  }> {
    await this.#status(runId);
    const { waiting, answered, decisions, held } = await this.#approvals(runId);
    return { waiting, answered, decisions, held };
  }

  /** The requests the run published, less those answered. */
  async #waiting(runId: string): Promise<DbosApprovalRequest[]> {
    return (await this.#approvals(runId)).waiting;
  }

  /**
   * The run's requests, the answers it has (received by the run, or stored for it and not
   * received yet: a run whose worker is gone), and those waiting for one.
   */
  async #approvals(runId: string) {
    const placed = await this.#call(() => this.#answers.placed(runId));
    const requests = await this.#requests(runId, placed.requests);
    const ids = new Set(placed.requests.map((request) => request.id));
    if (requests.length === 0)
      return {
        requests,
        placed: ids,
        answers: new Map<string, DbosApprovalAnswer>(),
        waiting: [],
        answered: [],
        decisions: {},
        held: [],
      };
    const received = await this.#received(runId, placed.taken);
    const stored = await this.#call(() => this.#answers.answers(runId));
    const answers = new Map<string, DbosApprovalAnswer>([...stored, ...received]);
    const waiting = requests.filter((request) => !answers.has(request.id));
    const open = new Set(waiting.map((request) => approvalTurn(request.id)));
    open.delete(undefined);
    return {
      requests,
      placed: ids,
      answers,
      waiting,
      answered: requests.flatMap((request) => (answers.has(request.id) ? [request.id] : [])),
      decisions: Object.fromEntries([...answers].map(([id, answer]) => [id, answer.approved])),
      held: requests.filter(
        (request) =>
          answers.get(request.id)?.approved === true && open.has(approvalTurn(request.id)),
      ),
    };
  }

  /**
   * The answers the run took, by request id: those it recorded by place (`taken`, read
   * now when not given) and those it received with `DBOS.recv` (a run an older June started).
   */
  async #received(
    runId: string,
    taken?: Map<string, DbosApprovalAnswer>,
  ): Promise<Map<string, DbosApprovalAnswer>> {
    const placed = taken ?? (await this.#call(() => this.#answers.placed(runId))).taken;
    const steps = (await this.#call(() => this.#client.listWorkflowSteps(runId))) ?? [];
    return new Map([
      ...steps
        .filter((step) => step.name === 'DBOS.recv')
        .map((step) => step.output as DbosApprovalAnswer | null)
        .flatMap((answer) => (answer ? [[answer.id, answer] as const] : [])),
      ...placed,
    ]);
  }

  /**
   * Every approval request the run asked, in the order it asked them: those an older June
   * published as DBOS events (one event each, {@link approvalEvent}, read in batches up to
   * the first one not written yet, and the whole list runs of still older June versions
   * wrote), then those recorded by place (`placed`, see `AnswerStore.placed`).
   */
  async #requests(runId: string, placed: DbosApprovalRequest[]): Promise<DbosApprovalRequest[]> {
    const event = <T>(key: string) =>
      this.#call(() => this.#client.getEvent<T>(runId, key, READ_ONCE));
    const older = (await event<DbosApprovalRequest[]>(APPROVALS_EVENT)) ?? [];
    const found = new Map(older.map((request) => [request.id, request]));
    for (let from = 0; ; from += REQUESTS_READ_AT_ONCE) {
      const batch = await Promise.all(
        Array.from({ length: REQUESTS_READ_AT_ONCE }, (_, i) =>
          event<DbosApprovalRequest>(approvalEvent(from + i)),
        ),
      );
      const end = batch.findIndex((request, i) => !request && from + i >= older.length);
      for (const request of end === -1 ? batch : batch.slice(0, end))
        if (request && !found.has(request.id)) found.set(request.id, request);
      if (end !== -1) break;
    }
    for (const request of placed) if (!found.has(request.id)) found.set(request.id, request);
    return [...found.values()];
  }

  async #call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (JuneError.isInstance(error)) throw error;
      throw databaseError(error, this.#url);
    }
  }
}

/** Options of {@link RunClient.fork}. */
export interface DbosForkOptions {
  /** The record to fork at: its name or number (see {@link RunClient.forkPoints}). */
  at: string | number;
  /** The one change there (a changed model is a model id the worker resolves). */
  change: ForkChange;
  /** The fork's run id. @default a new one */
  runId?: string;
  /** The root component's props for the fork (the secret ones travel by name). @default the recorded run's */
  props?: Record<string, unknown>;
  /** A model script answering the fork's model calls instead of the recorded run's. @default the recorded run's */
  script?: ModelScript;
}

/** A fork made by {@link RunClient.fork}, enqueued. */
export interface DbosFork {
  runId: string;
  /** The workflow's name, the recorded run's. */
  workflow: string;
  /** Its lineage, as its input and trace carry it. */
  forkedFrom: ForkedFrom;
  /** The record it was forked at. */
  point: ForkPoint;
  /** How many recorded model calls, tool executions and approvals replay. */
  replayed: number;
  /** What runs live after the fork point, in words. */
  live: string;
}

/** Options of {@link RunClient.enqueue}. */
export interface RunEnqueueOptions {
  /**
   * Queue the run only if the database has no run of its `runId` yet, whatever request made
   * that one: exactly one of any number of such calls at once stores it, and the others are
   * refused with `dbos-run-exists` (its message names the run's status). Only with a `runId`.
   * @default false: the same request again is the same run, queued once
   */
  onlyNew?: boolean;
}

/** The refusal of an `onlyNew` enqueue whose run id the database has already (DBOS status `status`). */
function runTaken(runId: string, status: string | undefined): WorkflowError {
  const state = status === undefined ? '' : ` (${statusOf(status)})`;
  return new WorkflowError(
    'dbos-run-exists',
    `june: the database already has a run ${runId}${state}; onlyNew queues a run only under an id no run has. Follow that run, or pick another id.`,
  );
}

/** How many request events {@link RunClient} reads at once. */
const REQUESTS_READ_AT_ONCE = 8;

/** Whether a stored run input is `input`, compared as JSON with keys sorted (what the database keeps). */
function sameInput(stored: unknown, input: QueuedRun): boolean {
  return stableJson(stored) === stableJson(JSON.parse(JSON.stringify(input)));
}

function statusOf(status: string): DbosRunStatus {
  switch (status) {
    case 'ENQUEUED':
    case 'DELAYED':
      return 'queued';
    case 'PENDING':
      return 'running';
    case 'SUCCESS':
      return 'succeeded';
    case 'CANCELLED':
      return 'cancelled';
    default:
      return 'failed';
  }
}
