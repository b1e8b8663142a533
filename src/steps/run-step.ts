import {
  streamText,
  stepCountIs,
  type ModelMessage,
  type StepResult,
  type StopCondition,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { ModelBehaviorError, RunAbortedError } from '../errors/june-error.js';
import { emptyUsage, sumUsage } from '../models/usage.js';
import { approvalContinuation } from './approval-continuation.js';
import { generateRound } from './generate-round.js';
import { modelFailure } from './model-failure.js';
import { roundCallOptions } from './round-call-options.js';
import { stepModel } from './step-model.js';
import type { RoundInput, StepFinish, StepRound } from './step-round.js';
import type { PendingToolApproval, StepRunInput, StepRunOutput } from './step-run-input.js';

export type {
  PendingToolApproval,
  StepRunInput,
  StepRunOutput,
  ToolApprovalAnswer,
} from './step-run-input.js';

/**
 * Runs one step: an AI SDK `streamText` tool loop (`generateText` with `stream: false`). When a turn asks for approvals, the loop
 * stops (the AI SDK's behaviour), June waits for every answer, appends the AI SDK's own
 * `tool-approval-response` message, and calls `streamText` again with the history, so
 * approved calls run and denied ones reach the model as denied. An approval with an edited
 * input replaces the call in the conversation, so the tool runs with the edit and the model
 * sees the call it gets the result of; an answer instead of the tool is the call's result
 * (see {@link approvalContinuation}).
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
    ...(given.gateModel ? { outer: given.gateModel } : {}),
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
    const { message, responded } = await approvalContinuation(input.tools, approvals, answers, {
      history,
      responseMessages,
    });
    history.push(message);
    responseMessages.push(message);
    // the AI SDK reports no result for a call answered instead of its tool: the step does
    for (const call of responded)
      input.onPart({ type: 'tool-result', ...call } as TextStreamPart<ToolSet>);
    denied = approvals.filter((request) =>
      answers.some(
        (a) => a.approvalId === request.approvalId && !a.approved && a.output === undefined,
      ),
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
  if (failure)
    throw modelFailure(failure.error, input.step, { model: input.model, messages: history });
  const done: StepFinish = finished ?? {
    responseMessages: await stream.responseMessages,
    usage: await stream.usage,
    text: await stream.text,
    steps: await stream.steps,
  };
  return { approvals, done, output: () => stream.output };
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
