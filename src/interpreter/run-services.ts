import type { LanguageModel } from 'ai';
import { ApprovalInbox, type ApprovalListener } from '../approvals/approval-inbox.js';
import type { ApprovalPolicy } from '../approvals/approval-request.js';
import type { ApprovalSource } from '../approvals/approval-source.js';
import type { DurableEngineFactory } from '../engine/durable-engine.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { checkPrices, type ModelPrices } from '../models/price.js';
import { Redactor, type RedactOptions } from '../redaction/redactor.js';
import { ToolSourcePool } from '../resources/tool-source-pool.js';
import type { NodePlace } from './node-place.js';
import { RunAbort } from './run-abort.js';
import { RunEngine } from './run-engine.js';
import { RunLog } from './run-log.js';
import type { RunFork } from './workflow-run-options.js';
import type { ModelCallSettings } from '../models/settings-from.js';
import type { TraceForkedFrom } from '../trace/trace-node.js';

/** What a run's services are built from: the run's options that concern them. */
export interface RunServicesOptions {
  /** The outermost run's id. */
  runId: string;
  /** The model every step uses instead of its own (`RunOptions.model`). */
  model?: LanguageModel;
  /** A fork's lineage and changed model (`RunOptions.fork`). */
  fork?: RunFork;
  /** Answers approval requests (`RunOptions.onApproval`); none: requests wait for `handle.approve`. */
  onApproval?: ApprovalPolicy;
  /** Whether `onApproval` answers calls a guard escalated (`RunOptions.guardEscalations`). @default 'person' */
  guardEscalations?: 'person' | 'on-approval';
  /** Where people answer approval requests besides the run handle (`RunOptions.approvalSources`). */
  approvalSources?: readonly ApprovalSource[];
  /** Values and patterns kept out of the run's records, besides configured credentials. */
  redact?: RedactOptions;
  /** Whether model calls stream. @default true */
  stream?: boolean;
  /** Prices of the run's own, before the catalog's (`RunOptions.prices`). */
  prices?: ModelPrices;
  /** Follow the run's events. @default none */
  consumers?: readonly RunConsumer[];
  /** Makes the run's durable engine. @default none */
  engine?: DurableEngineFactory;
}

/** How the run's steps call their models: the settings every step reads. */
export interface RunSettings {
  /** The model every step uses instead of its agent's, when given. */
  readonly model: LanguageModel | undefined;
  /**
   * The model a fork changed to for the step at `at` (its step path, composite calls and
   * agent path), when the fork changed the model of that step's agent (or of every agent).
   */
  forkModel(at: {
    step: string;
    calls: readonly string[];
    agent: string;
  }): LanguageModel | undefined;
  /**
   * The call settings a fork changed for the step at `at`, and from which of its model calls
   * on (0-based): the fork point's own step from the changed call, the agent's later steps
   * (with `allAgents`, every later step) from their first. `undefined` for any other step.
   */
  forkSettings(at: {
    step: string;
    calls: readonly string[];
    agent: string;
  }): { settings: ModelCallSettings; from: number } | undefined;
  /** A fork's lineage, which its trace carries. */
  readonly forkedFrom: TraceForkedFrom | undefined;
  /** Whether model calls stream (`streamText`) or answer whole (`generateText`). */
  readonly stream: boolean;
  /** The run's own prices, before the catalog's (see `modelPrice`). */
  readonly prices: ModelPrices | undefined;
}

/**
 * One run's services, shared by the outermost run and its child runs, each built once from
 * the run's options and handed to what needs it: the log (events, trace, redaction), the
 * abort and what it waits for, the approvals, the tool sources, the durable engine. Nothing
 * is assigned to it after it is built (it is frozen). Only a run has them: the static check
 * and `inspect()` walk the tree without any (see `TreePass`).
 */
export interface RunServices {
  /** The outermost run's id. */
  readonly runId: string;
  readonly settings: RunSettings;
  readonly log: RunLog;
  readonly abort: RunAbort;
  /** The run's approval inbox: its pending requests, and the answers from every source. */
  readonly approvals: ApprovalInbox;
  /** The tool sources the run connected to, closed when it ends. */
  readonly sources: ToolSourcePool;
  readonly engine: RunEngine;
  /** A fresh id for a child run: `<runId>.<n>`. */
  childRunId(): string;
}

