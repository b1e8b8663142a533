import type { UIMessage } from 'ai';
import { JuneError, SystemError } from '../errors/june-error.js';
import type { RunHost } from '../host/run-host.js';
import { runState } from '../host/run-state.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import { approvalsInTrace } from '../host/waiting-approvals.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { chatInput } from './chat-input.js';
import { DEFAULT_CHAT_LIMITS, readLimitedJson, type ChatLimits } from './chat-limits.js';
import {
  answersIn,
  chatBody,
  checkAnswers,
  invalid,
  runIdOf,
  textOf,
  type ChatApprovalAnswer,
} from './chat-request.js';
import { ChatRequestError } from './chat-request-error.js';
import { chatRunBusy } from './chat-run-busy.js';
import { runUIMessageResponse, type ToUIMessageStreamOptions } from './to-ui-message-stream.js';

/** The default reason a waiting call is denied with when a new user message comes instead. */
export const SUPERSEDED_REASON = 'The user sent a new message instead of answering.';

/**
 * Options of {@link hostChatHandler} (`chatHandler({ host, workflow })`): the chat's runs
 * live on a run host that follows their events (`localRunHost`, `memoryRunHost`, a
 * database's host); the runs folder of other processes (`folderRunHost`) keeps traces, not
 * events, and cannot stream a chat.
 */
export interface HostChatOptions {
  /** Where the chat's runs live (`openRunHost`, `localRunHost`, ...); awaited on the first request when a promise. */
  host: RunHost | Promise<RunHost>;
  /** The workflow's name on the host: what `host.start` takes (`shop` for `shop.tsx` on a database). */
  workflow: string;
  /** Why a call waiting for approval is denied when a new user message comes instead. */
  supersededReason?: string;
  /** Who answers approvals, from the request (recorded as `answeredBy`). @default `chat <chatId>` */
  answeredBy?: (request: Request) => string | undefined;
  /** The chat's thread (see {@link ChatThreadOption}). @default none: the page sends the conversation */
  thread?: ChatThreadOption;
}

/**
 * Which chats keep their conversation on the server, as a thread (`run(el, { thread })`):
 * `true`, every chat, its thread id the chat id; a function, the thread of a chat (from its
 * id and the request, e.g. the signed-in user's), or `undefined` for a chat without one.
 * A chat with a thread needs only its new message from the page: the workflow's agent starts
 * from the thread's conversation (its `chat.history` is empty: the page's earlier messages
 * are not read), and a reloaded page, with the same chat id, goes on with it.
 */
export type ChatThreadOption = boolean | ((chatId: string, request: Request) => string | undefined);

/** What a chat request asks of a run on the host, checked. */
interface HostChatRequest {
  chatId: string;
  messages: UIMessage[];
  userMessages: string[];
  /** The run an approval answer goes on (absent: a new user message starts a run). */
  runId?: string;
  /**
   * Answers by the call's key (`<runId>/<call>`, the approval id the page has), each with
   * the id of its request where the run waits now (its events' `approval-response` id).
   */
  answers: Array<ChatApprovalAnswer & { requestId?: string }>;
}

/**
 * The stateless round trip with runs on a host: a new user message starts a run of the
 * workflow (its `chat` prop: the new message as its one turn, the conversation before it as
 * `history`); approval answers go to the run by its id, through the host, to wherever it
 * runs; each response streams the run's events as the host follows them, and ends when the
 * run ends or waits for answers (it waits where it runs). A new user message denies the
 * calls still waiting in the chat's run. A reconnect (`GET <api>/<chatId>/stream`) sends the
 * chat's running run again. A chat's runs are `<chatId>-<n>`: a request naming a run of
 * another chat is refused (403, `chat-run-foreign`). A message's run starts once: of the
 * requests that send one message at once, the one whose start the host took streams it,
 * the others get 409 `chat-run-busy`.
 */
