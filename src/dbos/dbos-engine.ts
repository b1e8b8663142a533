import { withReason } from '../approvals/with-reason.js';
import type { AskedQuestion } from '../approvals/approval-request.js';
import type {
  ApprovalAnswer,
  ApprovalQuestion,
  OutsideAnswer,
  DurableEngine,
  DurableThread,
  ModelAnswer,
  ModelCallAt,
  ToolCallAt,
} from '../engine/durable-engine.js';
import type { RunLogEvent } from '../events/run-event.js';
import { errorData, revivedError, WorkflowError, type ErrorData } from '../errors/index.js';
import { journalMismatch } from '../engine/journal-mismatch.js';
import { stableJson } from '../json/stable-json.js';
import { hashModelRequest } from '../models/model-request.js';
import { plainJson } from '../json/index.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import type { Redactor } from '../redaction/redactor.js';
import type { DbosSdk } from './load-dbos.js';
import { placeKey } from '../engine/durable-place.js';
import type { RunCallRecords } from './call-records.js';
import {
  ANSWER_POLLING_MS,
  approvalAnswerKey,
  approvalEvent,
  approvalRequestId,
  approvalRequestKey,
  approvalTopic,
  stepName,
} from './names.js';
import type { WorkerShutdown } from './worker-shutdown.js';

/** A run's approval request as June publishes it for `june runs` and `june approve`. */
export interface DbosApprovalRequest {
  /** The stable id to answer it with (`june approve <runId> <id>`): the same after a recovery. */
  id: string;
  tool: string;
  input: unknown;
  step: string;
  /** A `<Question>`'s request: `'question'`, and what it asks (see `ApprovalRequest.question`). */
  kind?: 'question';
  question?: AskedQuestion;
  /**
   * The tool's input schema as JSON Schema, when it has one: `RunClient.approve` checks an
   * edited input against it before sending it. Absent from requests published before.
   */
  inputSchema?: Record<string, unknown>;
  /** The tool's output schema as JSON Schema: an answer instead of the tool is checked against it. */
  outputSchema?: Record<string, unknown>;
}

/**
 * The message `june approve` (or Studio, or the web handler, over the database) sends on a
 * request's topic: the answer, who gave it (`answeredBy`), when (`answeredAt`, ISO 8601) and
 * through what (`source`; absent: `database`). Messages sent before these fields read as
 * answered through `database` when the run received them.
 */
export interface DbosApprovalAnswer {
  id: string;
  approved: boolean;
  reason?: string;
  /** An approval's edited input: the call runs with it. */
  input?: unknown;
  /** An answer instead of the tool (with `approved: false`): the model reads it as the call's result. */
  output?: unknown;
  answeredBy?: string;
  answeredAt?: string;
  source?: string;
}

/**
 * The waits for answers stored over the database (`AnswerWaits`, one per worker): resolves
 * with the answer stored for a run's request, at once or once one is; past `deadline` (ms
 * since epoch), with the stored denial of the timeout. Rejects when `signal` aborts.
 */
export interface DbosAnswerWaits {
  wait(
    runId: string,
    requestId: string,
    deadline: number,
    signal: AbortSignal,
  ): Promise<DbosApprovalAnswer>;
}

/** An approval request as the run's place table records it: when it was first asked, too. */
interface RecordedRequest extends DbosApprovalRequest {
  /** ISO 8601: the request's timeout counts from then, in every process that waits for it. */
  askedAt: string;
}

