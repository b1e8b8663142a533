import type { ApprovalSource, SourceInbox } from '../approvals/approval-source.js';
import { createElement, type Component } from '../elements/element.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { isDelta } from '../events/run-event-kinds.js';
import type { RunHandle } from '../interpreter/run.js';
import type { JournalStore } from '../journal/journal-store.js';
import { ownerOfError, ownerText, type RunLease } from '../journal/run-lease.js';
import { memoryJournalStore } from '../journal/memory-journal-store.js';
import { listThread, threadConversation } from '../journal/thread.js';
import type { ThreadRun } from '../journal/thread-run.js';
import { run, type RunOptions } from '../run/run.js';
import { forkOf, forkPlan, forkRun } from '../run/fork-run.js';
import type { RunFork } from '../interpreter/workflow-run-options.js';
import {
  forkRefused,
  hostForkPlan,
  type HostFork,
  type HostForkPlan,
  type HostForkRequest,
} from './host-fork.js';
import { localUser } from '../approvals/local-user.js';
import { requestPolicyOptions } from '../approvals/request-policy.js';
import { isRunId, newRunId } from '../engine/run-id.js';
import { JuneError, SystemError } from '../errors/june-error.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { Trace } from '../trace/trace-node.js';
import { scriptAfterJournal } from '../testing/script-after-journal.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { answerRefused, editRefused } from './answer-refusal.js';
import {
  checkAnswerShape,
  editOf,
  type AnswerOutcome,
  type ApprovalAnswerInput,
} from './approval-desk.js';
import type { HostRunRequest } from './run-host.js';
import type { RunSummary, StudioEvent } from './run-list.js';
import { runState } from './run-state.js';
import { runExists, StudioRequestError } from './studio-request-error.js';
import { summarizeTrace } from './summarize-trace.js';
import { untilAborted } from './until-aborted.js';
import { runMissing } from './wait-for-end.js';
import { approvalsInTrace, heldInTrace, type RunApprovals } from './waiting-approvals.js';
import { endedAs, settledAfterReplay } from './taken-up-run.js';

/** One run of a {@link MemoryRuns}: what started it, its handle, and its inbox once connected. */
export interface MemoryRun {
  request: HostRunRequest & { runId: string };
  handle: RunHandle;
  inbox?: SourceInbox;
  updatedAt: string;
  /** Its list entry as last sent, as JSON. */
  entry?: string;
}

/**
 * What one launch of a run adds to it: approval sources beside the host's own, consumers
 * of its events (a trace writer), and the run's lease in the journal store, taken already.
 */
export interface RunExtras {
  sources?: ApprovalSource[];
  consumers?: RunConsumer[];
  lease?: RunLease;
  /** The run is a fork: its lineage (and changed model), as `forkOf` reads them from its journal. */
  fork?: RunFork;
  /** The hold of the run's thread, taken already (see {@link MemoryRuns.start}). */
  threadLease?: RunLease;
}

/** Options of {@link MemoryRuns}. */
export interface MemoryRunsOptions {
  /** The workflows it runs, by name: their root components. */
  workflows: Record<string, Component>;
  /** Hears of each change of a run's list entry (its events, deltas aside). */
  onChange: (event: StudioEvent) => void;
  /**
   * False while nobody hears `onChange` (a host with no subscriber): a run's list entry is
   * then not built at each of its events. @default always true
   */
  listening?: () => boolean;
  /**
   * Where the runs keep their journals. A run of this store that it does not hold (one a
   * stopped process ran) is taken up from its journal when asked for, if its workflow is
   * one of `workflows` and it did not fail (see {@link MemoryRuns.adopt}). @default a memory journal
   */
  journal?: JournalStore;
  /** How many ended runs it keeps (their handles, for `events` and `result`); the oldest beyond it are forgotten. @default Infinity */
  keepEnded?: number;
  /** Further options of every run (a `model`, `redact`, `onApproval`, sources, consumers, ...). */
  runOptions?: HostedRunOptions;
  /** Consumers made afresh for each run it starts or takes up, after `runOptions.consumers` (a `traceWriter`). */
  runConsumers?: () => RunConsumer[];
}