export function hostChatHandler(
  options: HostChatOptions,
  limits: Required<ChatLimits> = DEFAULT_CHAT_LIMITS,
) {
  return async (request: Request): Promise<Response> => {
    try {
      return await answerChat(request, options, limits);
    } catch (error) {
      // a run another process holds (a journal store's lease) is busy, as for a second request here
      if (JuneError.isInstance(error) && error.code === 'studio-run-owned')
        throw chatRunBusy(runIdIn(error.message), error.message);
      throw error;
    }
  };
}

/** The run a `studio-run-owned` message names. */
function runIdIn(message: string): string {
  return /run (\S+) is busy/.exec(message)?.[1] ?? 'of this chat';
}

async function answerChat(
  request: Request,
  options: HostChatOptions,
  limits: Required<ChatLimits>,
): Promise<Response> {
  const host = await options.host;
  if (request.method === 'GET' && /\/messages$/.test(new URL(request.url).pathname))
    return threadMessages(request, host, options.thread);
  if (request.method === 'GET') return reconnect(request, host);
  const body = await readLimitedJson(request, limits.maxRequestBytes);
  const chat = await readHostChatRequest(body, host, limits.maxMessages);
  const answeredBy = options.answeredBy?.(request) ?? `chat ${chat.chatId}`;
  if (chat.runId === undefined) {
    const thread = threadOf(options.thread, chat.chatId, request);
    if (thread !== undefined) return startThreadRun(chat, thread, { ...options, host }, answeredBy);
    return startRun(chat, { ...options, host }, answeredBy);
  }
  let resume = false;
  for (const { id, approved, reason, input, output } of chat.answers) {
    const outcome = await answerOrRefuse(host, chat.runId, {
      key: id,
      approved,
      ...(reason ? { reason } : {}),
      ...(input !== undefined ? { input } : {}),
      ...(output !== undefined ? { output } : {}),
      answeredBy,
      source: 'web',
    });
    resume ||= outcome.delivered === 'recorded';
  }
  // a run whose process stopped (a restarted server) goes on where the host runs it: what
  // it replays from its journal is held back, its answers read now are new
  if (resume) await host.resume(chat.runId);
  const keys = chat.answers.map((answer) => answer.id);
  const ids = chat.answers.flatMap((answer) => (answer.requestId ? [answer.requestId] : []));
  return stream(chat.runId, host, {
    originalMessages: chat.messages,
    resumed: resume ? {} : { answeredNow: ids },
    willAnswer: (asked) => keys.includes(asked.key ?? '') || ids.includes(asked.id),
  });
}

/**
 * `host.answer`, told as the page's fault when refused: a call that no longer waits (another
 * request answered it first) as 409 `approval-answered`, an edit or an answer the tool's
 * schemas refuse as 409 with the host's `june:` message (the request still waits).
 */
async function answerOrRefuse(
  host: RunHost,
  runId: string,
  answer: Parameters<RunHost['answer']>[1],
): ReturnType<RunHost['answer']> {
  try {
    return await host.answer(runId, answer);
  } catch (error) {
    if (!JuneError.isInstance(error)) throw error;
    if (error.code === 'studio-approval-unknown')
      throw new ChatRequestError('approval-answered', error.message, 409);
    if (
      error.code === 'studio-approval-invalid' ||
      error.code === 'studio-request-invalid' ||
      REFUSED_EDITS.has(error.code)
    )
      throw new ChatRequestError(refusedCode(error), error.message, 409);
    throw error;
  }
}

type RefusedEdit = 'approval-input-invalid' | 'approval-output-invalid' | 'approval-answer-invalid';

const REFUSED_EDITS: ReadonlySet<string> = new Set<RefusedEdit>([
  'approval-input-invalid',
  'approval-output-invalid',
  'approval-answer-invalid',
]);

/** The code a refused edit is told with: the run's own (kept by the host's refusal), else `approval-answer-invalid`. */
function refusedCode(error: JuneError): RefusedEdit {
  const code = error instanceof StudioRequestError ? error.refusal : error.code;
  if (code === 'approval-input-invalid' || code === 'approval-output-invalid') return code;
  return 'approval-answer-invalid';
}

