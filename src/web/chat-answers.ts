import type { ApprovalSource } from '../approvals/approval-source.js';
import type { ChatRequest } from './chat-request.js';

/** The default reason a waiting call is denied with when a new user message comes instead. */
export const SUPERSEDED_REASON = 'The user sent a new message instead of answering.';

/**
 * The `web` approval source of one chat request: as the continued run asks again about
 * the calls it waits for, each one the browser answered (`addToolApprovalResponse`, by the
 * call's key) is answered so, and, when the request brings a new user message instead,
 * every other one that waited is denied with `supersededReason`. Each answer is recorded as
 * given by `answeredBy` at `answeredAt` (when the request came), not when the run read it.
 *
 * @example
 * ```ts
 * run(workflow, { journal, resume: chat.runId, approvalSources: [chatAnswers(chat, { answeredBy: 'chat c1' })] });
 * ```
 */
export function chatAnswers(
  chat: Pick<ChatRequest, 'answers' | 'pending' | 'newUserMessage'>,
  options: {
    answeredBy?: string;
    supersededReason?: string;
    answeredAt?: Date;
    /**
     * Told when the run refuses an answer (an edit its tool's schema does not take): the
     * request still waits, and the handler ends the response with the error.
     */
    refused?: (error: unknown) => void;
  } = {},
): ApprovalSource {
  const answeredAt = options.answeredAt ?? new Date();
  const by = options.answeredBy !== undefined ? { answeredBy: options.answeredBy } : {};
  return {
    name: 'web',
    requested(request, inbox) {
      if (request.key === undefined) return;
      const given = chat.answers.get(request.key);
      if (given)
        try {
          inbox.answer(request.key, {
            approved: given.approved,
            ...(given.reason !== undefined ? { reason: given.reason } : {}),
            ...(given.input !== undefined ? { input: given.input } : {}),
            ...(given.output !== undefined ? { output: given.output } : {}),
            ...by,
            answeredAt,
          });
        } catch (error) {
          options.refused?.(error);
          throw error;
        }
      else if (chat.newUserMessage && chat.pending.has(request.key))
        inbox.answer(request.key, {
          approved: false,
          reason: options.supersededReason ?? SUPERSEDED_REASON,
          ...by,
          answeredAt,
        });
    },
  };
}
