import {
  streamText,
  stepCountIs,
  type CallSettings,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type Output,
  type StepResult,
  type StopCondition,
  type TelemetryOptions,
  type TextStreamPart,
  type GenericToolApprovalFunction,
  type ToolApprovalResponse,
  type ToolSet,
} from 'ai';
import { ModelBehaviorError, RunAbortedError } from '../errors/june-error.js';
import { emptyUsage, sumUsage } from '../models/usage.js';
import { withReason } from '../approvals/with-reason.js';
import { generateRound } from './generate-round.js';
import { modelFailure } from './model-failure.js';
import { roundCallOptions } from './round-call-options.js';
import { stepModel } from './step-model.js';

/** A tool call the model made that needs a person's answer before it runs. */
export interface PendingToolApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What {@link runStep} needs: one agent's settings and one step's conversation. */
export interface StepRunInput {
  /** The step path (`research:findings`), for error messages. */
  step: string;
  /** The agent's model (or the run's `model` option); {@link runStep} wraps it once for the step ({@link stepModel}). */
  model: LanguageModel;
  /** Each model call's usage, in tokens, as soon as the provider reports it (the AI SDK's comes after the tools ran). */
  onUsage: (usage: LanguageModelUsage) => void;
  /**
   * Wraps the model between the step's middlewares (a durable engine's record of each
   * call, which keeps the request as June made it, before denials are reworded).
   */
  wrapModel?: (model: LanguageModel) => LanguageModel;
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
  /** Answers the approval requests of one model turn, all of them, in any order. */
  approve: (
    requests: PendingToolApproval[],
  ) => Promise<Array<{ approvalId: string; approved: boolean; reason?: string }>>;
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

/**
 * Runs one step: an AI SDK `streamText` tool loop (`generateText` with `stream: false`). When a turn asks for approvals, the loop
 * stops (the AI SDK's behaviour), June waits for every answer, appends the AI SDK's own
 * `tool-approval-response` message, and calls `streamText` again with the history, so
 * approved calls run and denied ones reach the model as denied.
 *
 * `stopWhen` bounds the whole step: its conditions see every model call of the step so far,
 * across those continuations. When they are met on a turn that asks for approvals, the step
 * ends there: nobody is asked and those calls do not run (see `unaskedApprovals`).
 *
 * @throws {RunAbortedError} when `abortSignal` aborts.
 * @throws {SystemError} `model-call-failed` when a model call fails (the provider's error is the `cause`);
 *   a {@link JuneError} from the model (e.g. a scripted model's) is thrown as it is.
 * @throws {ModelBehaviorError} `step-output-invalid` when the answer does not parse as the step's `output`;
 *   `step-limit-reached` when the step has an `output` and `stopWhen` ended it while the model
 *   was still calling tools (it never answered).
 */
export async function runStep(given: StepRunInput): Promise<StepRunOutput> {
  // without streaming, the step's model reports each call's start and whole answer as parts
  const model = stepModel(given.model, {
    onUsage: given.onUsage,
    ...(given.wrapModel ? { inner: given.wrapModel } : {}),
    ...(given.stream === false ? { onGeneratePart: given.onPart } : {}),
  });
  const input: RoundInput = { ...given, model };
  const history = [...input.messages];
  const responseMessages: ModelMessage[] = [];
  const conditions = [input.stopWhen ?? stepCountIs(20)].flat();
  // every model call of the step so far, across approval continuations
  const steps: Array<StepResult<ToolSet>> = [];
  const stopWhen = conditions.map(
    (condition): StopCondition<ToolSet> =>
      ({ steps: current }) =>
        condition({ steps: [...steps, ...current] }),
  );
  let usage = emptyUsage();
  let denied: PendingToolApproval[] = [];
  while (true) {
    const round =
      input.stream === false
        ? await generateRound(input, history, stopWhen, denied)
        : await streamRound(input, history, stopWhen);
    const { approvals, done } = round;
    usage = sumUsage(usage, done.usage);
    history.push(...done.responseMessages);
    responseMessages.push(...done.responseMessages);
    steps.push(...done.steps);

    const limited = await limitReached(conditions, steps);
    if (limited && input.output) throw limitError(input, steps);
    if (approvals.length === 0 || limited) {
      const result = input.output ? await parsedOutput(round.output(), input.step) : done.text;
      return {
        result,
        responseMessages,
        usage,
        ...(approvals.length > 0 ? { unaskedApprovals: approvals } : {}),
      };
    }
    const answers = await input.approve(approvals);
    const content: ToolApprovalResponse[] = answers.map((a) => ({
      type: 'tool-approval-response',
      approvalId: a.approvalId,
      approved: a.approved,
      ...withReason(a.reason),
    }));
    const message: ModelMessage = { role: 'tool', content };
    history.push(message);
    responseMessages.push(message);
    denied = approvals.filter((request) =>
      answers.some((a) => a.approvalId === request.approvalId && !a.approved),
    );
  }
}

/**
 * One `streamText` call of a step (a tool loop until it ends or asks for approvals): every
 * part goes to `onPart` as it arrives.
 */
async function streamRound(
  input: RoundInput,
  history: ModelMessage[],
  stopWhen: Array<StopCondition<ToolSet>>,
): Promise<StepRound> {
  let failure: { error: unknown } | undefined;
  const approvals: PendingToolApproval[] = [];
  let finished: StepFinish | undefined;
  const stream = streamText({
    ...roundCallOptions(input, history, stopWhen),
    model: input.model,
    onError: () => {},
    // What the step needs once the stream ends. The result's getters (.responseMessages,
    // .text, .usage) each tee the whole stream again and read it to the end.
    onEnd: (event) => {
      finished = event;
    },
  });
  // One reader and one abort listener: an abort cancels the reader (the pending read ends),
  // so a model that ignores its abort signal cannot hold the run.
  const reader = stream.stream.getReader();
  const cancel = () => void reader.cancel(input.abortSignal.reason).catch(() => {});
  if (input.abortSignal.aborted) cancel();
  else input.abortSignal.addEventListener('abort', cancel, { once: true });
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) break;
      const part = next.value;
      if (part.type === 'error') failure ??= { error: part.error };
      else if (part.type === 'abort')
        failure ??= { error: new RunAbortedError(input.abortSignal.reason) };
      else if (part.type === 'tool-approval-request') {
        approvals.push({
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          toolName: part.toolCall.toolName,
          input: part.toolCall.input,
        });
      }
      input.onPart(part);
    }
  } catch (error) {
    failure ??= { error };
  } finally {
    input.abortSignal.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
  if (input.abortSignal.aborted) throw new RunAbortedError(input.abortSignal.reason);
  if (failure) throw modelFailure(failure.error, input.step);
  const done: StepFinish = finished ?? {
    responseMessages: await stream.responseMessages,
    usage: await stream.usage,
    text: await stream.text,
    steps: await stream.steps,
  };
  return { approvals, done, output: () => stream.output };
}

