import type { LanguageModel } from 'ai';
import { ApprovalBroker, type ApprovalListener } from '../approvals/approval-broker.js';
import type { ApprovalPolicy } from '../approvals/approval-request.js';
import type { DurableEngineFactory } from '../engine/durable-engine.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { Redactor, type RedactOptions } from '../redaction/redactor.js';
import { ToolSourcePool } from '../resources/tool-source-pool.js';
import type { NodePlace } from './node-place.js';
import { RunAbort } from './run-abort.js';
import { RunEngine } from './run-engine.js';
import { RunLog } from './run-log.js';

/** What a run's services are built from: the run's options that concern them. */
export interface RunServicesOptions {
  /** The outermost run's id. */
  runId: string;
  /** The model every step uses instead of its own (`RunOptions.model`). */
  model?: LanguageModel;
  /** Answers approval requests (`RunOptions.onApproval`); none: requests wait for `handle.approve`. */
  onApproval?: ApprovalPolicy;
  /** Values and patterns kept out of the run's records, besides configured credentials. */
  redact?: RedactOptions;
  /** Whether model calls stream. @default true */
  stream?: boolean;
  /** Follow the run's events. @default none */
  consumers?: readonly RunConsumer[];
  /** Makes the run's durable engine. @default none */
  engine?: DurableEngineFactory;
}

/** How the run's steps call their models: the settings every step reads. */
export interface RunSettings {
  /** The model every step uses instead of its agent's, when given. */
  readonly model: LanguageModel | undefined;
  /** Whether model calls stream (`streamText`) or answer whole (`generateText`). */
  readonly stream: boolean;
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
  /** The run's pending approval requests and their answers. */
  readonly approvals: ApprovalBroker;
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
 * services.log.emit({ type: 'run-start', runId, nodeId: services.log.nodeId() });
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
  return Object.freeze({
    runId,
    settings: Object.freeze({ model: options.model, stream: options.stream !== false }),
    log,
    abort,
    approvals: new ApprovalBroker(approvalEvents(log), options.onApproval, runId),
    sources: new ToolSourcePool(abort.signal),
    engine,
    childRunId: () => `${runId}.${++children}`,
  });
}

/** The broker's news as the run's events, each at the tool call node its request concerns. */
function approvalEvents(log: RunLog): ApprovalListener {
  const place = (id: string): NodePlace => log.approvalPlace(id) ?? { nodeId: `approval:${id}` };
  return {
    requested: (request, runId) =>
      log.emit({ type: 'approval-request', runId, request, ...place(request.id) }),
    answered: (id, decision, automatic, runId, replayed) =>
      log.emit({
        type: 'approval-response',
        runId,
        id,
        approved: decision.approved,
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
        ...(replayed ? { replayed } : {}),
        automatic,
        ...place(id),
      }),
    withdrawn: (id, reason, runId) =>
      log.emit({ type: 'approval-withdraw', runId, id, reason, ...place(id) }),
  };
}