async function startRun(
  chat: HostChatRequest,
  options: HostChatOptions & { host: RunHost },
  answeredBy: string,
): Promise<Response> {
  const previous = runIdOf(chat.messages.slice(0, -1));
  if (previous !== undefined) {
    checkChatOwns(previous, chat.chatId);
    await supersede(previous, options, answeredBy);
  }
  // a run of its own for the new message: the one turn it runs, the rest is context
  const runId = await startOnce(options.host, {
    workflow: options.workflow,
    runId: `${chat.chatId}-${chat.userMessages.length}`,
    props: { chat: chatInput(chat.chatId, chat.messages, 0, true) },
  });
  // the message's id is the run's: any server process can send it again (reconnect)
  return stream(runId, options.host, { originalMessages: chat.messages, messageId: runId });
}

/** The thread of a chat, if it has one. */
function threadOf(
  option: ChatThreadOption | undefined,
  chatId: string,
  request: Request,
): string | undefined {
  if (option === true) return chatId;
  if (typeof option === 'function') return option(chatId, request);
  return undefined;
}

/**
 * A new message of a chat with a thread: the thread's newest run (of this chat) is
 * superseded as a page's would be, and the message's run, `<chatId>-<n>` where `n` is its
 * order in the thread, starts from the thread's conversation with the message as its one
 * turn (the page's earlier messages are not read).
 */
async function startThreadRun(
  chat: HostChatRequest,
  thread: string,
  options: HostChatOptions & { host: RunHost },
  answeredBy: string,
): Promise<Response> {
  const { host } = options;
  if (!host.threadRuns)
    throw new SystemError(
      'run-host-unsupported',
      `june: the chat's host (${host.label}) keeps no threads: give chatHandler a journal (its journal form), or a host over a runs folder or a database, for thread.`,
    );
  const runId = await inTurn(host, thread, async (started) => {
    const runs = await host.threadRuns!(thread);
    const previous = runs.at(-1)?.runId;
    if (previous !== undefined && isRunOf(previous, chat.chatId))
      await supersede(previous, options, answeredBy);
    // the run this process started last may not be listed yet: its order is taken too
    const order = Math.max(started, ...runs.map((run) => run.order)) + 1;
    const input = chatInput(chat.chatId, chat.messages, 0, true);
    const id = await startOnce(host, {
      workflow: options.workflow,
      runId: `${chat.chatId}-${order}`,
      props: { chat: { ...input, history: [] } },
      thread,
    }).catch((error: unknown) => {
      if (JuneError.isInstance(error) && error.code === 'thread-busy')
        throw new ChatRequestError('chat-run-busy', error.message, 409);
      throw error;
    });
    return { runId: id, order };
  });
  return stream(runId, host, { originalMessages: chat.messages, messageId: runId });
}

/** Per host, each thread's starts in this process, one at a time, and the order started last. */
const threadTurns = new WeakMap<RunHost, Map<string, { last: Promise<unknown>; order: number }>>();

/**
 * Runs `start` when the thread's earlier starts in this process are done, with the order
 * this process gave last (0 for none): two messages of one thread at once never compute one
 * run id, and the second is refused (`thread-busy`) while the first's run holds the thread.
 */
async function inTurn(
  host: RunHost,
  thread: string,
  start: (started: number) => Promise<{ runId: string; order: number }>,
): Promise<string> {
  let turns = threadTurns.get(host);
  if (!turns) threadTurns.set(host, (turns = new Map()));
  const turn = turns.get(thread) ?? { last: Promise.resolve(), order: 0 };
  turns.set(thread, turn);
  const mine = turn.last
    .catch(() => {})
    .then(async () => {
      const { runId, order } = await start(turn.order);
      turn.order = Math.max(turn.order, order);
      return runId;
    });
  turn.last = mine;
  return mine;
}

