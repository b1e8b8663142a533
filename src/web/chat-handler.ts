import type { Component } from '../elements/element.js';
import { generateId } from 'ai';
import { JuneError } from '../errors/june-error.js';
import type { JournalStore } from '../journal/journal-store.js';
import { ownerOfError, type RunLease } from '../journal/run-lease.js';
import type { RunHandle } from '../interpreter/run.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { run, type RunOptions } from '../run/run.js';
import { chatLimits, readLimitedJson, type ChatLimits } from './chat-limits.js';
import { readChatRequest, type ChatRequest } from './chat-request.js';
import { ChatRequestError } from './chat-request-error.js';
import { chatRunBusy } from './chat-run-busy.js';
import { chatTurnStep, type ChatInput } from './chat-turns.js';
import { chatAnswers } from './chat-answers.js';
import type { RunClient } from '../dbos/run-client.js';
import { databaseRunHost } from '../host/database-run-host.js';
import { hostChatHandler, type HostChatOptions } from './host-chat.js';
import { StoppedRuns } from './stopped-runs.js';
import { runUIMessageResponse, type ToUIMessageStreamOptions } from './to-ui-message-stream.js';

/** Options of {@link chatHandler}: runs in this process, with a journal. */
export interface ChatHandlerOptions extends ChatLimits {
  /** The workflow, rendered with the conversation as its `chat` prop (see `ChatTurns`). */
  workflow: Component<{ chat: ChatInput }>;
  /** Where runs keep their journals: each request continues its run from there. */
  journal: JournalStore;
  /** Further options for every run (a scripted `model`, `redact`, ...). */
  runOptions?: Omit<RunOptions, 'journal' | 'resume' | 'runId' | 'props' | 'signal'>;
  /**
   * Consumers made afresh for each run a request starts or continues, after
   * `runOptions.consumers`: for one that follows a single run, such as `traceWriter` (June
   * Studio's chat writes each run's trace this way). @default none
   */
  runConsumers?: () => RunConsumer[];
  /**
   * What the model is told when a new user message comes while a call waits for approval:
   * the call is denied with this reason. @default 'The user sent a new message instead of answering.'
   */
  supersededReason?: string;
  /**
   * Who answers approvals through this handler, from the request (the signed-in user, from a
   * session cookie or header your app checks), recorded with each answer as `answeredBy`.
   * @default `chat <chatId>`
   */
  answeredBy?: (request: Request) => string | undefined;
}

/** The `durable` option of {@link chatHandler}: the chat's runs are queued for workers (`june/dbos`). */
export interface DbosChatOptions {
  /** A connection to the runs' database: `await RunClient.connect(url)` of `june/dbos`. */
  runs: RunClient;
  /** The workflow's name on the workers (its file name: `shop` for `shop.tsx`). */
  workflow: string;
  /** Why a call waiting for approval is denied when a new user message comes instead. */
  supersededReason?: string;
  /** Who answers approvals, from the request (recorded as `answeredBy`). @default `chat <chatId>` */
  answeredBy?: (request: Request) => string | undefined;
}

/**
 * Options of {@link chatHandler} for runs on DBOS workers (`june/dbos`): `durable` names the
 * database's run client and the workflow's name on the workers. It is the same as giving
 * the database's run host (`host`, over that client). See {@link DbosChatOptions}.
 */
export interface DurableChatHandlerOptions extends ChatLimits {
  durable: DbosChatOptions;
}

/**
 * Options of {@link chatHandler} for runs on a run host that follows their events (a runs
 * folder run in this process, `localRunHost`; a database's host; `memoryRunHost`): `host`
 * and the workflow's name on it. See {@link HostChatOptions}.
 */
export interface HostChatHandlerOptions extends ChatLimits, HostChatOptions {}

/** A `fetch`-style handler: `POST` a `useChat` request, `GET <api>/<chatId>/stream` to reconnect. */
export type ChatHandler = (request: Request) => Promise<Response>;

interface Active {
  handle: RunHandle;
  /** How the request's response streams the run. */
  stream: ToUIMessageStreamOptions;
  /** How a reconnect streams it: the whole message the response streams, from its start. */
  replay: ToUIMessageStreamOptions;
}

/** How many runs stopped for approval answers a handler keeps for reconnecting pages, and how long (ms). */
const STOPPED_RUNS_KEPT = 1000;
const STOPPED_RUN_TTL_MS = 15 * 60_000;

