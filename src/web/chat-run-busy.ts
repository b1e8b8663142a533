import { ownerText, type RunOwner } from '../journal/run-lease.js';
import { ChatRequestError } from './chat-request-error.js';

/**
 * The refusal of a chat request whose run another request is running (409 `chat-run-busy`):
 * a follow-up, an approval answer, or the chat's first message sent again while its run goes
 * on. `owner`, when known (a journal store's lease), names the process that runs it.
 *
 * @example
 * ```ts
 * throw chatRunBusy('c1', owner);
 * // june: run c1 is busy: process 48211 on host web-2 since 2026-11-30T12:03:01.000Z is running it for another request; ...
 * ```
 */
export function chatRunBusy(runId: string, owner?: RunOwner): ChatRequestError {
  return new ChatRequestError(
    'chat-run-busy',
    owner
      ? `june: run ${runId} is busy: ${ownerText(owner)} is running it for another request; send this one when that request's stream ended.`
      : `june: run ${runId} is busy with another request; send this one when its stream ended.`,
    409,
  );
}