/** Options of {@link DbosEngine}. */
export interface DbosEngineOptions {
  dbos: DbosSdk['DBOS'];
  runId: string;
  /** Stops the run (a mismatch): June aborts it and settles it with this error. */
  stop: (reason: unknown) => void;
  /** DBOS cancelled the workflow (`june cancel`): abort the run, so running work's abort signal fires. */
  cancelled: () => void;
  /**
   * The stop of the worker running the run: once it begins, work that ends (aborted, most
   * often) ends for the run but is not recorded, so the run stays pending for recovery.
   */
  shutdown?: WorkerShutdown;
  /** Each event, its approval ids made stable (see {@link DbosApprovalRequest.id}). */
  publish?: (event: RunLogEvent) => void;
  /**
   * The run's place table ({@link CallRecords}): each finished model call and tool execution
   * is recorded under its place, whatever order it started in. Without it (a run an older
   * June started), each is a DBOS step, numbered in the order it starts.
   */
  records?: RunCallRecords;
  /**
   * With `records`: approvals are recorded by place too (the request and the answer the run
   * took, each a row of the place table), and their answers awaited here, in `june.answers`,
   * by request id, whatever order they are asked in. Without them, each approval is a DBOS
   * event and `DBOS.recv`, numbered in the order they are asked (a run an older June started).
   */
  answers?: DbosAnswerWaits;
  /**
   * The workflow's cancel signal (DBOS's, watched by the run's publishing step): work that
   * runs outside a DBOS step is aborted through it when `june cancel` cancels the run.
   */
  cancelSignal?: () => AbortSignal | undefined;
  /** A model call was answered from the record (its work did not run). */
  replayed?: (call: ModelCallAt) => void;
  /** The thread the run continues (its place and history from `june.threads`, see `ThreadStore`). */
  thread?: DurableThread;
  /** The thread agent finished: its whole conversation, to keep for the thread's next run. */
  conversation?: (agent: string, messages: readonly unknown[]) => void;
  /** The run ended in this process ({@link DbosEngine.finish}): its thread is let go. */
  ended?: () => Promise<void>;
  /** How long an approval waits before it counts as denied, in seconds. @default 30 days */
  approvalTimeoutSeconds?: number;
  /**
   * What to keep out of what DBOS stores (the run's redactor: its `redact` option and the
   * configured credentials): model calls (request and answer), tool calls (input and
   * output) and approval requests are recorded redacted, as a file journal records them,
   * while the run goes on with the real values; a `journal-mismatch` shows both requests
   * redacted. @default the configured credentials
   */
  redactor?: Redactor;
}

/** A tool execution as its DBOS step records it: the input (redacted), and the output or the error. */
interface RecordedToolCall {
  /** The tool's name (absent from records made as DBOS steps, whose step name holds it). */
  tool?: string;
  input: unknown;
  output?: unknown;
  error?: ErrorData;
}

interface RecordedModelCall {
  requestHash: string;
  request: unknown;
  answer: ModelAnswer;
}

const THIRTY_DAYS_S = 30 * 24 * 3600;

/**
 * The durable engine of a run over DBOS: each model call and each tool execution is recorded
 * under its place in the run's place table ({@link CallRecords}: a row keyed by the run's id
 * and the call's place), so a recovered run gets the recorded answer and the work does not
 * run again (only work in flight at a crash runs again); an approval's request and the answer
 * the run took are recorded there too, under the request's id, and the answer awaited in
 * `june.answers` by that id ({@link DbosEngine.approval}). A composite tool's child run is
 * part of the same workflow: its own model calls and tools are recorded at its nested places.
 *
 * DBOS numbers a workflow's steps in the order they start, so calls are not DBOS steps: a
 * recovered run whose tools (or composite calls' child runs) start in another order than
 * before still finds each call's own record, and so does an approval asked in another order.
 * A recorded model call keeps its request's hash
 * and a tool call its tool and input, so a changed workflow stops with `journal-mismatch`
 * instead of taking another call's answer. A run an older June started (its calls are DBOS
 * steps, named by place) goes on with DBOS steps, in the order they start, and its approvals
 * as DBOS events and `DBOS.recv`.
 */