/**
 * Starts the message's run, once: of the requests that send one message at once (a page
 * that sent it twice, two servers behind a balancer), the one whose start the host took
 * streams the run, the others are refused before any model call. A run of that id that has
 * ended is the same message sent again: it is streamed again (no model call).
 *
 * @throws {ChatRequestError} `chat-run-busy` (409) while the run is running or waiting.
 */
async function startOnce(
  host: RunHost,
  run: Parameters<RunHost['start']>[0] & { runId: string },
): Promise<string> {
  try {
    return await host.start(run);
  } catch (error) {
    if (!JuneError.isInstance(error) || error.code !== 'studio-run-exists') throw error;
  }
  const trace = await traceOf(host, run.runId);
  const state = trace ? runState(trace) : 'running';
  if (state === 'running' || state === 'waiting') throw chatRunBusy(run.runId);
  return run.runId;
}

/**
 * `GET <api>/<chatId>/stream`: the chat's newest run, while it runs or waits, from its start
 * as the message it is (its id the run's), then live; 204 when none does.
 */
async function reconnect(request: Request, host: RunHost): Promise<Response> {
  const match = /\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
  const chatId = match ? decodeURIComponent(match[1]!) : undefined;
  // the list is newest first; the prefix also matches runs of chats whose id starts the same
  const newest = chatId ? (await host.list()).find((run) => isRunOf(run.runId, chatId)) : undefined;
  if (
    !newest ||
    !('status' in newest) ||
    (newest.status !== 'running' && newest.status !== 'waiting')
  )
    return new Response(null, { status: 204 });
  return stream(newest.runId, host, { messageId: newest.runId });
}

/** Denies what the chat's earlier run still waits for: the user moved on. */
async function supersede(
  runId: string,
  options: HostChatOptions & { host: RunHost },
  answeredBy: string,
): Promise<void> {
  const { host } = options;
  const { waiting } = await host.decisions(runId).catch(() => ({ waiting: [] }));
  const reason = options.supersededReason ?? SUPERSEDED_REASON;
  for (const call of waiting)
    await host
      .answer(runId, { key: call.key, approved: false, reason, answeredBy, source: 'web' })
      .catch(() => {});
  if (waiting.length > 0) await moveOn(host, runId, new Set(waiting.map((call) => call.key)));
}

/**
 * Resolves once the run went on past the calls `denied` (none of them waits) and stopped
 * again: it ended, or waits for another decision. A chat's runs never overlap: the next
 * message's run starts after the model read the denials.
 */
function moveOn(host: RunHost, runId: string, denied: ReadonlySet<string>): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    const check = async () => {
      const trace = await traceOf(host, runId).catch(() => undefined);
      const state = trace ? runState(trace) : 'succeeded';
      if (done || state === 'running') return;
      const stillWaiting = trace
        ? approvalsInTrace(trace).some(
            (approval) => approval.status === 'pending' && denied.has(approval.key ?? ''),
          )
        : false;
      if (stillWaiting) return;
      done = true;
      stop();
      resolve();
    };
    const stop = host.subscribe((event) => {
      if (event.type === 'run' && event.run.runId === runId) void check();
    });
    void check();
  });
}

/**
 * The run's events from its start as the page's message, ending where the run waits now: a
 * wait the events show that was answered since (a reconnect to a run that went on) is passed.
 */
function stream(runId: string, host: RunHost, streamOptions: ToUIMessageStreamOptions) {
  return runUIMessageResponse(
    { log: host.events(runId) },
    {
      ...streamOptions,
      onWaiting: () => {},
      // a response that ended with its run ends once the run let go of its lease: the page's
      // next request (the same answer again, a new message) never finds it busy
      runSettled: () => host.result(runId).catch(() => undefined),
      stillWaiting: async (requestIds) => {
        const { waiting } = await host.decisions(runId).catch(() => ({ waiting: [] }));
        return waiting.some((call) => requestIds.includes(call.requestId));
      },
    },
  );
}

/** The run's trace as the host reads it; undefined for a run it does not have. */
async function traceOf(host: RunHost, runId: string): Promise<Trace | undefined> {
  const found = await host.readTrace(runId);
  return 'text' in found ? (JSON.parse(found.text) as Trace) : undefined;
}

