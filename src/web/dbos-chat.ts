import type { UIMessage } from 'ai';
import { notAppliedText } from '../dbos/answer-result-text.js';
import type { RunToEnqueue } from '../dbos/queued-run.js';
import type { RunClient } from '../dbos/run-client.js';
import { JuneError } from '../errors/june-error.js';
import { chatInput } from './chat-input.js';
import { DEFAULT_CHAT_LIMITS, readLimitedJson, type ChatLimits } from './chat-limits.js';
import {
  answersIn,
  chatBody,
  invalid,
  repeatedAnswers,
  runIdOf,
  textOf,
  type ChatApprovalAnswer,
} from './chat-request.js';
import { ChatRequestError } from './chat-request-error.js';
import { chatRunBusy } from './chat-run-busy.js';
import { SUPERSEDED_REASON } from './chat-answers.js';
import { runUIMessageResponse, type ToUIMessageStreamOptions } from './to-ui-message-stream.js';

/** Options of {@link dbosChatHandler}: the chat's runs are queued for workers (`june/dbos`). */
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

/** What a chat request asks of a run in the database, checked. */
interface DbosChatRequest {
  chatId: string;
  messages: UIMessage[];
  userMessages: string[];
  /** The run an approval answer goes on (absent: a new user message starts a run). */
  runId?: string;
  /** Answers by DBOS request id. */
  answers: ChatApprovalAnswer[];
}

/**
 * The stateless round trip with runs on DBOS workers (see `chatHandler`'s `durable` option):
 * a new user message enqueues a run of the workflow (its `chat` prop: the new message as its
 * one turn, the conversation before it as `history`); approval answers go to the run by its
 * id, through the database, to whichever worker runs it; each response streams the run's
 * events as its workers publish them, from any server process, and ends when the run ends or
 * waits for answers (it waits in the database, nothing is stopped). A new user message
 * denies the calls still waiting in the chat's run. A reconnect (`GET <api>/<chatId>/stream`)
 * sends the chat's running run again, from any server process. A chat's runs are
 * `<chatId>-<n>`: a request naming a run of another chat is refused (403, `chat-run-foreign`).
 * A message's run is queued once: of the requests that send one message at once, the one
 * whose enqueue DBOS stored streams it, the others get 409 `chat-run-busy`.
 */
export function dbosChatHandler(
  options: DbosChatOptions,
  limits: Required<ChatLimits> = DEFAULT_CHAT_LIMITS,
) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'GET') return reconnect(request, options.runs);
    const body = await readLimitedJson(request, limits.maxRequestBytes);
    const chat = await readDbosChatRequest(body, options.runs, limits.maxMessages);
    const answeredBy = options.answeredBy?.(request) ?? `chat ${chat.chatId}`;
    if (chat.runId === undefined) return startRun(chat, options, answeredBy);
    for (const { id, approved, reason, input, output } of chat.answers) {
      const [result] = await approveOrRefuse(options.runs, chat.runId, {
        requestId: id,
        approved,
        ...(reason ? { reason } : {}),
        ...(input !== undefined ? { input } : {}),
        ...(output !== undefined ? { output } : {}),
        answeredBy,
        source: 'web',
      });
      // another process stored its answer first (the checks above read the run before)
      if (result && result.status !== 'applied')
        throw new ChatRequestError(
          result.status === 'unknown' ? 'approval-unknown' : 'approval-answered',
          notAppliedText(chat.runId, result, { approved }),
          409,
        );
    }
    const answered = chat.answers.map((answer) => answer.id);
    return stream(chat.runId, options.runs, {
      originalMessages: chat.messages,
      resumed: { answeredNow: answered },
      willAnswer: (asked) => answered.includes(asked.id),
    });
  };
}

/**
 * `runs.approve`, an edit the tool's schema refuses told as the page's fault (409, the
 * request still waits).
 */
async function approveOrRefuse(
  runs: RunClient,
  runId: string,
  answer: Parameters<RunClient['approve']>[1],
): ReturnType<RunClient['approve']> {
  try {
    return await runs.approve(runId, answer);
  } catch (error) {
    if (JuneError.isInstance(error) && REFUSED_EDITS.has(error.code))
      throw new ChatRequestError(error.code as RefusedEdit, error.message, 409);
    throw error;
  }
}

type RefusedEdit = 'approval-input-invalid' | 'approval-output-invalid' | 'approval-answer-invalid';

const REFUSED_EDITS: ReadonlySet<string> = new Set<RefusedEdit>([
  'approval-input-invalid',
  'approval-output-invalid',
  'approval-answer-invalid',
]);

async function startRun(
  chat: DbosChatRequest,
  options: DbosChatOptions,
  answeredBy: string,
): Promise<Response> {
  const previous = runIdOf(chat.messages.slice(0, -1));
  if (previous !== undefined) {
    checkChatOwns(previous, chat.chatId);
    await supersede(previous, options, answeredBy);
  }
  // a run of its own for the new message: the one turn it runs, the rest is context
  const runId = await enqueueOnce(options.runs, {
    workflow: options.workflow,
    runId: `${chat.chatId}-${chat.userMessages.length}`,
    props: { chat: chatInput(chat.chatId, chat.messages, 0, true) },
  });
  // the message's id is the run's: any server process can send it again (reconnect)
  return stream(runId, options.runs, { originalMessages: chat.messages, messageId: runId });
}