/**
 * What the end of a round gives that a step reads: every message the round added (all its
 * model calls, not only the last one's), its usage summed over them, the last call's text.
 */
export type StepFinish = {
  responseMessages: ModelMessage[];
  usage: LanguageModelUsage;
  text: string;
  steps: Array<StepResult<ToolSet>>;
};

/** What each round of a step gets: the step's input, its model wrapped once for the step. */
export type RoundInput = StepRunInput;

/** One call of the AI SDK's tool loop within a step: what it finished with, the approvals it asks for, its parsed `output`. */
export interface StepRound {
  approvals: PendingToolApproval[];
  done: StepFinish;
  output: () => PromiseLike<unknown>;
}

/** True when a stop condition holds over the step's model calls so far, and the last one called tools (else the loop ended on its own). */
async function limitReached(
  conditions: Array<StopCondition<any>>,
  steps: Array<StepResult<ToolSet>>,
): Promise<boolean> {
  if ((steps.at(-1)?.toolCalls.length ?? 0) === 0) return false;
  const met = await Promise.all(conditions.map((condition) => condition({ steps })));
  return met.some(Boolean);
}

/** The step has an `output`, but `stopWhen` ended it while the model was still calling tools. */
function limitError(input: StepRunInput, steps: Array<StepResult<ToolSet>>): ModelBehaviorError {
  const pending = steps
    .at(-1)!
    .toolCalls.map((call) => `${call.toolName} (${JSON.stringify(call.toolCallId)})`);
  const limit =
    input.stopWhen === undefined ? 'its stopWhen (the default, stepCountIs(20))' : 'its stopWhen';
  return new ModelBehaviorError(
    'step-limit-reached',
    `june: step "${input.step}" has no answer: ${limit} ended it after ${steps.length} model call${steps.length === 1 ? '' : 's'} while the model was still calling tools (pending: ${pending.join(', ')}). Raise the limit (e.g. stopWhen={stepCountIs(${steps.length * 2})}), or ask in the prompt for fewer tool calls.`,
  );
}

/** The step's parsed `output`; an answer that does not parse is the model's fault ({@link modelFailure}). */
async function parsedOutput(output: PromiseLike<unknown>, step: string): Promise<unknown> {
  try {
    return await output;
  } catch (error) {
    throw modelFailure(error, step);
  }
}
