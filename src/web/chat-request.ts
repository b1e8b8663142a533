import { safeValidateUIMessages, type UIMessage } from 'ai';
import { isRunId } from '../engine/run-id.js';
import { messageText } from './chat-input.js';
import { DEFAULT_CHAT_LIMITS, tooManyMessages } from './chat-limits.js';
import { ChatRequestError } from './chat-request-error.js';
import { APPROVAL_EDITS_FIELD, type ApprovalEdit } from './approval-with.js';

/** An approval answer the browser sent (`addToolApprovalResponse`). */
export interface ChatApprovalAnswer {
  /** The approval id: the call's key (`ApprovalRequest.key`). */
  id: string;
  approved: boolean;
  reason?: string;
  /** An edited input (with an approval), from the body's `juneApprovals` (see `approvalWith`). */
  input?: unknown;
  /** An answer instead of the tool (with a denial), from the body's `juneApprovals`. */
  output?: unknown;
}

/**
 * Checks that each answer is to a request of run `runId` that waits (`pending`), and returns
 * the answers that repeat what the run recorded (`answered`), for the caller to drop.
 *
 * @throws {ChatRequestError} `approval-answered` (409) for an answer to a request answered
 *   already; `approval-unknown` (409) for one to no request of the run.
 */
export function checkAnswers(
  answers: ReadonlyMap<string, ChatApprovalAnswer>,
  pending: ReadonlySet<string>,
  answered: ReadonlyMap<string, boolean>,
  runId: string,
): Set<string> {
  const repeated = repeatedAnswers(answers, answered);
  for (const id of answers.keys()) {
    if (pending.has(id)) continue;
    // the page's copy of an answer the run keeps (one given while another request of its
    // turn waited): it goes with the new answers, and changes nothing
    if (repeated.has(id) && answers.size > repeated.size) continue;
    throw answered.has(id)
      ? new ChatRequestError(
          'approval-answered',
          `june: the approval request "${id}" of run ${runId} was answered already; an answer counts once.`,
          409,
        )
      : new ChatRequestError(
          'approval-unknown',
          `june: run ${runId} has no approval request "${id}"; answer the requests its stream sent (waiting: ${[...pending].map((key) => `"${key}"`).join(', ') || 'none'}).`,
          409,
        );
  }
  return repeated;
}

/**
 * The longest chat id, in characters: a durable chat's run ids are `<chatId>-<turn>`, and
 * those must stay run ids (128 characters at most, see `isRunId`).
 */
export const MAX_CHAT_ID_LENGTH = 100;

/**
 * The chat id and messages of a `useChat` request body.
 * @throws {ChatRequestError} `chat-request-invalid` (400); `chat-request-too-large` (413) for
 *   more than `maxMessages` messages
 */
export async function chatBody(
  body: unknown,
  maxMessages: number = DEFAULT_CHAT_LIMITS.maxMessages,
): Promise<{ chatId: string; messages: UIMessage[] }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('the body is not a JSON object');
  const { id, messages } = body as { id?: unknown; messages?: unknown };
  if (!isRunId(id) || id.length > MAX_CHAT_ID_LENGTH)
    throw invalid(
      `"id" (the chat id) must be 1 to ${MAX_CHAT_ID_LENGTH} letters, digits, ".", "_" or "-"`,
    );
  // counted before the messages are checked one by one: that work grows with their number
  if (Array.isArray(messages) && messages.length > maxMessages)
    throw tooManyMessages(messages.length, maxMessages);
  const checked = await safeValidateUIMessages({ messages: withoutAnswerDenials(messages) });
  if (!checked.success)
    throw invalid(`"messages" are not UI messages: ${checked.error.message.split('\n')[0]}`);
  for (const message of checked.data)
    for (const part of message.parts)
      if (part.type === 'file' && !/^(data|https?):/i.test(part.url))
        throw invalid(
          `a file part (${part.mediaType}) has the URL "${part.url.slice(0, 40)}": a file is sent as a data: URL or an http(s) URL`,
        );
  return { chatId: id, messages: checked.data };
}

/**
 * The messages with the approval taken off each tool part that shows an answer given instead
 * of the tool (a question's answer, or `approvalWith(id, { output })`): the stream shows such
 * a call as `output-available`, while `useChat` keeps on the part the denial the page
 * answered with (`approved: false`), a pair the AI SDK's message schema refuses (its
 * `output-available` parts carry only granted approvals). Without this, every request after
 * such an answer (the next approval of the turn, the next user message) would be refused.
 * The run's journal keeps the answer; the part keeps the output the model read.
 */