/**
 * Serves a workflow to `useChat` (`@ai-sdk/react@4`) with no state kept between requests:
 * the journal is the state. Each `POST` (the chat's messages) starts a run, or continues
 * the run named in the last assistant message's metadata, by its id, from its journal:
 *
 * - approval answers in the last assistant message (`addToolApprovalResponse`) answer the
 *   requests the run waits for, by their keys;
 * - a new user message becomes the next chat turn (`ChatTurns`); calls still waiting for an
 *   answer are denied (`supersededReason`), so the model never sees a call without a result;
 * - a request runs one new turn at most, however long the conversation it carries: the
 *   earlier turns are the run's own (its journal answers them, no model call), and what the
 *   page sent before the run's first turn is context (`chat.history`), not turns;
 * - a run belongs to the chat that started it: another chat id naming it is refused;
 * - one chat is one run: a chat's first message starts the run whose id is the chat id, and
 *   takes its lease first like any request, so the same first message sent twice at once
 *   runs once (the other gets `chat-run-busy`), and sent again later continues that run;
 * - the response streams what is new (the replayed part of the run is held back), and ends
 *   when the run ends or waits for approval answers; the run is then stopped (its journal
 *   holds the requests) until the answers come.
 *
 * `GET <api>/<chatId>/stream` (`useChat({ resume: true })`) streams the message of the
 * chat's running request again, from its start, under the same message id, and follows the
 * run live: a page that was reloaded shows it again. A run this process stopped to wait for
 * approval answers is sent too (its message up to the requests, `waiting: true`), so a page
 * that lost its response before a request arrived still gets it; it is kept until the chat's
 * next request, for 15 minutes at most (the newest 1,000 such runs). Otherwise 204.
 *
 * With `host` (a run host that follows events, and the workflow's name on it), each user
 * message is a run of its own on that host, `<chatId>-<n>`, answered through the host (see
 * {@link hostChatHandler}). With `durable` (a `june/dbos` run client and the workflow's name
 * on the workers) the same, on the database's host: the runs are queued in PostgreSQL and
 * run by `june worker` processes, and approval answers reach them through the database.
 *
 * Bad requests get a 4xx JSON body `{ error: { code, message } }` and touch no run: a
 * malformed body (400), a body over `maxRequestBytes` or more than `maxMessages` messages
 * (413, `chat-request-too-large`), a run with no journal (404), a run of another chat (403,
 * `chat-run-foreign`), an answer to no waiting request or one already answered (409), a run
 * that is busy with another request (409 `chat-run-busy`), in this handler or in any other
 * process over the same journal store: a request takes the run's lease in the store
 * (`JournalStore.lease`) before it reads the run's journal, and the run lets go when it
 * stops, so one run is never continued twice at once.
 *
 * @throws {WorkflowError} `chat-handler-option-invalid` (at once) for a limit that is not a
 *   whole number of 1 or more.
 * @example
 * ```tsx
 * const chat = chatHandler({ workflow: Support, journal: fileJournalStore() });
 * export const POST = chat; // Next.js route handler; GET = chat for reconnects
 * ```
 */