export class DbosEngine implements DurableEngine {
  failure: unknown;
  readonly decidesApprovals = false;
  readonly #options: DbosEngineOptions;
  /** How many approval requests the run made so far (each one's event is numbered). */
  #asked = 0;
  /** Whether the workflow's cancel signal is watched already (see {@link DbosEngine.#watchCancel}). */
  #watching = false;
  /** The AI SDK's approval ids (new in every process) to stable ids. */
  readonly #stableIds = new Map<string, string>();
  /** Ends the waits for answers still going on (the run ended). */
  readonly #waits = new Set<AbortController>();

  constructor(options: DbosEngineOptions) {
    this.#options = options;
  }

  get #redactor(): Redactor {
    return this.#options.redactor ?? configuredSecrets;
  }

  /** The thread the run continues, when it is a thread's run. */
  get thread(): DurableThread | undefined {
    return this.#options.thread;
  }

  /** Hands the thread agent's conversation on (kept in `june.threads` when the run ends). */
  conversation(agent: string, messages: readonly unknown[]): void {
    this.#options.conversation?.(agent, messages);
  }

  /** The run's id (the DBOS workflow id). */
  get runId(): string {
    return this.#options.runId;
  }

  /**
   * @inheritdoc The record keeps the request redacted and the hash of that redacted form (as
   * a file journal does), so neither a secret nor a hash to guess it by is stored; a record
   * holding the hash of the request in clear (made before) is still recognised.
   */
  async modelCall(call: ModelCallAt, work: () => Promise<ModelAnswer>): Promise<ModelAnswer> {
    // DBOS keeps what the step returns: the record is redacted, the live answer is not
    const request = this.#redactor.value(call.request);
    const requestHash = request === call.request ? call.requestHash : hashModelRequest(request);
    let live: { answer: ModelAnswer } | undefined;
    const recorded = await this.#record<RecordedModelCall>(
      `model ${placeKey(call.place)}#${call.index}`,
      stepName('model', call.place, call.index),
      async () => {
        this.#watchCancel();
        live = { answer: await work() };
        return { requestHash, request, answer: this.#redactor.value(live.answer) };
      },
    );
    if (live) return live.answer;
    this.#options.replayed?.(call);
    if (recorded.requestHash !== requestHash && recorded.requestHash !== call.requestHash)
      throw this.#stop(
        journalMismatch(
          'resume',
          `run ${this.runId}`,
          call.place,
          call.index,
          // redacted before the difference is clipped out of it: a record kept in clear (by a
          // worker told fewer secrets) would leave a cut secret that no redaction finds later
          this.#redactor.value(recorded.request),
          request,
        ),
      );
    return recorded.answer;
  }

  /**
   * @inheritdoc A composite call is not a step: its child run's calls are, at their own places.
   * A tool's error is recorded as June records it (redacted, with its code and blame, as a
   * file journal does), not as DBOS would serialize the thrown value: a recovered run throws
   * an error with the same name, message and code again. An aborted execution's error is
   * left to DBOS, as before.
   */
  toolCall(call: ToolCallAt, work: () => unknown): unknown {
    if (call.composite) return work();
    const given = plainJson(call.input);
    // recorded redacted, as a file journal records it; the live output is not
    const redactedInput = this.#redactor.value(given);
    let live: { output: unknown } | { error: unknown } | undefined;
    // the tool's name is kept in the place table's record (a DBOS step's name holds it)
    const tool = this.#options.records ? { tool: call.tool } : {};
    return this.#record<RecordedToolCall>(
      `tool ${placeKey(call.place)}|${call.call}`,
      stepName('tool', call.place, call.call, call.tool),
      async () => {
        this.#watchCancel();
        try {
          live = { output: await lastOf(work()) };
        } catch (error) {
          if (call.abortSignal?.aborted) throw error;
          live = { error };
          return {
            ...tool,
            input: redactedInput,
            error: this.#redactor.value(errorData(error, { blame: true })),
          };
        }
        return { ...tool, input: redactedInput, output: this.#redactor.value(live.output) };
      },
    ).then((recorded) => {
      if (live) {
        if ('error' in live) throw live.error;
        return live.output;
      }
      const { input, output } = recorded;
      if (recorded.tool !== undefined && recorded.tool !== call.tool)
        throw this.#stop(
          new WorkflowError(
            'journal-mismatch',
            `june: the workflow no longer matches run ${this.runId}: the tool call ${call.call} in step "${call.place.step}" was a call of "${recorded.tool}" when the run was recorded, now of "${call.tool}". Recover the run with the workflow as it was, or cancel it and start a new run.`,
          ),
        );
      // a record made before inputs were redacted holds the input in clear
      const recordedInput = stableJson(input);
      if (recordedInput !== stableJson(redactedInput) && recordedInput !== stableJson(given))
        throw this.#stop(
          new WorkflowError(
            'journal-mismatch',
            `june: the workflow no longer matches run ${this.runId}: the tool call ${call.call} of "${call.tool}" in step "${call.place.step}" had the input ${this.#redactor.text(recordedInput)} when the run was recorded, now ${stableJson(redactedInput)}. Recover the run with the workflow as it was, or cancel it and start a new run.`,
          ),
        );
      if (recorded.error) throw revivedError(recorded.error);
      return output;
    });
  }

  /** @inheritdoc */
  async needsApproval(
    _call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean> {
    return (await decide()) === true;
  }

  /**
   * Waits for the answer to one approval request, durably, by place: the request is recorded
   * in the run's place table under its request id ({@link approvalRequestKey}), then asked
   * (its event emitted, a policy or a person told), so whoever sees it can answer it. Its
   * answer is the first one stored for it in `june.answers` (by `june approve`, Studio, the
   * web handler, from any process, even days later and after a restart of every worker, or
   * the timeout's denial), and the run records it took it ({@link approvalAnswerKey}) before
   * the call goes on. A recovered run finds each request's own records whatever order its
   * approvals are asked in (child runs of composite calls running at once): a recorded answer
   * is given again at once, an unanswered request waits again, its timeout counted from when
   * it was first asked. A request recorded for another tool or input is `journal-mismatch`.
   *
   * A run an older June started (its calls are DBOS steps) asks as it did:
   * {@link DbosEngine.#approvalAsSteps}.
   */
  approval(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    const entry = this.#requestOf(question);
    this.#stableIds.set(question.id, entry.id);
    const { records, answers } = this.#options;
    if (!records || !answers) return this.#approvalAsSteps(question, entry);
    this.#watchCancel();
    const recorded = records.get(approvalRequestKey(entry.id)) as RecordedRequest | undefined;
    if (recorded) {
      const mismatch = this.#requestMismatch(recorded, entry, question);
      if (mismatch) return Promise.reject(this.#stop(mismatch));
    }
    // an answer the run took before (a recovered run, a fork's changed answer) is given again
    // without asking: a policy asked first would answer in its place
    const taken = recorded && records.get(approvalAnswerKey(recorded.id));
    if (taken !== undefined) return question.replay(decisionOf(taken as DbosApprovalAnswer));
    const stored = recorded
      ? Promise.resolve(recorded)
      : (records.store(approvalRequestKey(entry.id), {
          ...entry,
          askedAt: new Date().toISOString(),
        }) as Promise<RecordedRequest>);
    const requested = stored.then((request) => ({ request, asked: question.ask() }));
    requested.then(
      ({ request, asked }) => this.#answerByPlace(question, request, asked),
      () => {},
    );
    return requested.then(({ asked }) => asked);
  }

  /**
   * Gives the question its answer: the one the run took before (recorded), else the first
   * stored for it, recorded as taken first. Stops waiting once the question is settled some
   * other way (withdrawn as the run was aborted) or the run ends.
   */
  #answerByPlace(
    question: ApprovalQuestion,
    request: RecordedRequest,
    asked: Promise<ApprovalAnswer>,
  ): void {
    const records = this.#options.records!;
    const key = approvalAnswerKey(request.id);
    const taken = records.get(key) as DbosApprovalAnswer | undefined;
    if (taken) {
      answerWith(question, taken);
      return;
    }
    const wait = new AbortController();
    this.#waits.add(wait);
    const done = () => {
      this.#waits.delete(wait);
      wait.abort(new Error('june: the approval is settled'));
    };
    asked.then(done, done);
    const timeout = (this.#options.approvalTimeoutSeconds ?? THIRTY_DAYS_S) * 1000;
    const deadline = Date.parse(request.askedAt) + timeout;
    const take = async (): Promise<DbosApprovalAnswer> => {
      for (;;) {
        const message = await this.#options.answers!.wait(
          this.runId,
          request.id,
          Number.isNaN(deadline) ? Date.now() + timeout : deadline,
          wait.signal,
        );
        try {
          return (await records.store(key, message)) as DbosApprovalAnswer;
        } catch {
          // not recorded (the database went away): looked up and recorded again a poll later
          if (wait.signal.aborted) throw wait.signal.reason;
          await new Promise((resolve) => setTimeout(resolve, ANSWER_POLLING_MS).unref?.());
        }
      }
    };
    take().then(
      (message) => {
        if (!wait.signal.aborted) answerWith(question, message);
      },
      () => {},
    );
  }

  /** The journal-mismatch of a recorded request of another tool or input at the request's place, if it is one. */
  #requestMismatch(
    recorded: RecordedRequest,
    entry: DbosApprovalRequest,
    question: ApprovalQuestion,
  ): WorkflowError | undefined {
    const where = `the approval request "${entry.id}" in step "${this.#redactor.text(entry.step)}"`;
    if (recorded.tool !== entry.tool)
      return new WorkflowError(
        'journal-mismatch',
        `june: the workflow no longer matches run ${this.runId}: ${where} was for a call of "${recorded.tool}" when the run was recorded, now of "${entry.tool}". Recover the run with the workflow as it was, or cancel it and start a new run.`,
      );
    // a request recorded by a worker told fewer secrets holds more in clear
    const recordedInput = stableJson(recorded.input);
    if (
      recordedInput !== stableJson(entry.input) &&
      recordedInput !== stableJson(plainJson(question.input))
    )
      return new WorkflowError(
        'journal-mismatch',
        `june: the workflow no longer matches run ${this.runId}: ${where} asked to call "${entry.tool}" with ${this.#redactor.text(recordedInput)} when the run was recorded, now with ${stableJson(entry.input)}. Recover the run with the workflow as it was, or cancel it and start a new run.`,
      );
    return undefined;
  }

  /** The request as the database keeps it (redacted), with its stable id. */
  #requestOf(question: ApprovalQuestion): DbosApprovalRequest {
    return {
      id: approvalRequestId(question.place, question.call),
      tool: question.tool,
      input: this.#redactor.value(plainJson(question.input)),
      step: question.place.step,
      ...(question.question !== undefined
        ? {
            kind: 'question' as const,
            question: this.#redactor.value(question.question) as AskedQuestion,
          }
        : {}),
      ...(question.schemas?.input ? { inputSchema: question.schemas.input } : {}),
      ...(question.schemas?.output ? { outputSchema: question.schemas.output } : {}),
    };
  }

  /**
   * An approval of a run an older June started, as it asked them: the request published as
   * an event of its own ({@link approvalEvent}) and its answer received on its own topic
   * with `DBOS.recv`, each taking a DBOS step number in the order the approvals are asked
   * (a recovered run must ask them in the same order: one that gets another request's
   * recorded answer stops with `journal-mismatch`).
   */
  #approvalAsSteps(
    question: ApprovalQuestion,
    entry: DbosApprovalRequest,
  ): Promise<ApprovalAnswer> {
    const { dbos } = this.#options;
    // both calls take their DBOS step numbers now, in call order, before anything is awaited
    const published = dbos.setEvent(approvalEvent(this.#asked++), entry);
    const received = dbos.recv<DbosApprovalAnswer>(
      approvalTopic(entry.id),
      this.#options.approvalTimeoutSeconds ?? THIRTY_DAYS_S,
    );
    const requested = published.then(
      () => ({ asked: question.ask() }),
      // a cancelled workflow writes nothing more: the run is aborted, and so is the request
      () => {
        this.#options.cancelled();
        return { asked: question.ask() };
      },
    );
    Promise.all([requested, received]).then(
      ([, message]) => {
        if (typeof message?.id === 'string' && message.id !== entry.id)
          this.#stop(answerOfAnother(this.runId, entry, message.id, this.#redactor));
        else answerWith(question, message);
      },
      () => this.#options.cancelled(),
    );
    return requested.then(({ asked }) => asked);
  }

  /** @inheritdoc Approval ids are made stable (the id `june approve` takes). */
  publish(event: RunLogEvent): void {
    const stable = (id: string) => this.#stableIds.get(id) ?? id;
    if (event.type === 'approval-request')
      this.#options.publish?.({
        ...event,
        request: { ...event.request, id: stable(event.request.id) },
      });
    else if (event.type === 'approval-response' || event.type === 'approval-withdraw')
      this.#options.publish?.({ ...event, id: stable(event.id) });
    else this.#options.publish?.(event);
  }

  /**
   * Nothing to write (DBOS records how the workflow ended); the waits for answers end, and a
   * run of a thread lets go of it (`ended`).
   */
  async finish(): Promise<void> {
    for (const wait of this.#waits) wait.abort(new Error('june: the run ended'));
    this.#waits.clear();
    await this.#options.ended?.();
  }

  /**
   * The record of the call at `key` in the run's place table: the stored one, without running
   * `work`; else `work`'s, stored before it is given back. Work that ends after the worker
   * began to stop ends for the run (its result is given back) and is not stored: the call
   * runs again on recovery. Without a place table (a run an older June started): the DBOS
   * step `name` ({@link DbosEngine.#step}).
   */
  #record<T>(key: string, name: string, work: () => Promise<T>): Promise<T> {
    const records = this.#options.records;
    if (!records) return this.#step(name, work);
    const recorded = records.get(key);
    if (recorded !== undefined) return Promise.resolve(recorded as T);
    return work().then(async (record) => {
      if (this.#options.shutdown?.stopping) return record;
      return (await records.store(key, record)) as T;
    });
  }

  /**
   * `DBOS.runStep(work, { name })`, its step number taken now; a step recorded under another
   * name is a mismatch. Work that ends after the worker began to stop ends for the run (its
   * result or error is given back) while DBOS records nothing.
   */
  #step<T>(name: string, work: () => Promise<T>): Promise<T> {
    const shutdown = this.#options.shutdown;
    if (!shutdown) return this.#dbosStep(name, work);
    return new Promise<T>((resolve, reject) => {
      const held = () => {
        const running = work();
        running.then(
          (value) => shutdown.stopping && resolve(value),
          (error: unknown) => shutdown.stopping && reject(error),
        );
        return shutdown.hold(running);
      };
      this.#dbosStep(name, held).then(resolve, reject);
    });
  }

  #dbosStep<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.#options.dbos
      .runStep(work, { name, retriesAllowed: false })
      .catch((error: unknown) => {
        if ((error as Error | undefined)?.name === 'DBOSUnexpectedStepError')
          throw this.#stop(
            new WorkflowError(
              'journal-mismatch',
              `june: the workflow no longer matches run ${this.runId}: it reached ${this.#redactor.text(describeStep(name))} where the run recorded another step (${this.#redactor.text((error as Error).message)}). Recover the run with the workflow as it was, or cancel it and start a new run.`,
              { cause: error },
            ),
          );
        throw error;
      });
  }

  /**
   * When DBOS cancels the workflow, abort the run so the work's abort signal fires: inside a
   * DBOS step, through the step's signal; else through the workflow's (`cancelSignal`),
   * watched once for the run.
   */
  #watchCancel(): void {
    const inStep = this.#options.dbos.stepStatus?.cancelSignal;
    if (!inStep && this.#watching) return;
    const signal = inStep ?? this.#options.cancelSignal?.();
    this.#watching ||= !inStep && signal !== undefined;
    signal?.addEventListener('abort', () => this.#options.cancelled(), { once: true });
  }

  #stop(error: unknown): unknown {
    if (this.failure === undefined) {
      this.failure = error;
      this.#options.stop(error);
    }
    return error;
  }
}

