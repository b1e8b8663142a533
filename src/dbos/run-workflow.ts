import type { LanguageModelUsage } from 'ai';
import { requestPolicyOptions } from '../approvals/request-policy.js';
import type { Component } from '../elements/element.js';
import type { DurableEngineFactory, DurableRunStart } from '../engine/durable-engine.js';
import { errorData, SystemError } from '../errors/index.js';
import type { RunHandle, RunResult } from '../interpreter/run.js';
import { run as juneRun, type RunOptions } from '../run/index.js';
import { runForkOf } from '../run/fork-run.js';
import { plainJson } from '../json/index.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { Redactor } from '../redaction/redactor.js';
import type { Trace } from '../trace/trace-node.js';
import type { CallRecords, RunCallRecords } from './call-records.js';
import { DbosEngine, type DbosAnswerWaits } from './dbos-engine.js';
import { EventPublisher } from './event-publisher.js';
import type { DbosSdk } from './load-dbos.js';
import { RUN_WORKFLOW } from './names.js';
import type { QueuedRun } from './queued-run.js';
import { recoveringScript } from './recovering-script.js';
import type { ThreadStore } from './thread-store.js';
import type { DurableThread } from '../engine/durable-engine.js';
import { queuedRunSecrets, type WorkerSecrets } from './worker-secrets.js';
import type { WorkerShutdown } from './worker-shutdown.js';

export type { QueuedRun } from './queued-run.js';

/**
 * A run that succeeded, as DBOS stores the workflow's output: its output and trace redacted
 * with the run's redaction (what `RunClient.result` gives).
 */
export interface DbosRunOutput {
  output: unknown;
  usage: LanguageModelUsage;
  trace: Trace;
}

/** A workflow a worker can run: its root component and the `run` of the June copy it imports. */
export interface WorkerWorkflow {
  component: Component;
  /** @default June's own `run` */
  run?: typeof juneRun;
}

/**
 * Registers June's run workflow with DBOS (before `DBOS.launch()`): one DBOS workflow that
 * runs any of `workflows` by name, so a run enqueued anywhere is taken by a worker that has
 * its workflow. The run id is the DBOS workflow id. Each run gets the worker's `secrets`:
 * the values of the secret props it names, and the worker's redaction over its own. With
 * `shutdown`, stopping the worker aborts its runs in flight and leaves them pending in the
 * database, for recovery (see {@link WorkerShutdown}). With `records` (the place table of
 * the database, {@link CallRecords}), each run's model calls and tool executions are
 * recorded by their place, and with `answers` too (the worker's waits for answers, see
 * `AnswerWaits`) its approvals; without them, as DBOS steps in the order they start. With
 * `threads` (`june.threads`, {@link ThreadStore}), a run of a thread starts from the
 * conversation the thread's runs before it left, keeps its own when it ends, and lets go of
 * the thread then (not when the worker stops: the run stays pending, holding it).
 */
export function registerRunWorkflow(
  dbos: DbosSdk['DBOS'],
  workflows: ReadonlyMap<string, WorkerWorkflow>,
  secrets: WorkerSecrets = {},
  shutdown?: WorkerShutdown,
  records?: CallRecords,
  answers?: DbosAnswerWaits,
  threads?: ThreadStore,
): (input: QueuedRun) => Promise<DbosRunOutput> {
  const run = (input: QueuedRun) =>
    runQueued(dbos, workflows, secrets, input, shutdown, records && { records, answers }, threads);
  return dbos.registerWorkflow(
    // once the worker stops, DBOS records nothing of a run: it stays pending
    (input: QueuedRun) => (shutdown ? shutdown.hold(run(input)) : run(input)),
    { name: RUN_WORKFLOW },
  );
}