/** The calls of a trace answered already, by key, with whether they were approved. */
function answeredIn(trace: Trace | undefined): Map<string, boolean> {
  const answered = new Map<string, boolean>();
  const stack: TraceNode[] = trace ? [trace.root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const approval = node.approval;
    if (
      approval?.key !== undefined &&
      approval.status !== 'pending' &&
      approval.status !== 'withdrawn'
    )
      answered.set(approval.key, approval.status === 'approved');
    stack.push(...node.children);
  }
  return answered;
}

/**
 * Reads a `useChat` body for a run on the host: a new user message, or approval answers for
 * the run named in the last assistant message, each for a call that waits. An approval id
 * is the call's key (`<runId>/<call>`).
 */
async function readHostChatRequest(
  body: unknown,
  host: RunHost,
  maxMessages: number,
): Promise<HostChatRequest> {
  const { chatId, messages } = await chatBody(body, maxMessages);
  const last = messages.at(-1);
  const userMessages = messages.filter((m) => m.role === 'user').map(textOf);
  if (last?.role === 'user') return { chatId, messages, userMessages, answers: [] };
  const runId = runIdOf(messages);
  if (runId === undefined || last === undefined)
    throw invalid('the last message is not a user message and no run is named to continue');
  const { waiting } = await host.decisions(runId).catch((error: unknown) => {
    if (JuneError.isInstance(error) && error.code === 'studio-run-missing')
      throw new ChatRequestError(
        'chat-run-missing',
        `june: there is no run "${runId}" to continue. Start a new chat.`,
        404,
      );
    throw error;
  });
  checkChatOwns(runId, chatId);
  const answers = [...answersIn(last, body).values()];
  if (answers.length === 0)
    throw invalid(`there is nothing to continue run ${runId} with: no approval answer`);
  // the page's copies of answers the run has (given while another request of the turn
  // waited) go with the new ones; an answer to a call that does not wait is refused
  const repeated = checkAnswers(
    new Map(answers.map((answer) => [answer.id, answer])),
    new Set(waiting.map((call) => call.key)),
    answeredIn(await traceOf(host, runId)),
    runId,
  );
  return {
    chatId,
    messages,
    userMessages,
    runId,
    answers: answers
      .filter((answer) => !repeated.has(answer.id))
      .map((answer) => {
        const requestId = waiting.find((call) => call.key === answer.id)?.requestId;
        return requestId !== undefined ? { ...answer, requestId } : answer;
      }),
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

/**
 * `GET <api>/<chatId>/messages`: the conversation of the chat's thread, as the thread's next
 * run starts from it, as UI messages (`{ messages }`: the users' and the assistant's texts,
 * in order), for a page that kept nothing to show after a reload. 404 `chat-run-missing`
 * for a chat with no thread.
 */
async function threadMessages(
  request: Request,
  host: RunHost,
  option: ChatThreadOption | undefined,
): Promise<Response> {
  const match = /\/([^/]+)\/messages$/.exec(new URL(request.url).pathname);
  const chatId = match ? decodeURIComponent(match[1]!) : '';
  const thread = chatId ? threadOf(option, chatId, request) : undefined;
  if (thread === undefined || !host.threadMessages)
    throw new ChatRequestError(
      'chat-run-missing',
      `june: chat "${chatId}" keeps no thread on the server; its page holds its conversation.`,
      404,
    );
  const messages: UIMessage[] = [];
  for (const message of await host.threadMessages(thread)) {
    const { role, content } = message as { role?: string; content?: unknown };
    if (role !== 'user' && role !== 'assistant') continue;
    const text = textOfContent(content);
    if (text === '') continue;
    messages.push({
      id: `${chatId}-m${messages.length + 1}`,
      role,
      parts: [{ type: 'text', text }],
    });
  }
  return Response.json({ messages });
}

/** The text of a model message's content: a string, or its text parts joined. */
function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: { type?: string; text?: unknown }) =>
      part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
    )
    .join('');
}