function withoutAnswerDenials(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages;
  return messages.map((message: unknown) => {
    const parts = (message as { parts?: unknown } | null)?.parts;
    if (!Array.isArray(parts) || !parts.some(answeredInstead)) return message;
    return {
      ...(message as object),
      parts: parts.map((part: unknown) => {
        if (!answeredInstead(part)) return part;
        const { approval: _denial, ...rest } = part as { approval: unknown };
        return rest;
      }),
    };
  });
}

/** True for a tool part whose output came with a denial: an answer given instead of the tool. */
function answeredInstead(part: unknown): boolean {
  if (typeof part !== 'object' || part === null) return false;
  const { type, state, approval } = part as { type?: unknown; state?: unknown; approval?: unknown };
  return (
    typeof type === 'string' &&
    (type.startsWith('tool-') || type === 'dynamic-tool') &&
    state === 'output-available' &&
    (approval as { approved?: unknown } | null | undefined)?.approved === false
  );
}

/** The run id in the metadata of the last assistant message that has one. */
export function runIdOf(messages: UIMessage[]): string | undefined {
  for (const message of [...messages].reverse()) {
    const runId = (message.metadata as { runId?: unknown } | undefined)?.runId;
    if (message.role !== 'assistant' || runId === undefined) continue;
    if (!isRunId(runId))
      throw invalid(
        'the run id in the message metadata is not a run id (1 to 128 letters, digits, ".", "_" or "-")',
      );
    return runId;
  }
  return undefined;
}

/**
 * The approval answers in an assistant message (`addToolApprovalResponse`), by approval id,
 * each with its edit from the body's `juneApprovals` (see `approvalWith`), when it has one.
 * @throws {ChatRequestError} `chat-request-invalid` (400) for an edit that is not
 *   `{ input }` or `{ output }`, is for no answer of the message, or does not go with its
 *   decision (an input with a denial, an output with an approval).
 */
export function answersIn(message: UIMessage, body?: unknown): Map<string, ChatApprovalAnswer> {
  const answers = new Map<string, ChatApprovalAnswer>();
  for (const part of message.parts) {
    if (!('state' in part) || part.state !== 'approval-responded') continue;
    const { id, approved, reason } = part.approval;
    answers.set(id, { id, approved, ...(reason !== undefined ? { reason } : {}) });
  }
  for (const [id, edit] of editsIn(body)) {
    const answer = answers.get(id);
    if (!answer)
      throw invalid(
        `${APPROVAL_EDITS_FIELD} has an edit for "${id}", but the last message answers no such approval; call addToolApprovalResponse for it first`,
      );
    if ('input' in edit && !answer.approved)
      throw invalid(
        `the edited input for "${id}" comes with a denial; an input goes with approved: true, an answer instead of the tool is { output }`,
      );
    if ('output' in edit && answer.approved)
      throw invalid(
        `the output for "${id}" comes with an approval; an answer instead of the tool goes with approved: false`,
      );
    answers.set(id, { ...answer, ...edit });
  }
  return answers;
}

/** The body's `juneApprovals` (see `approvalWith`), by approval id. @throws {ChatRequestError} 400 */
function editsIn(body: unknown): Map<string, ApprovalEdit> {
  const field = (body as Record<string, unknown> | undefined)?.[APPROVAL_EDITS_FIELD];
  if (field === undefined) return new Map();
  if (typeof field !== 'object' || field === null || Array.isArray(field))
    throw invalid(
      `${APPROVAL_EDITS_FIELD} is not an object of approval id to { input } or { output }`,
    );
  const edits = new Map<string, ApprovalEdit>();
  for (const [id, edit] of Object.entries(field)) {
    const keys = typeof edit === 'object' && edit !== null ? Object.keys(edit) : [];
    if (keys.length !== 1 || (keys[0] !== 'input' && keys[0] !== 'output'))
      throw invalid(`${APPROVAL_EDITS_FIELD}["${id}"] is not { input } or { output }`);
    edits.set(id, edit as ApprovalEdit);
  }
  return edits;
}

/**
 * The answers of a request that repeat what the run already recorded (the same decision):
 * a page sends every answer its message holds, also those the run had before.
 */
export function repeatedAnswers(
  answers: ReadonlyMap<string, ChatApprovalAnswer>,
  recorded: ReadonlyMap<string, boolean>,
): Set<string> {
  const repeated = new Set<string>();
  for (const [id, answer] of answers) if (recorded.get(id) === answer.approved) repeated.add(id);
  return repeated;
}

/** The text of a message's text parts. */
export const textOf: (message: UIMessage) => string = messageText;

/** A `chat-request-invalid` (400) error for `problem`. */
export function invalid(problem: string): ChatRequestError {
  return new ChatRequestError(
    'chat-request-invalid',
    `june: the chat request is malformed: ${problem}.`,
    400,
  );
}
