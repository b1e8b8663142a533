import type { Component } from '../elements/element.js';
import { generateId } from 'ai';
import { JuneError } from '../errors/june-error.js';
import type { RunEvent } from '../events/run-event.js';
import type { JournalStore } from '../journal/journal-store.js';
import type { RunHandle } from '../interpreter/run.js';
import { run, type RunOptions } from '../run/run.js';
import { readChatRequest, type ChatRequest } from './chat-request.js';
import { ChatRequestError } from './chat-request-error.js';
import { chatTurnStep, type ChatInput } from './chat-turns.js';
import { dbosChatHandler, type DbosChatOptions } from './dbos-chat.js';
import { runUIMessageResponse, type ToUIMessageStreamOptions } from './to-ui-message-stream.js';

/** Options of {@link chatHandler}: runs in this process, with a journal. */
export interface ChatHandlerOptions {
  /** The workflow, rendered with the conversation as its `chat` prop (see `ChatTurns`). */
  workflow: Component<{ chat: ChatInput }>;
  /** Where runs keep their journals: each request continues its run from there. */
  journal: JournalStore;
  /** Further options for every run (a scripted `model`, `redact`, ...). */
  runOptions?: Omit<RunOptions, 'journal' | 'resume' | 'runId' | 'props' | 'signal'>;
  /**
   * What the model is told when a new user message comes while a call waits for approval:
   * the call is denied with this reason. @default 'The user sent a new message instead of answering.'
   */
  supersededReason?: string;
}

/**
 * Options of {@link chatHandler} for runs on DBOS workers (`june/dbos`): `durable` names the
 * database's run client and the workflow's name on the workers. See {@link DbosChatOptions}.
 */
export interface DurableChatHandlerOptions {
  durable: DbosChatOptions;
}

/** A `fetch`-style handler: `POST` a `useChat` request, `GET <api>/<chatId>/stream` to reconnect. */
export type ChatHandler = (request: Request) => Promise<Response>;

interface Active {
  handle: RunHandle;
  /** How the request's response streams the run. */
  stream: ToUIMessageStreamOptions;
  /** How a reconnect streams it: the whole message the response streams, from its start. */
  replay: ToUIMessageStreamOptions;
}

/**
 * Serves a workflow to `useChat` (`@ai-sdk/react@4`) with no state kept between requests:
 * the journal is the state. Each `POST` (the chat's messages) starts a run, or continues
 * the run named in the last assistant message's metadata, by its id, from its journal:
 *
 * - approval answers in the last assistant message (`addToolApprovalResponse`) answer the
 *   requests the run waits for, by their keys;
 * - a new user message becomes the next chat turn (`ChatTurns`); calls still waiting for an
 *   answer are denied (`supersededReason`), so the model never sees a call without a result;
 * - the response streams what is new (the replayed part of the run is held back), and ends
 *   when the run ends or waits for approval answers; the run is then stopped (its journal
 *   holds the requests) until the answers come.
 *
 * `GET <api>/<chatId>/stream` (`useChat({ resume: true })`) streams the message of the
 * chat's running request again, from its start, under the same message id, and follows the
 * run live (204 when none runs in this process): a page that was reloaded shows it again.
 *
 * With `durable` (a `june/dbos` run client and the workflow's name on the workers) the runs
 * are queued in PostgreSQL instead and run by `june worker` processes; approval answers
 * reach them through the database (see {@link dbosChatHandler}).
 *
 * Bad requests get a 4xx JSON body `{ error: { code, message } }` and touch no run: a
 * malformed body (400), a run with no journal (404), an answer to no waiting request or one
 * already answered (409), a run that is busy with another request (409).
 *
 * @example
 * ```tsx
 * const chat = chatHandler({ workflow: Support, journal: fileJournalStore() });
 * export const POST = chat; // Next.js route handler; GET = chat for reconnects
 * ```
 */
