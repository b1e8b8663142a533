import {
  generateText,
  type ModelMessage,
  type StepResult,
  type StopCondition,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { RunAbortedError } from '../errors/june-error.js';
import type { PendingToolApproval } from './step-run-input.js';
import type { RoundInput, StepRound } from './step-round.js';
import { modelFailure } from './model-failure.js';
import { roundCallOptions } from './round-call-options.js';

type Part = TextStreamPart<ToolSet>;

/**
 * One `generateText` call of a step (the provider's non-streaming call, a tool loop until it
 * ends or asks for approvals), giving `onPart` the parts a stream would have given, made
 * from each whole answer:
 *
 * - `start-step` before each model call; once the model has answered, its text as one
 *   `text-delta` per text part, and a `tool-call` per call (its input as the model sent it,
 *   read as JSON), before any tool runs;
 * - `tool-result` / `tool-error` as each tool finishes; `tool-approval-request`, and the
 *   results of calls that never ran (an invalid input), when the turn ends; then `finish-step`;
 * - `tool-output-denied` first, for the calls denied before this round (`denied`).
 *
 * @throws {RunAbortedError} when `abortSignal` aborts (without waiting for a model that
 *   ignores it).
 * @throws what {@link modelFailure} makes of a failed model call.
 */
export async function generateRound(
  input: RoundInput,
  history: ModelMessage[],
  stopWhen: Array<StopCondition<ToolSet>>,
  denied: PendingToolApproval[],
): Promise<StepRound> {
  const emit = (part: unknown) => input.onPart(part as Part);
  for (const call of denied)
    emit({ type: 'tool-output-denied', toolCallId: call.toolCallId, toolName: call.toolName });
  const approvals: PendingToolApproval[] = [];
  const settled = new Set<string>();
  const generating = generateText({
    ...roundCallOptions(input, history, stopWhen),
    // the step's model reports each call's start and whole answer (runStep's stepModel)
    model: input.model,
    onToolExecutionEnd: ({ toolCall, toolOutput }) => {
      settled.add(toolCall.toolCallId);
      const { toolCallId, toolName, input: callInput } = toolCall;
      emit(
        toolOutput.type === 'tool-result'
          ? {
              type: 'tool-result',
              toolCallId,
              toolName,
              input: callInput,
              output: toolOutput.output,
            }
          : { type: 'tool-error', toolCallId, toolName, input: callInput, error: toolOutput.error },
      );
    },
    onStepEnd: (step) => emitStepEnd(step, { approvals, settled, emit }),
  });
  const result = await untilAborted(generating, input.abortSignal).catch((error: unknown) => {
    if (input.abortSignal.aborted) throw new RunAbortedError(input.abortSignal.reason);
    throw modelFailure(error, input.step, { model: input.model, messages: history });
  });
  return { approvals, done: result, output: () => outputOf(result, input) };
}

/**
 * The round's parsed `output`, as streaming gives it: `generateText` parses the last answer
 * only when its finish reason is not `tool-calls`, and some providers report `tool-calls` for
 * a last, text-only answer (vercel/ai #15349), which left batch mode without the object
 * streaming parsed. Such an answer is parsed here, from its text, as `streamText` does.
 */
async function outputOf(
  result: Awaited<ReturnType<typeof generateText>>,
  input: RoundInput,
): Promise<unknown> {
  const last = result.steps.at(-1);
  if (!input.output || !last || last.finishReason !== 'tool-calls' || last.toolCalls.length > 0)
    return result.output;
  return input.output.parseCompleteOutput(
    { text: last.text },
    { response: last.response, usage: last.usage, finishReason: last.finishReason },
  );
}

/**
 * The end of one model call's turn: its approval requests (kept in `approvals`), the results
 * of calls whose execution did not report them (`settled` holds those that did: an invalid
 * input, say), then `finish-step`.
 */
function emitStepEnd(
  step: StepResult<ToolSet>,
  round: { approvals: PendingToolApproval[]; settled: Set<string>; emit: (part: unknown) => void },
): void {
  const { approvals, settled, emit } = round;
  for (const part of step.content) {
    if (part.type === 'tool-approval-request') {
      approvals.push({
        approvalId: part.approvalId,
        toolCallId: part.toolCall.toolCallId,
        toolName: part.toolCall.toolName,
        input: part.toolCall.input,
      });
      emit(part);
    } else if (
      (part.type === 'tool-result' || part.type === 'tool-error') &&
      !settled.has(part.toolCallId)
    ) {
      settled.add(part.toolCallId);
      emit(part);
    }
  }
  emit({
    type: 'finish-step',
    response: step.response,
    usage: step.usage,
    finishReason: step.finishReason,
    providerMetadata: step.providerMetadata,
  });
}

/** `promise`, or a rejection as soon as `signal` aborts (the promise goes on unobserved). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(new RunAbortedError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RunAbortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