/** The options of `run()` a host passes to each of its runs; the rest (journal, ids, props, signal) are the host's. */
export type HostedRunOptions = Omit<
  RunOptions,
  'journal' | 'resume' | 'runId' | 'props' | 'signal' | 'lease' | 'replay' | 'replayTools'
>;

/**
 * The runs a host runs in this process (`memoryRunHost`, `localRunHost`), by id: each one
 * `run()` of one of `workflows` with one journal store for all (a memory journal unless
 * given; an aborted run is resumed from it), connected to an approval source of the host's
 * (`host`), whose inbox takes the host's answers. `onChange` hears of each change of a run's
 * list entry (its events, deltas aside).
 *
 * @example
 * ```ts
 * const runs = new MemoryRuns({ workflows: { release: Release }, onChange: (event) => console.log(event.type) });
 * runs.launch({ workflow: 'release', runId: 'r1' }, false);
 * ```
 */
export class MemoryRuns {
  readonly #runs = new Map<string, MemoryRun>();
  readonly #journal: JournalStore;
  readonly #workflows: Record<string, Component>;
  readonly #onChange: (event: StudioEvent) => void;
  readonly #options: MemoryRunsOptions;
  /** The ids of runs being started, until they run. */
  readonly #starting = new Set<string>();
  /** The runs being taken up from the journal store, by id, until they wait or end. */
  readonly #adopting = new Map<string, Promise<void>>();

  /** The ended runs it still keeps, oldest first (a Set keeps the order they ended in). */
  readonly #ended = new Set<string>();
  readonly #keepEnded: number;

  constructor(options: MemoryRunsOptions) {
    this.#options = options;
    this.#workflows = options.workflows;
    this.#onChange = options.onChange;
    this.#journal = options.journal ?? memoryJournalStore();
    this.#keepEnded = options.keepEnded ?? Number.POSITIVE_INFINITY;
  }

