import type { LanguageModel } from 'ai';
import type { ApprovalPolicy } from '../approvals/approval-request.js';
import type { ApprovalSource } from '../approvals/approval-source.js';
import type { DurableEngineFactory } from '../engine/durable-engine.js';
import type { RunConsumer } from '../events/run-consumer.js';
import type { RedactOptions } from '../redaction/redactor.js';
import type { ModelPrices } from '../models/price.js';
import type { RunOutput } from './run-output-option.js';
import type { TraceForkedFrom } from '../trace/trace-node.js';
import type { ModelCallSettings } from '../models/settings-from.js';

/**
 * What a run knows of being a fork: `forkedFrom`, its lineage (the trace's `forkedFrom`);
 * `model`, when the fork's change is another model: the model every step of the agent
 * that made the model call at `at` uses (that call's step path and composite calls), or,
 * without `at`, every step of every agent. It comes before the run's `model` option.
 */
export interface RunFork {
  forkedFrom: TraceForkedFrom;
  model?: { model: LanguageModel; at?: { step: string; calls?: readonly string[] } };
  /**
   * When the fork's change is other call settings: the settings, from the model call at `at`
   * (its step path, composite calls and index) on, for every later call of the agent that
   * made it (with `allAgents`, of every step that starts after that step too); the calls
   * before it keep their recorded requests.
   */
  settings?: {
    settings: ModelCallSettings;
    at: { step: string; calls?: readonly string[]; index: number };
    allAgents?: boolean;
  };
}

/** Options of {@link runWorkflow}: a run with its durable engine, if any, given as a factory. */
export interface WorkflowRunOptions<OUTPUT = unknown> {
  /** Aborts the run, like `handle.abort()`. */
  signal?: AbortSignal;
  /**
   * Answers approval requests first: automatically (recorded as automatic), or passing on a
   * person's answer (`{ approved, answeredBy }`); `undefined` leaves one to a person.
   */
  onApproval?: ApprovalPolicy;
  /**
   * Who answers a call a `<Guard>` escalated (a request with `guard` set) and a `<Budget>`'s
   * request to allow more (`budget` set): `'person'` (the default) leaves them to a person,
   * through the handle or an approval source, and never asks `onApproval`, so a policy that
   * approves everything does not approve what a guard flagged nor lift a budget;
   * `'on-approval'` asks `onApproval` about them like any other request.
   * @default 'person'
   */
  guardEscalations?: 'person' | 'on-approval';
  /**
   * Where people answer the run's approval requests besides the handle (a chat bot, a
   * dashboard): each is connected when the run starts and disconnected when it ends. The
   * first answer to a request is applied, from whichever source; see `ApprovalSource`.
   */
  approvalSources?: readonly ApprovalSource[];
  /** Props for the root component (merged over the element's own props). */
  props?: Record<string, unknown>;
  /**
   * Makes the run's `result.output`, and so its type ({@link RunOutput}): a function of
   * `{ steps, usage }`; a schema (zod, Standard Schema, AI SDK `Schema`) the default output
   * must fit; or the AI SDK `Output` of the workflow's only step (or of a `defineAgent`).
   * @default the only step's result, or, for several steps, an object of every step's result
   *   by step id (`{ plan: ..., review: ... }`, what `result.steps` holds), typed `unknown`
   */
  output?: RunOutput<OUTPUT>;
  /** Answers every model call of the run with this model instead of each agent's (offline scripts, tests). */
  model?: LanguageModel;
  /**
   * The run is a fork of a recorded run (`forkRun` makes this): its lineage, which its
   * trace carries, and the model it uses from the fork point on when that is the change.
   */
  fork?: RunFork;
  /** The run's id. @default a time-sortable id with 48 random bits, such as `20261130-120301-3fa94c1e27b0` */
  runId?: string;
  /** A name for the workflow in traces and Studio. @default the root component's name */
  workflow?: string;
  /**
   * Makes the run's durable engine, which records every finished model call, tool call and
   * approval as the run goes and answers them again when the run is taken up again (see
   * `DurableEngine`). `run()`'s `journal`, `resume` and `replay` options make June's
   * journal engine (`journalEngine()`); `june/dbos` makes one over DBOS. @default none: nothing is recorded
   */
  engine?: DurableEngineFactory;
  /**
   * After an abort, how long to wait for tool executions, model calls and components to stop,
   * in ms. Work still running then (a tool that ignores its `abortSignal`, a component that
   * never returns) is abandoned: the run settles as `aborted` anyway, the trace closes its
   * nodes and the error names what did not stop (`error.unstopped`).
   * @default 5000 (`DEFAULT_ABORT_GRACE_MS`)
   * @throws {WorkflowError} `run-abort-grace-invalid` (at once) when not a number of ms, 0 or more.
   */
  abortGraceMs?: number;
  /**
   * Fails the run (`run-strict-failed`) when it would succeed with a workflow error inside
   * it, at any depth: a composite tool whose body had a tree error (its calling model saw a
   * tool error and went on), a failure a `<Catch>` caught; or, when `model` is a scripted
   * model, with script turns that never ran. For tests and CI. @default false
   */
  strict?: boolean;
  /**
   * Values and patterns kept out of every record of the run: each occurrence becomes
   * `[redacted]` in its events, trace, journal (so in `june run`'s output, trace files and
   * Studio) and in the messages of the error `result` rejects with. Credentials June is
   * given (URL credentials, MCP headers, `env` values of MCP servers and `<Bash>`, the
   * OpenAI key) are removed without this option. A resumed run sees `[redacted]` where a
   * recorded tool output held a redacted value. See docs/redaction.md.
   * @example { values: [process.env.DEPLOY_TOKEN!], patterns: [/sk-[A-Za-z0-9_-]{20,}/] }
   */
  redact?: RedactOptions;
  /**
   * Whether model calls stream. `false` is batch mode, for runs whose text nobody watches
   * as it comes (a queue worker, `june run --json`): each model call goes through the
   * provider's non-streaming call (`generateText`), which costs less, and every event still
   * comes, a turn's text as one `text-delta` once the model has answered. Approvals, tools,
   * composite tools, journals and abort work the same. @default true
   */
  stream?: boolean;
  /**
   * Prices of your own, in USD per million tokens, by `"<provider>:<model id>"` or model id:
   * they take the place of the price catalog June ships (`@pydantic/genai-prices`) for those
   * models. Each model call's price is recorded with it in the journal, so a replay reports
   * the cost the call had. See docs/costs.md.
   * @throws {WorkflowError} `prices-invalid` (at once) when a price is not
   *   `{ inputPerMTok, outputPerMTok, ... }` of numbers, 0 or more.
   * @example { 'openai:gpt-5-mini': { inputPerMTok: 0.25, cacheReadPerMTok: 0.025, outputPerMTok: 2 } }
   */
  prices?: ModelPrices;
  /**
   * Follow the run's events as they happen, each event with its trace node (`nodeId`,
   * `parentId`) and time (`at`): a trace writer (`traceWriter({ dir })` writes a trace file
   * Studio reads), a progress printer, an exporter. Each consumer's `end` is awaited before
   * `result` settles. See docs/run-handle-and-events.md. @default none (nothing is spent)
   */
  consumers?: readonly RunConsumer[];
}
