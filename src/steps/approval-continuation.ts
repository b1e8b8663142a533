import { asSchema, type ModelMessage, type Tool, type ToolContent, type ToolSet } from 'ai';
import { withReason } from '../approvals/with-reason.js';
import type { PendingToolApproval, ToolApprovalAnswer } from './step-run-input.js';

/** A call answered instead of its tool: the model reads `output` as its result. */
export interface RespondedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  output: unknown;
}

/**
 * What a step sends back once a model turn's approval requests are answered:
 *
 * - an approval with an edited input replaces the call in the conversation (`history`, and
 *   the step's `responseMessages`, which hold the same message objects): the assistant
 *   message's `tool-call` gets the edited input, as the tool's input schema reads it. The AI
 *   SDK runs an approved call with the input its `tool-call` part holds, so the tool runs
 *   with the edit, and the model's next request shows the call it gets the result of;
 * - an answer instead of the tool becomes the call's `tool-result` (through the tool's
 *   `toModelOutput`, if any), beside its approval response: the AI SDK skips a call that has
 *   a result, so the tool never runs, and the model reads the answer as its output;
 * - every answer becomes the AI SDK's own `tool-approval-response`.
 *
 * @returns the `role: 'tool'` message to append, and the calls answered instead of their tool.
 */
export async function approvalContinuation(
  tools: ToolSet,
  requests: readonly PendingToolApproval[],
  answers: readonly ToolApprovalAnswer[],
  conversation: { history: ModelMessage[]; responseMessages: ModelMessage[] },
): Promise<{ message: ModelMessage; responded: RespondedCall[] }> {
  const content: ToolContent = [];
  const responded: RespondedCall[] = [];
  for (const answer of answers) {
    const request = requests.find((r) => r.approvalId === answer.approvalId);
    content.push({
      type: 'tool-approval-response',
      approvalId: answer.approvalId,
      approved: answer.approved,
      ...withReason(answer.reason),
    });
    if (!request) continue;
    const tool = Object.hasOwn(tools, request.toolName) ? tools[request.toolName] : undefined;
    if (answer.approved && answer.input !== undefined) {
      const parsed = await parsedInput(tool, answer.input);
      replaceCall(conversation, request, parsed, answer.input);
    } else if (!answer.approved && answer.output !== undefined) {
      const { toolCallId, toolName, input } = request;
      content.push({
        type: 'tool-result',
        toolCallId,
        toolName,
        output: await modelOutput(tool, { toolCallId, input, output: answer.output }),
      });
      responded.push({ toolCallId, toolName, input, output: answer.output });
    }
  }
  return { message: { role: 'tool', content }, responded };
}

/** The edited input as the tool's input schema reads it (defaults filled in); as given when it has no validator. */
async function parsedInput(tool: Tool | undefined, input: unknown): Promise<unknown> {
  if (tool?.inputSchema === undefined) return input;
  const validated = await asSchema(tool.inputSchema).validate?.(input);
  return validated?.success ? validated.value : input;
}

/** What the model reads as the call's result: as the AI SDK makes it from a tool's output. */
async function modelOutput(
  tool: Tool | undefined,
  call: { toolCallId: string; input: unknown; output: unknown },
): Promise<Extract<ToolContent[number], { type: 'tool-result' }>['output']> {
  if (tool?.toModelOutput) return tool.toModelOutput(call);
  return typeof call.output === 'string'
    ? { type: 'text', value: call.output }
    : { type: 'json', value: call.output as never };
}

/**
 * Puts the edited input into the turn's assistant message (the last one holding the call:
 * providers repeat `toolCallId`s across turns), in the history and the step's messages. The
 * approval request part keeps the input as given when the schema reads it otherwise (the AI
 * SDK checks an approved call's input again, from that part when it is there).
 */
function replaceCall(
  conversation: { history: ModelMessage[]; responseMessages: ModelMessage[] },
  request: PendingToolApproval,
  parsed: unknown,
  given: unknown,
): void {
  const { history, responseMessages } = conversation;
  const differs = JSON.stringify(parsed) !== JSON.stringify(given);
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    if (!message.content.some((p) => p.type === 'tool-call' && p.toolCallId === request.toolCallId))
      continue;
    const content = message.content.map((part) => {
      if (part.type === 'tool-call' && part.toolCallId === request.toolCallId)
        return { ...part, input: parsed };
      if (part.type !== 'tool-approval-request' || part.approvalId !== request.approvalId)
        return part;
      const { inputSchemaInput: _was, ...rest } = part;
      return differs ? { ...rest, inputSchemaInput: given } : rest;
    });
    const edited: ModelMessage = { ...message, content };
    history[index] = edited;
    const own = responseMessages.indexOf(message);
    if (own >= 0) responseMessages[own] = edited;
    return;
  }
}
