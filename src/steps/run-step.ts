import {
  streamText,
  stepCountIs,
  type CallSettings,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type Output,
  type StopCondition,
  type TextStreamPart,
  type ToolApprovalResponse,
  type ToolSet,
} from 'ai';
import { RunAbortedError } from '../errors/june-error.js';
import { emptyUsage, sumUsage } from '../models/usage.js';

/** A tool call the model made that needs a person's answer before it runs. */
export interface PendingToolApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What {@link runStep} needs: one agent's settings and one step's conversation. */
export interface StepRunInput {
  model: LanguageModel;
  system?: string;
  tools: ToolSet;
  /** The conversation so far, ending with this step's user message. */
  messages: ModelMessage[];
  output?: Output.Output<any, any>;
  /** @default stepCountIs(20) */
  stopWhen?: StopCondition<any> | Array<StopCondition<any>>;
  callSettings: Omit<CallSettings, 'abortSignal'>;
  providerOptions?: Record<string, Record<string, any>>;
  abortSignal: AbortSignal;
  /** Every part of every model stream, as it arrives (text deltas, tool calls, results...). */
  onPart: (part: TextStreamPart<ToolSet>) => void;
  /** Answers the approval requests of one model turn, all of them, in any order. */
  approve: (requests: PendingToolApproval[]) => Promise<Array<{ approvalId: string; approved: boolean; reason?: string }>>;
}

/** What a step produced: its result, the messages it added to the conversation, and its usage in tokens. */
export interface StepRunOutput {
  /** The final text, or the parsed object when `output` is set. */
  result: unknown;
  responseMessages: ModelMessage[];
  usage: LanguageModelUsage;
}

/**
 * Runs one step: an AI SDK `streamText` tool loop. When a turn asks for approvals, the loop
 * stops (the AI SDK's behaviour), June waits for every answer, appends the AI SDK's own
 * `tool-approval-response` message, and calls `streamText` again with the history, so
 * approved calls run and denied ones reach the model as denied.
 *
 * @throws {RunAbortedError} when `abortSignal` aborts; the model's or provider's error otherwise.
 */
export async function runStep(input: StepRunInput): Promise<StepRunOutput> {
  const history = [...input.messages];
  const responseMessages: ModelMessage[] = [];
  let usage = emptyUsage();
  while (true) {
    let failure: { error: unknown } | undefined;
    const approvals: PendingToolApproval[] = [];
    const stream = streamText({
      ...input.callSettings,
      model: input.model,
      system: input.system,
      tools: input.tools,
      messages: history,
      output: input.output,
      stopWhen: input.stopWhen ?? stepCountIs(20),
      providerOptions: input.providerOptions,
      abortSignal: input.abortSignal,
      onError: () => {},
    });
    try {
      for await (const part of stream.fullStream) {
        if (part.type === 'error') failure ??= { error: part.error };
        else if (part.type === 'abort') failure ??= { error: new RunAbortedError(input.abortSignal.reason) };
        else if (part.type === 'tool-approval-request') {
          approvals.push({ approvalId: part.approvalId, toolCallId: part.toolCall.toolCallId, toolName: part.toolCall.toolName, input: part.toolCall.input });
        }
        input.onPart(part);
      }
    } catch (error) {
      failure ??= { error };
    }
    if (input.abortSignal.aborted) throw new RunAbortedError(input.abortSignal.reason);
    if (failure) throw failure.error;

    const response = await stream.response;
    usage = sumUsage(usage, await stream.totalUsage);
    history.push(...response.messages);
    responseMessages.push(...response.messages);

    if (approvals.length === 0) {
      const result = input.output ? await stream.output : await stream.text;
      return { result, responseMessages, usage };
    }
    const answers = await input.approve(approvals);
    const content: ToolApprovalResponse[] = answers.map((a) => ({
      type: 'tool-approval-response',
      approvalId: a.approvalId,
      approved: a.approved,
      ...(a.reason !== undefined ? { reason: a.reason } : {}),
    }));
    const message: ModelMessage = { role: 'tool', content };
    history.push(message);
    responseMessages.push(message);
  }
}
