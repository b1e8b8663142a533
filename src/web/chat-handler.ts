import type { Component } from '../elements/element.js';
import { JuneError } from '../errors/june-error.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { databaseRunHost, type DatabaseRunHostOptions } from '../host/database-run-host.js';
import { memoryRunHost, type MemoryRunHostOptions } from '../host/memory-run-host.js';
import type { HostedRunOptions } from '../host/memory-runs.js';
import { chatLimits, type ChatLimits } from './chat-limits.js';
import { ChatRequestError } from './chat-request-error.js';
import type { ChatInput } from './chat-turns.js';
import { hostChatHandler, type ChatThreadOption, type HostChatOptions } from './host-chat.js';

/** Options of {@link chatHandler}: runs in this process, with a journal. */
export interface ChatHandlerOptions extends ChatLimits {
  /** The workflow, rendered with the conversation as its `chat` prop (see `ChatTurns`). */
  workflow: Component<{ chat: ChatInput }>;
  /** Where runs keep their journals: each request continues its run from there. */
  journal: NonNullable<MemoryRunHostOptions['journal']>;
  /** Further options for every run (a scripted `model`, `redact`, ...). */
  runOptions?: HostedRunOptions;
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
  /**
   * Keeps each chat's conversation on the server, as a thread in `journal`: `true` (the
   * thread is the chat id) or a function naming a chat's thread. The page then sends only its
   * new message, and a reloaded page goes on with the conversation. See `ChatThreadOption`
   * and docs/threads.md. @default none: the page sends the whole conversation
   */
  thread?: ChatThreadOption;
}

/** The `durable` option of {@link chatHandler}: the chat's runs are queued for workers (`june/dbos`). */
export interface DbosChatOptions {
  /** A connection to the runs' database: `await RunClient.connect(url)` of `june/dbos`. */
  runs: NonNullable<DatabaseRunHostOptions['client']>;
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

/** The workflow's name in the journal form's host, and in its runs' journals, unless `runOptions.workflow` names it. */
const CHAT_WORKFLOW = 'chat';
/** How many ended runs the journal form keeps in memory for pages that reconnect. */
const ENDED_RUNS_KEPT = 1000;

/**
 * Serves a workflow to `useChat` (`@ai-sdk/react@4`). Each user message of a chat starts a
 * run of its own, `<chatId>-<n>`, on a run host: its `chat` prop holds the new message as its
 * one turn and the conversation before it as `history` (see `ChatTurns`). Approval answers
 * in the last assistant message (`addToolApprovalResponse`, with edits and answers instead of
 * the tool from `approvalWith`) go to the run its metadata names, through the host; a new
 * user message denies what the chat's last run still waits for (`supersededReason`), and
 * starts once that run went on. Each response streams the run's events until it ends or
 * waits (`waiting: true`). See {@link hostChatHandler} and docs/web-apps.md.
 *
 * The host is one of three forms of `options`:
 *
 * - `{ workflow, journal }`: runs in this process (`memoryRunHost` over `journal`); a run
 *   waits here, and after a restart the first request that names it takes it up from its
 *   journal (its lease first: another process that holds it makes the request 409
 *   `chat-run-busy`);
 * - `{ host, workflow }`: a run host that follows events (`localRunHost`, a database's);
 * - `{ durable: { runs, workflow } }`: the database's host over a `june/dbos` run client, the
 *   runs queued for `june worker` processes.
 *
 * `GET <api>/<chatId>/stream` (`useChat({ resume: true })`) streams the chat's newest run
 * again while it runs or waits, from its start, under the same message id; else 204.
 *
 * Bad requests get a 4xx JSON body `{ error: { code, message } }` and touch no run: a
 * malformed body (400), a body over `maxRequestBytes` or more than `maxMessages` messages
 * (413, `chat-request-too-large`), a run the host does not have (404, `chat-run-missing`), a
 * run of another chat (403, `chat-run-foreign`), an answer to no waiting request or one
 * already answered (409), an edit the tool's schemas refuse (409), a run busy with another
 * request or process (409 `chat-run-busy`).
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
  // runs in this process, over the caller's journal store: a host of this process's memory
  // the runs' workflow name, in their journals and traces: `runOptions.workflow`, else `chat`
  const name = options.runOptions?.workflow ?? CHAT_WORKFLOW;
  const host = memoryRunHost({
    workflows: { [name]: options.workflow as Component },
    journal: options.journal,
    keepEnded: ENDED_RUNS_KEPT,
    ...(options.runOptions ? { runOptions: options.runOptions } : {}),
    ...(options.runConsumers ? { runConsumers: options.runConsumers } : {}),
  });
  const { supersededReason, answeredBy, thread } = options;
  return refusing(
    hostChatHandler(
      {
        host,
        workflow: name,
        ...(supersededReason !== undefined ? { supersededReason } : {}),
        ...(answeredBy ? { answeredBy } : {}),
        ...(thread !== undefined ? { thread } : {}),
      },
      limits,
    ),
  );
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

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}