async function runQueued(
  dbos: DbosSdk['DBOS'],
  workflows: ReadonlyMap<string, WorkerWorkflow>,
  secrets: WorkerSecrets,
  input: QueuedRun,
  shutdown: WorkerShutdown | undefined,
  byPlace: { records: CallRecords; answers: DbosAnswerWaits | undefined } | undefined,
  threads: ThreadStore | undefined,
): Promise<DbosRunOutput> {
  const runId = dbos.workflowID!;
  // taken from the queue as the worker stops: left pending, untouched
  if (shutdown?.stopping) return new Promise<never>(() => {});
  const publisher = new EventPublisher(dbos, shutdown);
  const publishing = publisher.start(); // always the run's first step
  let handle: RunHandle | undefined;
  let forget: (() => void) | undefined;
  let redactor: Redactor | undefined;
  const thread = new RunThread(runId, input, threads, shutdown);
  try {
    const workflow = workflows.get(input.workflow);
    if (!workflow) throw workflowMissing(input.workflow, [...workflows.keys()]);
    const { props, redact } = queuedRunSecrets(runId, input, secrets);
    // the run's own redaction covers what is stored before its engine starts (an early failure)
    if (redact) redactor = new Redactor(redact, configuredSecrets);
    const script = input.script ? recoveringScript(input.script) : undefined;
    const placed = await byPlace?.records.forRun(runId); // read once, as the run (or its recovery) starts
    const engine = engineFactory(dbos, runId, {
      ...(placed && !placed.legacy ? { records: placed.records } : {}),
      ...(placed && !placed.legacy && byPlace?.answers ? { answers: byPlace.answers } : {}),
      ...(shutdown ? { shutdown } : {}),
      publisher,
      script,
      started: (start) => (redactor = start.redactor),
      cancelled: () => handle?.abort('the run was cancelled (june cancel)'),
      thread,
    });
    const options = queuedRunOptions(runId, input, engine, { props, redact, script }, secrets);
    const started = (workflow.run ?? juneRun)(workflow.component, options);
    handle = started;
    forget = shutdown?.track(runId, started);
    return storedOutput(await started.result, redactor ?? configuredSecrets);
  } catch (error) {
    const stored = storedError(error, redactor ?? configuredSecrets);
    failedRuns.set(stored, runId);
    throw stored;
  } finally {
    forget?.();
    publisher.close();
    // the workflow ends once DBOS recorded the publishing step (after its events are
    // written): both transactions lock the run's status row, and recorded beside the
    // workflow's completion the step's record made the completion wait for its lock (50 ms
    // a run at 100 runs at once, bench/profile-notes.md); a stopping worker's publishing step
    // never ends (its run stays pending)
    if (!shutdown?.stopping) await publishing.catch(() => {});
    else publishing.catch(() => {});
  }
}

/** The options of the queued run's `run()`: the run's own, read from its queued input and the worker's settings. */
function queuedRunOptions(
  runId: string,
  input: QueuedRun,
  engine: RunOptions['engine'],
  given: { props: RunOptions['props']; redact: RunOptions['redact']; script: RunOptions['model'] },
  secrets: WorkerSecrets,
): RunOptions {
  const { props, redact, script } = given;
  return {
    runId,
    workflow: input.workflow,
    stream: false,
    engine,
    ...(props ? { props } : {}),
    ...(redact ? { redact } : {}),
    ...(script ? { model: script } : {}),
    ...(input.strict ? { strict: true } : {}),
    ...requestPolicyOptions(input.policy),
    ...(input.fork ? { fork: runForkOf(input.fork) } : {}),
    ...(secrets.prices ? { prices: secrets.prices } : {}),
  };
}

/**
 * The DBOS engine of a run: its calls and approvals recorded in its place table (`records`,
 * the answers awaited through `answers`; none for a run an older June started: DBOS steps), its events through `publisher`, whose step also
 * watches for the run's cancellation.
 */
function engineFactory(
  dbos: DbosSdk['DBOS'],
  runId: string,
  parts: {
    records?: RunCallRecords;
    answers?: DbosAnswerWaits;
    shutdown?: WorkerShutdown;
    publisher: EventPublisher;
    script: ReturnType<typeof recoveringScript> | undefined;
    started: (start: DurableRunStart) => void;
    cancelled: () => void;
    thread: RunThread;
  },
): DurableEngineFactory {
  const { publisher, script } = parts;
  return async (start) => {
    parts.started(start);
    await parts.thread.start();
    return new DbosEngine({
      dbos,
      runId,
      redactor: start.redactor,
      stop: start.stop,
      ...(parts.records ? { records: parts.records } : {}),
      ...(parts.answers ? { answers: parts.answers } : {}),
      cancelSignal: () => publisher.cancelSignal,
      ...(parts.shutdown ? { shutdown: parts.shutdown } : {}),
      cancelled: parts.cancelled,
      publish: (event) => publisher.publish(event),
      replayed: (call) => script?.skip(call.place.step),
      ...(parts.thread.thread
        ? {
            thread: parts.thread.thread,
            conversation: (agent, messages) => parts.thread.keep(agent, messages, start.redactor),
            ended: () => parts.thread.end(),
          }
        : {}),
    });
  };
}