/**
 * Gives the run the received answer. The sender checked an edit or an answer instead of the
 * tool against the JSON Schema the request published; one the tool's own schema still
 * refuses (a rule JSON Schema cannot say) cannot wait for another answer, as the answer is
 * stored (or received) for good: the call is denied, the reason saying why, so the run goes on and every
 * replay of it decides the same.
 */
function answerWith(question: ApprovalQuestion, message: DbosApprovalAnswer | null): void {
  const decision = decisionOf(message);
  try {
    question.answer(decision);
  } catch (error) {
    const { input: _input, output: _output, ...plain } = decision;
    const reason = `the answer was refused: ${error instanceof Error ? error.message : String(error)}`;
    try {
      question.answer({ ...plain, approved: false, reason });
    } catch {
      // answered meanwhile (or gone): the warning is all that is left to say
      process.emitWarning(
        `june: the answer to the "${question.tool}" request in step "${question.place.step}" that came through the database was refused: ${reason}`,
      );
    }
  }
}

/**
 * The error of an approval that DBOS answered with another request's recorded answer: the
 * run's approvals were asked in another order than when they were recorded (approvals of
 * composite calls' child runs running at once). The run stops before the call runs.
 */
function answerOfAnother(
  runId: string,
  request: DbosApprovalRequest,
  answered: string,
  redactor: Redactor,
): WorkflowError {
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches run ${runId}: its approval request "${request.id}" ("${request.tool}" in step "${redactor.text(request.step)}") reached the place where the run recorded the answer to "${answered}". Approvals asked at once (by child runs of composite calls running at once) were asked in another order than before the recovery, and DBOS keeps answers in the order they were asked. Nothing ran for it; cancel the run and start a new one.`,
  );
}

function decisionOf(message: DbosApprovalAnswer | null): OutsideAnswer {
  if (message === null)
    return {
      approved: false,
      reason: 'nobody answered the approval request in time',
      answeredBy: 'the approval timeout',
      source: 'database',
    };
  return {
    approved: message.approved,
    ...withReason(message.reason),
    ...(message.input !== undefined ? { input: message.input } : {}),
    ...(message.output !== undefined ? { output: message.output } : {}),
    ...(typeof message.answeredBy === 'string' ? { answeredBy: message.answeredBy } : {}),
    ...(typeof message.answeredAt === 'string' ? { answeredAt: message.answeredAt } : {}),
    source: typeof message.source === 'string' ? message.source : 'database',
  };
}

function describeStep(name: string): string {
  return name.startsWith('june.model ')
    ? `the model call ${name.slice('june.model '.length)}`
    : `the tool call ${name.slice('june.tool '.length)}`;
}

/** A tool's output: a promise's value, or the last item of an async iterable (a streaming tool). */
async function lastOf(value: unknown): Promise<unknown> {
  const awaited = await value;
  if (
    typeof awaited === 'object' &&
    awaited !== null &&
    typeof (awaited as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  ) {
    let last: unknown;
    for await (const item of awaited as AsyncIterable<unknown>) last = item;
    return last;
  }
  return awaited;
}