export function chatHandler(options: ChatHandlerOptions | DurableChatHandlerOptions): ChatHandler {
  if ('durable' in options) return refusing(dbosChatHandler(options.durable));
  return refusing(journalChatHandler(options));
}

/** Answers a refused request (a `ChatRequestError`, or a `june:` error) with its JSON body. */
function refusing(handler: ChatHandler): ChatHandler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ChatRequestError)
        return errorResponse(error.status, error.code, error.message);
      if (JuneError.isInstance(error)) return errorResponse(500, error.code, error.message);
      throw error;
    }
  };
}

function journalChatHandler(options: ChatHandlerOptions): ChatHandler {
  const active = new Map<string, Active>();
  const busy = new Set<string>();
  return async (request) => {
    if (request.method === 'GET') return reconnect(request, active);
    if (request.method !== 'POST')
      return errorResponse(405, 'chat-request-invalid', 'june: use POST to send a chat request.');
    const body: unknown = await request.json().catch(() => undefined);
    const chat = await readChatRequest(body, options.journal);
    if (chat.runId !== undefined && busy.has(chat.runId))
      throw new ChatRequestError(
        'chat-run-busy',
        `june: run ${chat.runId} is busy with another request; send this one when its stream ended.`,
        409,
      );
    return start(chat, options, active, busy);
  };
}

function start(
  chat: ChatRequest,
  options: ChatHandlerOptions,
  active: Map<string, Active>,
  busy: Set<string>,
): Response {
  const controller = new AbortController();
  const handle = run(options.workflow, {
    ...options.runOptions,
    journal: options.journal,
    props: { chat: { messages: chat.userMessages } },
    signal: controller.signal,
    ...(chat.runId !== undefined ? { resume: chat.runId } : {}),
  });
  const turn = chatTurnStep(chat.userMessages.length - 1);
  const stream: ToUIMessageStreamOptions = {
    resumed: chat.runId !== undefined ? { newSteps: chat.newUserMessage ? [turn] : [] } : false,
    originalMessages: chat.messages,
    messageId: chat.newUserMessage ? generateId() : undefined,
    onWaiting: () => controller.abort('the run waits for approval answers'),
    willAnswer: (request) =>
      request.key !== undefined &&
      (chat.answers.has(request.key) || (chat.newUserMessage && chat.pending.has(request.key))),
  };
  // the message began with its turn (the first message: with the run)
  const replay = {
    ...stream,
    resumed: chat.userMessages.length > 1 ? { newSteps: [turn] } : false,
  };
  active.set(chat.chatId, { handle, stream, replay });
  active.set(handle.runId, { handle, stream, replay });
  busy.add(handle.runId);
  void answer(handle, chat, options.supersededReason);
  handle.result
    .catch(() => {})
    .finally(() => {
      busy.delete(handle.runId);
      for (const [key, entry] of active) if (entry.handle === handle) active.delete(key);
    });
  return runUIMessageResponse(handle, stream);
}

/** Answers the requests the run asks again from the browser's answers; a new message denies the rest. */
async function answer(handle: RunHandle, chat: ChatRequest, reason?: string): Promise<void> {
  for await (const event of handle.events as AsyncIterable<RunEvent>) {
    if (event.type !== 'approval-request' || event.request.key === undefined) continue;
    const given = chat.answers.get(event.request.key);
    try {
      if (given?.approved) handle.approve(event.request.id);
      else if (given) handle.deny(event.request.id, given.reason);
      else if (chat.newUserMessage && chat.pending.has(event.request.key))
        handle.deny(
          event.request.id,
          reason ?? 'The user sent a new message instead of answering.',
        );
    } catch {
      // the request was withdrawn (the run stopped) before the answer came
    }
  }
}

function reconnect(request: Request, active: Map<string, Active>): Response {
  const match = /\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
  const entry = match ? active.get(decodeURIComponent(match[1]!)) : undefined;
  if (!entry) return new Response(null, { status: 204 });
  return runUIMessageResponse(entry.handle, entry.replay);
}

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}