/** DBOS stores the workflow's output: redacted as the run's other records are. */
function storedOutput(result: RunResult, redactor: Redactor): DbosRunOutput {
  return {
    output: redactor.value(plainJson(result.output)),
    usage: result.usage,
    trace: redactor.value(result.trace),
  };
}

/** The errors this process stored for failed runs, with their run ids (DBOS logs each one). */
const failedRuns = new WeakMap<object, string>();

/**
 * The id of the run that failed with `error`, when `error` is what this process stored for a
 * failed run (DBOS hands it to its logger); `undefined` for anything else.
 */
export function failedRunOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? failedRuns.get(error) : undefined;
}

/**
 * The thread a queued run continues, over `june.threads`: its place (written once, as it was
 * queued, so a recovery reads the same history) and the conversation the thread's runs
 * before it left; at the run's end, the thread agent's conversation kept (redacted) and the
 * thread let go, unless the worker is stopping (the run stays pending, holding it).
 */
class RunThread {
  thread: DurableThread | undefined;
  #conversation: { agent: string; messages: unknown[] } | undefined;

  constructor(
    private readonly runId: string,
    private readonly input: QueuedRun,
    private readonly threads: ThreadStore | undefined,
    private readonly shutdown: WorkerShutdown | undefined,
  ) {}

  /** Reads the run's place and history, as its engine is made. */
  async start(): Promise<void> {
    const { input } = this;
    if (input.thread === undefined) return;
    if (!this.threads) throw threadsMissing(input.thread);
    const { order } = await this.threads.take(input.thread, this.runId);
    const history = await this.threads.history(input.thread, order);
    this.thread = {
      id: input.thread,
      order,
      ...(input.threadAgent !== undefined ? { agent: input.threadAgent } : {}),
      messages: history.messages,
    };
  }

  /** The thread agent finished: its conversation, kept at the run's end. */
  keep(agent: string, messages: readonly unknown[], redactor: Redactor): void {
    this.#conversation = { agent, messages: redactor.value([...messages]) };
  }

  /** The run ended here (its engine's `finish`): keeps the conversation and lets go. */
  async end(): Promise<void> {
    if (this.thread && this.threads && !this.shutdown?.stopping)
      await this.threads.end(this.runId, this.#conversation);
  }
}

function threadsMissing(threadId: string): SystemError {
  return new SystemError(
    'run-host-unsupported',
    `june: the run continues thread "${threadId}", and this worker keeps no threads (it runs without June's tables); start it with june worker.`,
  );
}

function workflowMissing(name: string, known: string[]): SystemError {
  return new SystemError(
    'dbos-workflow-missing',
    `june: this worker has no workflow "${name}" (it has ${known.map((k) => `"${k}"`).join(', ') || 'none'}); start a worker with that workflow's file.`,
  );
}

/**
 * The error DBOS stores for a failed run: the run's error as June records it everywhere else
 * ({@link errorData}: name, message without configured credentials, a `JuneError`'s code and
 * comparison) on a plain `Error` DBOS can serialize, with the run's trace when the error has one;
 * all of it redacted as the run's records are (its `redact` option, configured credentials).
 */
function storedError(error: unknown, redactor: Redactor): Error {
  const { message, ...rest } = redactor.value(errorData(error));
  const stored = Object.assign(new Error(message), plainJson(rest) as typeof rest);
  const trace = (error as { trace?: unknown } | null | undefined)?.trace;
  if (trace) Object.assign(stored, { trace: redactor.value(plainJson(trace)) });
  return stored;
}