/**
 * Queues the message's run, once: of the requests that send one message at once (a page
 * that sent it twice, two servers behind a balancer), the one whose enqueue DBOS stored
 * streams the run, the others are refused before any model call. A run of that id that has
 * ended is the same message sent again: it is streamed again (no model call), as before.
 *
 * @throws {ChatRequestError} `chat-run-busy` (409) while the run is queued or running.
 * @throws {WorkflowError} `dbos-run-exists` for a run of that id made of other messages.
 */
async function enqueueOnce(runs: RunClient, run: RunToEnqueue & { runId: string }) {
  try {
    return await runs.enqueue(run, { onlyNew: true });
  } catch (error) {
    if (!JuneError.isInstance(error) || error.code !== 'dbos-run-exists') throw error;
  }
  const { status } = await runs.get(run.runId);
  if (status === 'queued' || status === 'running') throw chatRunBusy(run.runId);
  return runs.enqueue(run);
}

/**
 * `GET <api>/<chatId>/stream`: the chat's newest run, while it is queued or running, from its
 * start as the message it is (its id the run's), then live; 204 when none is.
 */
async function reconnect(request: Request, runs: RunClient): Promise<Response> {
  const match = /\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
  const chatId = match ? decodeURIComponent(match[1]!) : undefined;
  // the prefix also matches runs of chats whose id starts the same (`c-x` for `c`): skip those
  const newest = chatId
    ? (await runs.list({ idPrefix: `${chatId}-`, limit: 50 })).find((run) =>
        isRunOf(run.runId, chatId),
      )
    : undefined;
  if (!newest || (newest.status !== 'running' && newest.status !== 'queued'))
    return new Response(null, { status: 204 });
  return stream(newest.runId, runs, { messageId: newest.runId });
}

/** Denies what the chat's earlier run still waits for: the user moved on. */
async function supersede(
  runId: string,
  options: DbosChatOptions,
  answeredBy: string,
): Promise<void> {
  const { waiting } = await options.runs.approvals(runId).catch(() => ({ waiting: [] }));
  if (waiting.length === 0) return;
  const reason = options.supersededReason ?? SUPERSEDED_REASON;
  await options.runs
    .approve(runId, { all: true, approved: false, reason, answeredBy, source: 'web' })
    .catch(() => {});
}

function stream(runId: string, runs: RunClient, streamOptions: ToUIMessageStreamOptions) {
  return runUIMessageResponse(
    { log: runs.events(runId) },
    { ...streamOptions, onWaiting: () => {} },
  );
}

/**
 * Reads a `useChat` body for a run in the database: a new user message, or approval
 * answers for the run named in the last assistant message, each for a request that waits.
 * An approval id is the call's key (`<runId>/<request id>`).
 */
async function readDbosChatRequest(
  body: unknown,
  runs: RunClient,
  maxMessages: number,
): Promise<DbosChatRequest> {
  const { chatId, messages } = await chatBody(body, maxMessages);
  const last = messages.at(-1);
  const userMessages = messages.filter((m) => m.role === 'user').map(textOf);
  if (last?.role === 'user') return { chatId, messages, userMessages, answers: [] };
  const runId = runIdOf(messages);
  if (runId === undefined || last === undefined)
    throw invalid('the last message is not a user message and no run is named to continue');
  const { waiting, answered, decisions } = await runs.approvals(runId).catch((error: unknown) => {
    if (JuneError.isInstance(error) && error.code === 'dbos-run-unknown')
      throw new ChatRequestError(
        'chat-run-missing',
        `june: there is no run "${runId}" in the database to continue. Start a new chat.`,
        404,
      );
    throw error;
  });
  checkChatOwns(runId, chatId);
  const answers = [...answersIn(last, body).values()].map((answer) => ({
    ...answer,
    id: answer.id.startsWith(`${runId}/`) ? answer.id.slice(runId.length + 1) : answer.id,
  }));
  if (answers.length === 0)
    throw invalid(`there is nothing to continue run ${runId} with: no approval answer`);
  // the page's copies of answers the run has (given while another request of the turn waited)
  const repeated = repeatedAnswers(
    new Map(answers.map((answer) => [answer.id, answer])),
    new Map(Object.entries(decisions)),
  );
  for (const { id } of answers) {
    if (waiting.some((request) => request.id === id)) continue;
    if (repeated.has(id) && answers.length > repeated.size) continue;
    throw answered.includes(id)
      ? new ChatRequestError(
          'approval-answered',
          `june: the approval request "${id}" of run ${runId} was answered already; an answer counts once.`,
          409,
        )
      : new ChatRequestError(
          'approval-unknown',
          `june: run ${runId} has no approval request "${id}" waiting; answer the requests its stream sent.`,
          409,
        );
  }
  return {
    chatId,
    messages,
    userMessages,
    runId,
    answers: answers.filter((answer) => !repeated.has(answer.id)),
  };
}

/**
 * Refuses a run that is not the chat's: the runs of chat `c` are `c-<n>` (a number), so a
 * chat id never names the run of another chat, even one whose id starts the same.
 *
 * @throws {ChatRequestError} `chat-run-foreign` (403)
 */
function checkChatOwns(runId: string, chatId: string): void {
  if (isRunOf(runId, chatId)) return;
  throw new ChatRequestError(
    'chat-run-foreign',
    `june: run ${runId} is not a run of chat "${chatId}" (its runs are ${chatId}-1, ${chatId}-2, ...); a chat continues only its own runs. Send the request with that run's chat id, or start a new chat.`,
    403,
  );
}

/** True when `runId` is a run of chat `chatId`: `<chatId>-<n>`. */
function isRunOf(runId: string, chatId: string): boolean {
  return runId.startsWith(`${chatId}-`) && /^[1-9][0-9]*$/.test(runId.slice(chatId.length + 1));
}