  /** True when `workflow` is one it runs. */
  runs(workflow: string): boolean {
    return Object.hasOwn(this.#workflows, workflow);
  }

  /** True when it knows `runId`. */
  /** The runs of a thread in the journal store, in order. */
  threadRuns(threadId: string): Promise<ThreadRun[]> {
    return listThread(this.#journal, threadId);
  }

  /** The conversation the thread's next run starts from, in the journal store. */
  async threadMessages(threadId: string): Promise<unknown[]> {
    return (await threadConversation(this.#journal, threadId)).messages;
  }

  has(runId: string): boolean {
    return this.#runs.has(runId);
  }

  /** The run, or `studio-run-missing` (404). @throws {StudioRequestError} */
  get(runId: string): MemoryRun {
    const known = this.#runs.get(runId);
    if (!known) throw runMissing(runId);
    return known;
  }

  /** Every run, in the order they started. */
  all(): MemoryRun[] {
    return [...this.#runs.values()];
  }

  /** The run's list entry, from its trace now. */
  entryOf(known: MemoryRun): RunSummary {
    const entry = summarizeTrace(known.handle.trace(), known.request.runId, known.updatedAt);
    const { thread } = known.request;
    return thread !== undefined ? { ...entry, thread: { id: thread } } : entry;
  }

  /**
   * Runs the request's workflow (it must be one of `workflows`); with `resume`, takes the
   * aborted run of its id up again from the journal. `extras` are this launch's own sources
   * and consumers.
   */
  launch(
    request: MemoryRun['request'],
    resume: boolean,
    extras: RunExtras = {},
    script = request.script,
  ): MemoryRun {
    const workflow = this.#workflows[request.workflow]!;
    const known = { request, updatedAt: new Date().toISOString() } as MemoryRun;
    const shared = this.#options.runOptions ?? {};
    const consumers = [
      ...(shared.consumers ?? []),
      ...(this.#options.runConsumers?.() ?? []),
      ...(extras.consumers ?? []),
    ];
    known.handle = run(createElement(workflow, {}), {
      ...shared,
      // as an option, so the journal keeps them for a resume in another process
      ...(request.props !== undefined ? { props: request.props } : {}),
      workflow: request.workflow,
      journal: this.#journal,
      ...(resume ? { resume: request.runId } : { runId: request.runId }),
      // a resumed run stays in the thread its journal names
      ...(request.thread !== undefined && !resume ? { thread: request.thread } : {}),
      ...(script ? { model: scriptedModel(script) } : {}),
      ...(request.strict ? { strict: true } : {}),
      ...requestPolicyOptions(request.policy),
      ...redactionOf(request.redact),
      approvalSources: [
        { name: 'host', connect: (inbox) => void (known.inbox = inbox) },
        ...(shared.approvalSources ?? []),
        ...(extras.sources ?? []),
      ],
      ...(consumers.length ? { consumers } : {}),
      ...(extras.lease ? { lease: extras.lease } : {}),
      ...(extras.fork ? { fork: extras.fork } : {}),
      ...(extras.threadLease ? { threadLease: extras.threadLease } : {}),
    });
    return this.#track(known, extras.threadLease);
  }

  /**
   * Takes in a run started elsewhere in this process (`june run` starts its run with the
   * workflow file's own June): it is then followed, answered, cancelled and waited for as
   * the runs this starts are, its answers given to its inbox through the source `host`.
   * @throws {StudioRequestError} `studio-run-exists` (409) for the id of a run it has.
   */
  attach(request: MemoryRun['request'], handle: RunHandle): MemoryRun {
    if (this.has(request.runId)) throw runExists(request.runId);
    const known = { request, handle, updatedAt: new Date().toISOString() } as MemoryRun;
    handle.connect({ name: 'host', connect: (inbox) => void (known.inbox = inbox) });
    return this.#track(known);
  }

  /** Keeps the run, and hears of its changes until it ends (then lets go of its thread). */
  #track(known: MemoryRun, threadLease?: RunLease): MemoryRun {
    const { request } = known;
    void known.handle.result
      .catch(() => {})
      .then(() => threadLease?.release())
      .then(() => this.#forgetOld(known));
    this.#ended.delete(request.runId);
    this.#runs.set(request.runId, known);
    this.#changed(known);
    void (async () => {
      for await (const event of known.handle.events) if (!isDelta(event)) this.#changed(known);
      this.#changed(known);
    })();
    return known;
  }

  /**
   * The id of a run the request may start: its workflow is one of `workflows`, and its id
   * (given, or a new one) names no run yet (nor one `taken` says exists elsewhere).
   * @throws {StudioRequestError} `studio-workflow-unknown` (404); `studio-request-invalid` (400)
   *   for an id that is not a run id; `studio-run-exists` (409) for one of a run it has.
   */
  checkedStart(request: HostRunRequest, taken: (runId: string) => boolean = () => false): string {
    if (request.secretProps?.length)
      throw new SystemError(
        'run-host-unsupported',
        `june: this host runs workflows in this process, where secret props are given by value: pass ${request.secretProps.map((name) => `"${name}"`).join(', ')} in props (june run --secret-props), not by name.`,
      );
    if (!this.runs(request.workflow))
      throw new StudioRequestError(
        'studio-workflow-unknown',
        `june: no workflow "${request.workflow}" in this host; it starts ${Object.keys(this.#workflows).join(', ')}.`,
        404,
      );
    const runId = request.runId ?? newRunId();
    if (!isRunId(runId))
      throw new StudioRequestError(
        'studio-request-invalid',
        `june: "${String(runId).slice(0, 200)}" is not a run id (1 to 128 letters, digits, ".", "_" or "-"); give another one, or none for a new one.`,
        400,
      );
    if (this.has(runId) || taken(runId)) throw runExists(runId);
    return runId;
  }

  /**
   * Starts the request's run ({@link checkedStart}) with its lease in the journal store
   * taken first, so that of two hosts over one store starting one id, one runs it; a run of
   * a thread takes the thread's hold too, so a second run of a busy thread is refused before
   * it starts (`thread-busy`).
   * @throws {StudioRequestError} as {@link checkedStart} does; `studio-run-exists` (409) for
   *   an id the store has a journal of, or that another process holds.
   */
  async start(request: HostRunRequest): Promise<string> {
    const runId = this.checkedStart(request, (id) => this.#starting.has(id));
    this.#starting.add(runId); // a store without leases: this process's starts take turns
    try {
      let lease: RunLease | undefined;
      try {
        lease = await this.#journal.lease?.(runId);
      } catch (error) {
        if (ownerOfError(error)) throw runExists(runId);
        throw error;
      }
      if (this.has(runId) || (await this.#journal.read(runId).catch(() => [])).length > 0) {
        await lease?.release();
        throw runExists(runId);
      }
      // a run of a thread another run holds is refused here, and leaves no run behind
      let threadLease: RunLease | undefined;
      if (request.thread !== undefined && this.#journal.threadLease)
        threadLease = await this.#journal
          .threadLease(request.thread, runId)
          .catch(async (error) => {
            await lease?.release();
            throw error;
          });
      this.launch({ ...request, runId }, false, {
        ...(lease ? { lease } : {}),
        ...(threadLease ? { threadLease } : {}),
      });
      return runId;
    } finally {
      this.#starting.delete(runId);
    }
  }

  /** The run's events from its start, until it ends or `signal` aborts. */
  async *events(runId: string, signal?: AbortSignal): AsyncIterable<RunLogEvent> {
    yield* untilAborted(this.get(runId).handle.events, signal);
  }

  /** The calls the run waits for, from its live trace: its inbox takes the answers (`live`). */
  decisions(runId: string): RunApprovals {
    const trace = this.get(runId).handle.trace();
    const waiting = approvalsInTrace(trace).filter((approval) => approval.status === 'pending');
    if (waiting.length === 0) return { runId, state: 'none', resumable: false, waiting };
    const held = heldInTrace(trace);
    return { runId, state: 'live', resumable: false, waiting, ...(held.length ? { held } : {}) };
  }

  /**
   * Gives the answer to the run's inbox. An answer the tool's schemas refuse (an edit that
   * does not fit) is a 409 `studio-approval-invalid` with the inbox's message, and the call
   * still waits; one the inbox does not apply (answered already, withdrawn, unknown) a 409
   * `studio-approval-unknown`.
   */
  answer(runId: string, answer: ApprovalAnswerInput): AnswerOutcome {
    const known = this.get(runId);
    checkAnswerShape(runId, answer);
    const by = answer.answeredBy ?? localUser();
    let result;
    try {
      result = known.inbox!.answer(
        answer.key,
        {
          approved: answer.approved,
          ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
          ...editOf(answer),
          ...(by !== undefined ? { answeredBy: by } : {}),
        },
        answer.source,
      );
    } catch (error) {
      // an edit or an answer the tool's schemas refuse is told as a database's desk tells it
      const refused = editRefused(error);
      if (refused !== error || !JuneError.isInstance(error)) throw refused;
      throw new StudioRequestError(
        'studio-request-invalid',
        error.message.replace(/^june: /, `june: run "${runId}": `),
        400,
      );
    }
    if (result.status === 'applied') return { delivered: 'live' };
    const why =
      result.status === 'answered'
        ? 'it was answered already, and an answer counts once'
        : result.status === 'withdrawn'
          ? 'withdrawn'
          : 'never asked';
    throw answerRefused({
      status: result.status,
      message: `june: run "${runId}" waits for no approval of the call "${answer.key}" (${why}); reload the run to see what it waits for.`,
    });
  }

  /** Aborts the run (with `reason`, else "cancelled through its run host"): its waiting calls are withdrawn, and it ends `aborted`. */
  cancel(runId: string, reason = 'cancelled through its run host'): void {
    this.get(runId).handle.abort(reason);
  }

  /** Waits for the run's end; its final trace. */
  async result(runId: string): Promise<Trace> {
    const { handle } = this.get(runId);
    await handle.result.catch(() => {});
    return handle.trace();
  }

  /**
   * Takes an aborted run up again from the journal, with this launch's `extras`; its script
   * without the turns the journal answered, so its first new model call gets the turn the
   * stopped run would have used.
   * @throws {SystemError} `run-host-unsupported` for a run that did not end aborted.
   */
  async resume(runId: string, extras: RunExtras = {}): Promise<MemoryRun> {
    this.checkAborted(runId);
    return this.resumeFromJournal(this.get(runId).request, extras);
  }

  /**
   * Checks that the run ended aborted, the one state a resume takes up.
   * @throws {SystemError} `run-host-unsupported` otherwise; {@link StudioRequestError} `studio-run-missing`.
   */
  checkAborted(runId: string): void {
    const state = runState(this.get(runId).handle.trace());
    if (state !== 'aborted')
      throw new SystemError(
        'run-host-unsupported',
        `june: run "${runId}" is ${state}; only an aborted run is resumed.`,
      );
  }

  /**
   * Takes the run of `request` up again from the journal store, whether or not this process
   * ran it before (a run of a process that stopped), its script trimmed as {@link resume} says.
   */
  async resumeFromJournal(
    request: MemoryRun['request'],
    extras: RunExtras = {},
  ): Promise<MemoryRun> {
    const records = await this.#journal.read(request.runId);
    const script = request.script && scriptAfterJournal(request.script, records);
    // a fork taken up again keeps its lineage and changed model
    const fork = extras.fork ?? forkOf(records);
    return this.launch(request, true, fork ? { ...extras, fork } : extras, script);
  }

  /**
   * What forking the run `runId` of the journal store would do (`forkPlan`), nothing made.
   * @throws {StudioRequestError} as `RunHost.forkPlan`.
   */
  forkPlan(runId: string, request: HostForkRequest): Promise<HostForkPlan> {
    return forkRefused(async () =>
      hostForkPlan(
        await forkPlan(this.#journal, runId, {
          at: request.at,
          change: request.change,
          ...(request.props !== undefined ? { props: request.props } : {}),
        }),
      ),
    );
  }

  /**
   * Makes the fork of the run `runId` in the journal store (`forkRun`), its workflow one of
   * `workflows`, and gives the request that takes it up ({@link resumeFromJournal}): the
   * recorded run's props (or the request's), and the request's script, else the recorded
   * run's when this process ran it.
   * @throws {StudioRequestError} as `RunHost.fork`.
   */
  async makeFork(
    runId: string,
    request: HostForkRequest,
  ): Promise<{ fork: HostFork; request: MemoryRun['request'] }> {
    const plan = await this.forkPlan(runId, request);
    if (plan.workflow === undefined || !this.runs(plan.workflow))
      throw new StudioRequestError(
        'studio-workflow-unknown',
        `june: run "${runId}" ran ${plan.workflow === undefined ? 'a workflow it did not name' : `the workflow "${plan.workflow}"`}, which this host does not run; it runs ${Object.keys(this.#workflows).join(', ')}.`,
        404,
      );
    const forkId = this.checkedStart({ workflow: plan.workflow, ...pick(request, 'runId') });
    const made = await forkRefused(() =>
      forkRun(this.#journal, runId, {
        at: request.at,
        change: request.change,
        runId: forkId,
        ...pick(request, 'props'),
      }),
    );
    const parent = this.#runs.get(runId)?.request;
    const script = request.script ?? parent?.script;
    return {
      fork: { ...hostForkPlan(made), runId: made.runId },
      request: {
        workflow: plan.workflow,
        runId: made.runId,
        ...(made.options.props !== undefined ? { props: made.options.props } : {}),
        ...(script !== undefined ? { script } : {}),
        ...(parent?.strict ? { strict: true } : {}),
        ...(parent?.redact !== undefined ? { redact: parent.redact } : {}),
      },
    };
  }

  /**
   * Makes sure it holds `runId` when the journal store has it: a run of the store that it
   * does not hold (its process stopped, as a restarted server's did), whose workflow is one
   * of `workflows` and that did not end failed, is taken up from its journal in this process
   * (its lease taken first), and this resolves once the run waits or ended. A run that
   * ended succeeded is replayed from its journal (no model call, no tool runs), so its trace
   * can be read; a failed one is left as it is, since taking it up would make its failed
   * model call again. Any other id is left as it is (`get` then says it is missing).
   * @throws {StudioRequestError} `studio-run-owned` (409) while another process runs it.
   */
  async adopt(runId: string): Promise<void> {
    if (this.#runs.has(runId) || this.#options.journal === undefined || !isRunId(runId)) return;
    let adopting = this.#adopting.get(runId);
    if (!adopting) {
      adopting = this.#takeUp(runId).finally(() => this.#adopting.delete(runId));
      this.#adopting.set(runId, adopting);
    }
    await adopting;
  }

  async #takeUp(runId: string): Promise<void> {
    const records = await this.#journal.read(runId).catch(() => []);
    const [header] = records;
    if (header?.type !== 'journal' || header.workflow === undefined) return;
    // a failed run stays as it ended: taking it up would make its failed model call again
    if (!this.runs(header.workflow) || endedAs(records) === 'failed') return;
    let lease: RunLease | undefined;
    try {
      lease = await this.#journal.lease?.(runId);
    } catch (error) {
      const owner = ownerOfError(error);
      if (!owner) throw error;
      throw new StudioRequestError(
        'studio-run-owned',
        `june: run ${runId} is busy: ${ownerText(owner)} is running it; try again once that process let go of it.`,
        409,
      );
    }
    if (this.#runs.has(runId)) {
      await lease?.release(); // taken up meanwhile by a start or resume of this process
      return;
    }
    const request = {
      workflow: header.workflow,
      runId,
      ...(header.props !== undefined ? { props: header.props } : {}),
    };
    const fork = forkOf(records);
    const known = this.launch(request, true, {
      ...(lease ? { lease } : {}),
      ...(fork ? { fork } : {}),
    });
    await settledAfterReplay(known.handle, records);
  }

  /** Aborts every run and waits for their ends. */
  async close(): Promise<void> {
    for (const known of this.all()) known.handle.abort('its run host closed');
    await Promise.all(this.all().map((known) => known.handle.result.catch(() => {})));
  }

  /** Marks the run ended, and forgets the oldest ended runs beyond `keepEnded`. */
  #forgetOld(known: MemoryRun): void {
    const runId = known.request.runId;
    if (this.#runs.get(runId) !== known) return; // resumed since: the newer launch counts
    this.#ended.add(runId);
    for (const old of this.#ended) {
      if (this.#ended.size <= this.#keepEnded) break;
      this.#ended.delete(old);
      this.#runs.delete(old);
    }
  }

  #changed(known: MemoryRun): void {
    known.updatedAt = new Date().toISOString();
    if (this.#options.listening?.() === false) {
      known.entry = undefined; // sent again once somebody listens
      return;
    }
    const entry = this.entryOf(known);
    const text = JSON.stringify(entry);
    if (text === known.entry) return;
    known.entry = text;
    this.#onChange({ type: 'run', run: entry });
  }
}

/** A request's redaction as `run()` takes it: the variables of `env` read in this process. */
function redactionOf(redact: HostRunRequest['redact']): { redact?: RunOptions['redact'] } {
  if (redact === undefined) return {};
  const { env, ...rest } = redact;
  const values = (env ?? []).flatMap((name) => {
    const value = process.env[name];
    return value ? [value] : [];
  });
  return {
    redact: values.length ? { ...rest, values: [...(rest.values ?? []), ...values] } : rest,
  };
}

/** The request's `key`, when given, as a spread. */
function pick<K extends 'runId' | 'props'>(
  request: HostForkRequest,
  key: K,
): Partial<Pick<HostForkRequest, K>> {
  return request[key] !== undefined ? ({ [key]: request[key] } as Pick<HostForkRequest, K>) : {};
}
