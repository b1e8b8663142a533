// What runStep() takes and gives, in a file of its own: the step's rounds and their call
// options read these types, and none of them imports runStep for it.
import type {
  CallSettings,
  GenericToolApprovalFunction,
  LanguageModel,
  LanguageModelUsage,
  ModelMessage,
  Output,
  StopCondition,
  TelemetryOptions,
  TextStreamPart,
  ToolSet,
} from 'ai';

/** A tool call the model made that needs a person's answer before it runs. */
export interface PendingToolApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/**
 * A person's (or policy's) answer to one {@link PendingToolApproval}: approved, with an
 * edited `input` the call runs with; denied, with a `reason` the model reads; or denied with
 * an `output` the model reads as the tool's result (an answer instead of the tool).
 */
export interface ToolApprovalAnswer {
  approvalId: string;
  approved: boolean;
  reason?: string;
  input?: unknown;
  output?: unknown;
}

/** What {@link runStep} needs: one agent's settings and one step's conversation. */
export interface StepRunInput {
  /** The step path (`research:findings`), for error messages. */
  step: string;
  /** The agent's model (or the run's `model` option); {@link runStep} wraps it once for the step ({@link stepModel}). */
  model: LanguageModel;
  /**
   * Each model call's usage, in tokens, as soon as the provider reports it (the AI SDK's
   * comes after the tools ran), with the answer's provider metadata (a replayed call's mark
   * and recorded price).
   */
  onUsage: (usage: LanguageModelUsage, providerMetadata: unknown) => void;
  /**
   * Wraps the model between the step's middlewares (a durable engine's record of each
   * call, which keeps the request as June made it, before denials are reworded).
   */
  wrapModel?: (model: LanguageModel) => LanguageModel;
  /**
   * Wraps the whole model the step calls, outside its middlewares: what waits before a call
   * starts (a `<Budget>`'s check) waits before the call is reported as started.
   */
  gateModel?: (model: LanguageModel) => LanguageModel;
  /** The agent's instructions (the system prompt of every model call of the step). */
  instructions?: string;
  tools: ToolSet;
  /**
   * Decides, for each tool call of the step, whether it waits for a person's answer (the AI
   * SDK's `toolApproval`, which replaces every tool's own `needsApproval`: so it must honour
   * them itself).
   */
  toolApproval: GenericToolApprovalFunction<ToolSet, any, any>;
  /**
   * A tool's execution starts (the AI SDK's `onToolExecutionStart`: before its `execute`,
   * whatever the stream's reader has read so far).
   */
  onToolStart?: (call: { toolCallId: string; toolName: string; input: unknown }) => void;
  /** The conversation so far, ending with this step's user message. */
  messages: ModelMessage[];
  output?: Output.Output<any, any>;
  /**
   * When the step's tool loop stops, checked over every model call of the step (approval
   * continuations included), so `stepCountIs(n)` allows at most n model calls.
   * @default stepCountIs(20)
   */
  stopWhen?: StopCondition<any> | Array<StopCondition<any>>;
  callSettings: Omit<CallSettings, 'abortSignal'>;
  /** The AI SDK's own telemetry for the step's calls (its spans), as `streamText` takes it. */
  telemetry?: TelemetryOptions;
  providerOptions?: Record<string, Record<string, any>>;
  abortSignal: AbortSignal;
  /**
   * Stream the model's answers (`streamText`), or take each one whole (`generateText`, the
   * provider's non-streaming call; for runs whose text nobody reads as it comes).
   * @default true
   */
  stream?: boolean;
  /**
   * Every part of every model stream, as it arrives (text deltas, tool calls, results...).
   * Without streaming the same parts come, made from each whole answer: a turn's text as one
   * delta when the model has answered, its tool calls before they run, each result as its
   * tool finishes.
   */
  onPart: (part: TextStreamPart<ToolSet>) => void;
  /**
   * Given (an agent with `compact`), the messages of each model call of the step are handed
   * to it first, and what it gives back (a compacted conversation) is sent instead and
   * carried to the step's later calls; undefined leaves them as they are.
   */
  compactMessages?: (messages: ModelMessage[]) => Promise<ModelMessage[] | undefined>;
  /** Answers the approval requests of one model turn, all of them, in any order. */
  approve: (requests: PendingToolApproval[]) => Promise<ToolApprovalAnswer[]>;
}

/** What a step produced: its result, the messages it added to the conversation, and its usage in tokens. */
export interface StepRunOutput {
  /** The final text, or the parsed object when `output` is set. */
  result: unknown;
  responseMessages: ModelMessage[];
  usage: LanguageModelUsage;
  /**
   * The approval requests of the last turn, when `stopWhen` ended the step on it: nobody was
   * asked and the calls did not run.
   */
  unaskedApprovals?: PendingToolApproval[];
}
