import type { ModelMessage, StopCondition, ToolSet } from 'ai';
import type { StepRunInput } from './step-run-input.js';

/**
 * What a step's `streamText` and `generateText` rounds both pass the AI SDK, apart from the
 * model: the call settings, the instructions, the tools and who approves their calls, the
 * conversation so far (`history`), the output, the stop conditions and the abort signal.
 *
 * June's own settings come after the call settings, so an agent's props can never replace
 * them (a `toolApproval` there would replace every tool's `needsApproval`).
 *
 * System messages in the history are allowed: June builds the history itself, from the
 * agent's `messages` (its author's), the steps' prompts and the model's answers.
 */
export function roundCallOptions(
  input: StepRunInput,
  history: ModelMessage[],
  stopWhen: Array<StopCondition<ToolSet>>,
) {
  return {
    ...input.callSettings,
    instructions: input.instructions,
    tools: input.tools,
    toolApproval: input.toolApproval,
    messages: history,
    allowSystemInMessages: true,
    output: input.output,
    stopWhen,
    providerOptions: input.providerOptions,
    abortSignal: input.abortSignal,
    ...(input.telemetry ? { telemetry: input.telemetry } : {}),
    ...(input.compactMessages ? { prepareStep: compactStep(input.compactMessages) } : {}),
    ...(input.onToolStart
      ? {
          onToolExecutionStart: ({
            toolCall,
          }: {
            toolCall: { toolCallId: string; toolName: string; input: unknown };
          }) => input.onToolStart!(toolCall),
        }
      : {}),
  };
}

/** The AI SDK's `prepareStep` that compacts each model call's messages (`<Agent compact>`). */
function compactStep(
  compactMessages: NonNullable<StepRunInput['compactMessages']>,
): (options: { messages: ModelMessage[] }) => Promise<{ messages: ModelMessage[] } | undefined> {
  return async ({ messages }) => {
    const compacted = await compactMessages(messages);
    return compacted ? { messages: compacted } : undefined;
  };
}