/**
 * Builds a run's services from its options.
 *
 * @example
 * ```ts
 * const services = createRunServices({ runId, onApproval, redact, consumers, engine });
 * services.log.emit({ type: 'run-start', runId, nodeId: services.log.nodeId(undefined, 'run') });
 * ```
 */
export function createRunServices(options: RunServicesOptions): RunServices {
  const { runId } = options;
  const engine = new RunEngine(options.engine);
  const log = new RunLog({
    redactor: options.redact ? new Redactor(options.redact, configuredSecrets) : configuredSecrets,
    consumers: options.consumers ?? [],
    engine,
  });
  const abort = new RunAbort();
  let children = 0;
  const approvals = new ApprovalInbox(approvalEvents(log), {
    ...(options.onApproval ? { policy: options.onApproval } : {}),
    ...(options.guardEscalations === 'on-approval' ? { policyAnswersGuards: true } : {}),
    runId,
  });
  for (const source of options.approvalSources ?? []) approvals.connect(source);
  return Object.freeze({
    runId,
    settings: Object.freeze({
      model: options.model,
      forkModel: forkModel(options.fork),
      forkSettings: forkSettings(options.fork),
      forkedFrom: options.fork?.forkedFrom,
      stream: options.stream !== false,
      prices: checkPrices(options.prices),
    }),
    log,
    abort,
    approvals,
    sources: new ToolSourcePool(abort.signal),
    engine,
    childRunId: () => `${runId}.${++children}`,
  });
}

/**
 * The model a fork's steps use: none without a model change; the changed model for every
 * step when it is for every agent; else for the steps of the agent (in its run: the same
 * composite calls) whose step made the model call the fork changed, from that step on (its
 * steps before it are answered from the record, whichever model they name).
 */
function forkModel(fork: RunFork | undefined): RunSettings['forkModel'] {
  const change = fork?.model;
  if (!change) return () => undefined;
  const { model, at } = change;
  if (!at) return () => model;
  const agents = new Set<string>();
  const frame = (calls: readonly string[] | undefined) => (calls ?? []).join('/');
  return ({ step, calls, agent }) => {
    const key = `${frame(calls)}|${agent}`;
    if (step === at.step && frame(calls) === frame(at.calls)) agents.add(key);
    return agents.has(key) ? model : undefined;
  };
}

/**
 * The call settings a fork's steps use (see `RunSettings.forkSettings`). A step is known by
 * its place; the fork point's step is the one whose step path and composite calls are the
 * changed call's. Steps that started before it (an outer step around a composite call) keep
 * theirs.
 */
function forkSettings(fork: RunFork | undefined): RunSettings['forkSettings'] {
  const change = fork?.settings;
  if (!change) return () => undefined;
  const { settings, at, allAgents } = change;
  const agents = new Set<string>();
  let seen = false;
  const frame = (calls: readonly string[] | undefined) => (calls ?? []).join('/');
  return ({ step, calls, agent }) => {
    const key = `${frame(calls)}|${agent}`;
    if (step === at.step && frame(calls) === frame(at.calls)) {
      seen = true;
      agents.add(key);
      return { settings, from: at.index };
    }
    return agents.has(key) || (allAgents && seen) ? { settings, from: 0 } : undefined;
  };
}

/** The inbox's news as the run's events, each at the tool call node its request concerns. */
function approvalEvents(log: RunLog): ApprovalListener {
  const place = (id: string): NodePlace => log.approvalPlace(id) ?? { nodeId: `approval:${id}` };
  return {
    requested: (request, runId) => {
      const record = log.approvalRecord(request.id);
      log.emit({
        type: 'approval-request',
        runId,
        request,
        ...(record !== undefined ? { record } : {}),
        ...place(request.id),
      });
    },
    answered: (id, answer, runId, replayed, question, key) =>
      log.emit({
        type: 'approval-response',
        runId,
        id,
        ...(key !== undefined ? { key } : {}),
        approved: answer.approved,
        ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
        ...(answer.input !== undefined ? { input: answer.input } : {}),
        ...(answer.output !== undefined ? { output: answer.output } : {}),
        ...(replayed ? { replayed } : {}),
        ...(question !== undefined ? { question } : {}),
        automatic: answer.automatic,
        source: answer.source,
        ...(answer.answeredBy !== undefined ? { answeredBy: answer.answeredBy } : {}),
        answeredAt: answer.answeredAt,
        ...place(id),
      }),
    withdrawn: (id, reason, runId) =>
      log.emit({ type: 'approval-withdraw', runId, id, reason, ...place(id) }),
  };
}
