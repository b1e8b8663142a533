import type { ModelMessage, StopCondition, ToolSet } from 'ai';
import type { StepRunInput } from './run-step.js';

/**
 * What a step's `streamText` and `generateText` rounds both pass the AI SDK, apart from the
 * model: the call settings, the system prompt, the tools, the conversation so far (`history`),
 * the output, the stop conditions and the abort signal.
 */
export function roundCallOptions(
  input: StepRunInput,
  history: ModelMessage[],
  stopWhen: Array<StopCondition<ToolSet>>,
) {
  return {
    ...input.callSettings,
    system: input.system,
    tools: input.tools,
    messages: history,
    output: input.output,
    stopWhen,
    providerOptions: input.providerOptions,
    abortSignal: input.abortSignal,
  };
}
