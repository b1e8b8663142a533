// A second implementation of the durable engine, in memory, that records every durable call
// and logs each one: it needs nothing of June's journal. test/engine/recording-engine.test.tsx
// drives whole runs with it, and the engine contract runs against it.
import type { ApprovalDecision } from '../../src/approvals/approval-request.js';
import type {
  ApprovalAnswer,
  ApprovalQuestion,
  DurableEngine,
  DurableEngineFactory,
  DurablePlace,
  DurableRunStart,
  DurableRunStatus,
  ModelAnswer,
  ModelCallAt,
  ToolCallAt,
} from '../../src/engine/index.js';
import { WorkflowError } from '../../src/errors/index.js';
import type { RunLogEvent } from '../../src/events/run-event.js';

/** What the engine keeps across processes (a database would). */
export interface Store {
  models: Map<string, { requestHash: string; answer: ModelAnswer }>;
  tools: Map<string, { output: unknown } | { error: unknown }>;
  requests: Set<string>;
  answers: Map<string, ApprovalDecision>;
}

/** An empty store: a new database. */
export const newStore = (): Store => ({
  models: new Map(),
  tools: new Map(),
  requests: new Set(),
  answers: new Map(),
});

const at = (place: DurablePlace) => [...(place.calls ?? []), place.step].join('/');

/** An engine that keeps its records in `store` and logs every durable call it is handed. */
export class RecordingEngine implements DurableEngine {
  failure: unknown = undefined;
  readonly log: string[] = [];
  readonly published: RunLogEvent[] = [];
  /** Approval requests waiting for an answer from outside, by call. */
  readonly #inbox = new Map<string, (decision: ApprovalDecision) => void>();
  /** Calls whose approval waits for an answer, and who waits to hear of them. */
  readonly #waiting: string[] = [];
  readonly #watchers: Array<(call: string) => void> = [];

  constructor(
    readonly runId: string,
    private readonly store: Store,
    private readonly stop: (reason: unknown) => void = () => {},
  ) {}

  get decidesApprovals(): boolean {
    return this.store.requests.size > 0;
  }

  async modelCall(call: ModelCallAt, work: () => Promise<ModelAnswer>): Promise<ModelAnswer> {
    const key = `${at(call.place)} #${call.index}`;
    const recorded = this.store.models.get(key);
    if (recorded) {
      if (recorded.requestHash !== call.requestHash) throw this.#stop(mismatch(call));
      this.log.push(`model ${key} replayed`);
      return recorded.answer;
    }
    this.log.push(`model ${key} made`);
    const answer = await work();
    this.store.models.set(key, { requestHash: call.requestHash, answer });
    return answer;
  }

  toolCall(call: ToolCallAt, work: () => unknown): unknown {
    const key = `${at(call.place)} ${call.call}`;
    const recorded = this.store.tools.get(key);
    if (recorded) {
      this.log.push(`tool ${key} ${call.tool} replayed`);
      return 'error' in recorded
        ? Promise.reject(recorded.error)
        : Promise.resolve(recorded.output);
    }
    this.log.push(`tool ${key} ${call.tool} ran`);
    return Promise.resolve(work()).then(
      (output) => (this.store.tools.set(key, { output }), output),
      (error: unknown) => {
        if (!call.abortSignal?.aborted) this.store.tools.set(key, { error });
        throw error;
      },
    );
  }

  async needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean> {
    const key = `${at(call.place)} ${call.call}`;
    if (this.store.requests.has(key)) return true;
    if (this.store.tools.has(key)) return false;
    return (await decide()) === true;
  }

  async approval(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    const key = `${at(question.place)} ${question.call}`;
    const recorded = this.store.answers.get(key);
    if (recorded) {
      this.log.push(`approval ${key} ${question.tool} replayed`);
      return question.replay(recorded);
    }
    this.store.requests.add(key);
    this.log.push(`approval ${key} ${question.tool} asked`);
    // an answer may come from outside the process (see send) or from the run handle
    this.#inbox.set(key, (decision) => question.answer(decision));
    const asked = question.ask();
    const watcher = this.#watchers.shift();
    if (watcher) watcher(key);
    else this.#waiting.push(key);
    const answer = await asked.finally(() => this.#inbox.delete(key));
    this.store.answers.set(key, answer);
    return answer;
  }

  publish(event: RunLogEvent): void {
    this.published.push(event);
  }

  async finish(status: DurableRunStatus): Promise<void> {
    this.log.push(`finish ${status}`);
  }

  /** Stops the run with `error`, once; the run fails with it. */
  #stop(error: unknown): unknown {
    if (this.failure === undefined) {
      this.failure = error;
      this.stop(error);
    }
    return error;
  }

  /** Resolves with the call of the next approval request that waits for an answer. */
  waiting(): Promise<string> {
    const call = this.#waiting.shift();
    return call !== undefined
      ? Promise.resolve(call)
      : new Promise((resolve) => this.#watchers.push(resolve));
  }

  /** Delivers an answer from outside the run (another process, a queue) to the waiting request `call`. */
  send(call: string, decision: ApprovalDecision): void {
    const deliver = this.#inbox.get(call);
    if (!deliver) throw new Error(`no approval request waits at ${call}`);
    deliver(decision);
  }
}

/** A factory that makes each run's engine over `store`; `made(n)` resolves with the n-th engine it makes. */
export function recordingEngines(
  store: Store,
): DurableEngineFactory & { made(n: number): Promise<RecordingEngine> } {
  const engines: RecordingEngine[] = [];
  const watchers = new Map<number, (engine: RecordingEngine) => void>();
  const factory = async ({ runId, stop }: DurableRunStart) => {
    const engine = new RecordingEngine(runId, store, stop);
    engines.push(engine);
    watchers.get(engines.length - 1)?.(engine);
    return engine;
  };
  const made = (n: number) =>
    engines[n]
      ? Promise.resolve(engines[n])
      : new Promise<RecordingEngine>((resolve) => watchers.set(n, resolve));
  return Object.assign(factory, { made });
}

/** The error of a model call whose request is not the recorded one at its place. */
function mismatch(call: ModelCallAt): WorkflowError {
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches the record: the model call ${at(call.place)} #${call.index} asks something else than it asked when recorded. Resume with the workflow as it was.`,
  );
}
