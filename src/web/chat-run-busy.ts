import { ChatRequestError } from './chat-request-error.js';

/**
 * The refusal of a chat request whose run another request is running (409 `chat-run-busy`):
 * the chat's message sent again while its run goes on, or a run another process holds
 * (`detail`: the host's `june:` message, which names that process).
 *
 * @example
 * ```ts
 * throw chatRunBusy('c1-1');
 * // june: run c1-1 is busy with another request; send this one when its stream ended.
 * ```
 */
export function chatRunBusy(runId: string, detail?: string): ChatRequestError {
  return new ChatRequestError(
    'chat-run-busy',
    detail ??
      `june: run ${runId} is busy with another request; send this one when its stream ended.`,
    409,
  );
}
