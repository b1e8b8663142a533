import { createUIMessageStream, createUIMessageStreamResponse, type UIMessage } from 'ai';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { TraceError } from '../trace/trace-node.js';
import type { JuneUIMessage, JuneUIMessageChunk } from './june-ui-message.js';
import type { ResumeFilterOptions } from './resume-filter.js';
import { RunWaits } from './run-waits.js';
import { UIChunkMapper } from './ui-chunk-mapper.js';

/** Options of {@link toUIMessageStream}. */
export interface ToUIMessageStreamOptions {
  /**
   * The run was resumed (`run(el, { resume })`) to continue a message the browser already
   * has: the events it replays from its journal are held back, so only what is new reaches
   * the page. `newSteps`: step paths that are new work (a chat turn for a new user message).
   * @default false
   */
  resumed?: boolean | ResumeFilterOptions;
  /**
   * Called once when the whole run does nothing but wait for approval answers (every
   * running step waits for one, directly or in a composite call). The stream then ends, its
   * message marked `waiting: true`; a server that keeps no state stops the run here and
   * resumes it when the answers come. Without it the stream follows the run to its end
   * (answer with `handle.approve`/`deny` in the meantime).
   */
  onWaiting?: () => void;
  /**
   * For events read from the run's start (a host's log, sent again to a reconnecting page):
   * asked when the events say the run waits, with the ids of the requests it waits for as far
   * as the events went; false when those were answered since (the run went on), and the
   * stream then follows the run further instead of ending there. @default always true
   */
  stillWaiting?: (requestIds: readonly string[]) => Promise<boolean>;
  /**
   * The stream's end (its `finish` chunk) waits for this too: a server passes the run's
   * settled result, so that once a response ended the run has let go of its lease and the
   * page's next request (an approval answer, a new message) finds it free.
   */
  endsAfter?: PromiseLike<unknown>;
  /**
   * Asked once the events showed the run's end (its own `run-finish`): the stream's `finish`
   * chunk waits for what it returns. A server over a run host passes the host's result of the
   * run, so that a response that ended with its run ends once the run let go of its lease, and
   * the page's next request finds the run free (not busy). Not asked when the stream ends at a
   * wait. @default nothing to wait for
   */
  runSettled?: () => PromiseLike<unknown>;
  /**
   * Requests the caller answers itself as they come (a server answering from the request
   * that resumed the run): they do not count as waiting. @default none
   */
  willAnswer?: (request: ApprovalRequest) => boolean;
  /** The text the page gets for a run that failed. @default the error's message */
  errorText?: (error: TraceError) => string;
  /**
   * Why the caller stopped the run, when that is the page's to hear (an answer the run
   * refused: the request still waits): a run that ends aborted while this gives an error
   * ends its stream as waiting, with an `error` chunk of the error's message.
   */
  refusal?: () => Error | undefined;
  /**
   * The messages of the request being answered. When the last one is an assistant message
   * (an approval round trip), the stream continues it under its id; else the new message
   * gets a fresh id.
   */
  originalMessages?: UIMessage[];
  /**
   * The id of the new assistant message (when `originalMessages` does not end with one to
   * continue): a stream sent again for a reconnecting page uses the id it had the first time,
   * so the page replaces that message. @default a new id
   */
  messageId?: string | undefined;
}

/**
 * A run handle, or anything that has a run's events (`RunClient.events(runId)` of
 * `june/dbos` as `{ events }`), each with its trace node and time. `{ log }`, the name
 * `handle.log` had before `handle.events` yielded the same events, is still taken.
 */
export type RunEvents =
  { readonly events: AsyncIterable<RunLogEvent> } | { readonly log: AsyncIterable<RunLogEvent> };

/**
 * A run as the AI SDK's UI message stream: the chunks of one assistant message that
 * `useChat` (`@ai-sdk/react@4`) renders, or `readUIMessageStream` reads. See
 * {@link UIChunkMapper} for how each event becomes parts: text, `tool-<name>` parts with
 * their input, output, error, approval request (its id the call's stable key) or denial, and
 * `data-june-run` / `data-june-agent` / `data-june-step` parts for nested progress. The
 * message's metadata holds the run's id.
 *
 * Reads the run's events (`handle.events`) from the start, so a late reader gets the whole run. The stream ends
 * with the run, or, with `onWaiting`, when the run waits for answers. A failed run ends
 * with an `error` chunk; an aborted one just ends.
 *
 * @example
 * ```tsx
 * const handle = run(<Support />);
 * return createUIMessageStreamResponse({ stream: toUIMessageStream(handle) });
 * ```
 */
export function toUIMessageStream(
  handle: RunEvents,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<JuneUIMessageChunk> {
  return createUIMessageStream<JuneUIMessage>({
    ...(options.originalMessages
      ? { originalMessages: options.originalMessages as JuneUIMessage[] }
      : {}),
    ...(options.messageId !== undefined ? { generateId: () => options.messageId! } : {}),
    execute: async ({ writer }) => {
      const continued = options.originalMessages?.at(-1);
      const mapper = new UIChunkMapper({
        resumed: options.resumed ?? false,
        shown: continued?.role === 'assistant' ? toolCallIdsOf(continued) : [],
      });
      const waits = new RunWaits(options.willAnswer);
      const asked = new Set<string>();
      const source = 'events' in handle ? handle.events : handle.log;
      for await (const event of source) {
        for (const chunk of mapper.map(event)) writer.write(chunk);
        waits.observe(event);
        if (event.type === 'approval-request') asked.add(event.request.id);
        if (event.type === 'approval-response') asked.delete(event.id);
        if (event.type === 'run-finish' && event.runId === mapper.runId) {
          if (event.status === 'failed' && event.error)
            writer.write({
              type: 'error',
              errorText: (options.errorText ?? ((error) => error.message))(event.error),
            });
          const refused = event.status === 'failed' ? undefined : options.refusal?.();
          if (refused) {
            const metadata = { runId: mapper.runId!, waiting: true };
            writer.write({ type: 'message-metadata', messageMetadata: metadata });
            writer.write({ type: 'error', errorText: refused.message });
          }
          await options.runSettled?.();
          break;
        }
        if (
          options.onWaiting &&
          waits.waiting &&
          (!options.stillWaiting || (await options.stillWaiting([...asked])))
        ) {
          const metadata = { runId: mapper.runId!, waiting: true };
          writer.write({ type: 'message-metadata', messageMetadata: metadata });
          options.onWaiting();
          break;
        }
      }
      await options.endsAfter;
      writer.write({ type: 'finish' });
    },
  });
}

/**
 * A `Response` streaming a run as the AI SDK's UI message stream (server-sent events), for
 * a route handler (`fetch`-style servers, Next.js, Hono). Same options as
 * {@link toUIMessageStream}; `headers` and `status` go on the response.
 *
 * @example
 * ```tsx
 * export async function POST() {
 *   return runUIMessageResponse(run(<Support />));
 * }
 * ```
 */
export function runUIMessageResponse(
  handle: RunEvents,
  options: ToUIMessageStreamOptions & { status?: number; headers?: Record<string, string> } = {},
): Response {
  const { status, headers, ...streamOptions } = options;
  return createUIMessageStreamResponse({
    stream: toUIMessageStream(handle, streamOptions),
    ...(status !== undefined ? { status } : {}),
    ...(headers !== undefined ? { headers } : {}),
  });
}

/** The tool call ids of a message's tool parts. */
function toolCallIdsOf(message: UIMessage): string[] {
  return message.parts.flatMap((part) =>
    'toolCallId' in part && typeof part.toolCallId === 'string' ? [part.toolCallId] : [],
  );
}