export function chatHandler(
  options: ChatHandlerOptions | DurableChatHandlerOptions | HostChatHandlerOptions,
): ChatHandler {
  const limits = chatLimits(options);
  if ('host' in options) return refusing(hostChatHandler(options, limits));
  if ('durable' in options) {
    const { runs, ...rest } = options.durable;
    const host = databaseRunHost({ database: 'the database', client: runs });
    host.catch(() => {}); // told to the first request that awaits it
    return refusing(hostChatHandler({ ...rest, host }, limits));
  }
  return refusing(journalChatHandler(options, limits));
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

/** What a journal chat handler keeps in memory: the runs it runs, and those it stopped to wait. */
interface HandlerState {
  active: Map<string, Active>;
  busy: Set<string>;
  stopped: StoppedRuns<Active>;
}

function journalChatHandler(
  options: ChatHandlerOptions,
  limits: Required<ChatLimits>,
): ChatHandler {
  const state: HandlerState = {
    active: new Map(),
    busy: new Set(),
    stopped: new StoppedRuns(STOPPED_RUNS_KEPT, STOPPED_RUN_TTL_MS),
  };
  return async (request) => {
    if (request.method === 'GET') return reconnect(request, state);
    if (request.method !== 'POST')
      return errorResponse(405, 'chat-request-invalid', 'june: use POST to send a chat request.');
    const body = await readLimitedJson(request, limits.maxRequestBytes);
    let lease: RunLease | undefined;
    let claimed: string | undefined;
    try {
      const chat = await readChatRequest(
        body,
        options.journal,
        limits.maxMessages,
        async (runId) => {
          // a store that leases says who runs the run, across processes; else this handler knows
          if (typeof options.journal.lease === 'function')
            lease = await ownRun(options.journal, runId);
          else if (state.busy.has(runId)) throw chatRunBusy(runId);
          else state.busy.add((claimed = runId));
        },
      );
      const by = options.answeredBy?.(request) ?? `chat ${chat.chatId}`;
      return start(chat, options, state, lease, by);
    } catch (error) {
      if (claimed !== undefined) state.busy.delete(claimed);
      await lease?.release();
      throw error;
    }
  };
}
/** `runOptions.consumers` with the ones made for this run (`runConsumers`), if any. */
function runConsumers(options: ChatHandlerOptions): { consumers?: RunConsumer[] } {
  const made = options.runConsumers?.() ?? [];
  return made.length ? { consumers: [...(options.runOptions?.consumers ?? []), ...made] } : {};
}

/**
 * Takes the run's lease in the journal store (when the store leases), so that of two
 * requests continuing one run, in this server or another over the same store, one runs it
 * and the other is refused before anything of the run is read.
 *
 * @throws {ChatRequestError} `chat-run-busy` (409) when another request or process runs it.
 */
async function ownRun(journal: JournalStore, runId: string): Promise<RunLease | undefined> {
  try {
    return await journal.lease?.(runId);
  } catch (error) {
    const owner = ownerOfError(error);
    if (!owner) throw error;
    throw chatRunBusy(runId, owner);
  }
}

function start(
  chat: ChatRequest,
  options: ChatHandlerOptions,
  state: HandlerState,
  lease: RunLease | undefined,
  answeredBy: string,
): Response {
  const { active, busy, stopped } = state;
  // the chat goes on: what a reconnect would have been sent is this request's to send now
  for (const key of [chat.chatId, chat.runId]) stopped.delete(key);
  const controller = new AbortController();
  let refusal: Error | undefined;
  // the browser's answers reach the run through its inbox, as the run asks again; one the
  // tool's schema refuses stops the run, still waiting, and the page is told
  const answers = pageAnswers(chat, options, answeredBy, (error) => {
    refusal = error instanceof Error ? error : new Error(String(error));
    controller.abort(error);
  });
  const handle = run(options.workflow, {
    ...options.runOptions,
    ...runConsumers(options),
    approvalSources: [...(options.runOptions?.approvalSources ?? []), answers],
    journal: options.journal,
    props: { chat: chat.input },
    signal: controller.signal,
    ...(chat.resume ? { resume: chat.runId } : { runId: chat.runId }),
    ...(lease ? { lease } : {}),
  });
  const turns = chat.input.messages.length;
  const turn = chatTurnStep(turns - 1);
  const userLast = chat.messages.at(-1)?.role === 'user'; // a new message: its turn, new or again
  let waiting = false;
  let entry: Active | undefined;
  busy.add(handle.runId);
  const settled = handle.result
    .catch(() => {})
    .finally(() => {
      busy.delete(handle.runId);
      for (const [key, value] of active) if (value.handle === handle) active.delete(key);
      // stopped to wait for answers: a page that missed the requests gets them on reconnect
      if (waiting && entry) stopped.set([chat.chatId, handle.runId], entry);
    });
  const stream: ToUIMessageStreamOptions = {
    resumed: chat.resume ? { newSteps: userLast ? [turn] : [] } : false,
    originalMessages: chat.messages,
    messageId: userLast ? generateId() : undefined,
    onWaiting: () => {
      waiting = true;
      controller.abort('the run waits for approval answers');
    },
    // the response ends once the run let go of it: the next request may come at once
    endsAfter: settled,
    refusal: () => refusal,
    willAnswer: (request) =>
      request.key !== undefined &&
      (chat.answers.has(request.key) || (chat.newUserMessage && chat.pending.has(request.key))),
  };
  // the message began with its turn (the first message: with the run)
  const replay = { ...stream, resumed: turns > 1 ? { newSteps: [turn] } : false };
  entry = { handle, stream, replay };
  active.set(chat.chatId, entry);
  active.set(handle.runId, entry);
  return runUIMessageResponse(handle, stream);
}

/** The `web` approval source of `chat` (see `chatAnswers`). */
function pageAnswers(
  chat: ChatRequest,
  options: ChatHandlerOptions,
  answeredBy: string,
  refused: (error: unknown) => void,
) {
  return chatAnswers(chat, {
    answeredBy,
    refused,
    ...(options.supersededReason !== undefined
      ? { supersededReason: options.supersededReason }
      : {}),
  });
}

function reconnect(request: Request, state: HandlerState): Response {
  const match = /\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
  const key = match ? decodeURIComponent(match[1]!) : undefined;
  const entry = key === undefined ? undefined : (state.active.get(key) ?? state.stopped.get(key));
  if (!entry) return new Response(null, { status: 204 });
  return runUIMessageResponse(entry.handle, entry.replay);
}

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}
