import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { checkAnswering } from './answer-request.js';
import type { StudioAccess } from './studio-access.js';
import { StudioRequestError } from './studio-request-error.js';
import { readJsonBody } from './workbench-body.js';
import type { WorkbenchChat } from './workbench-chat.js';
import { startWorkflowRun, type WorkbenchPlaces } from './start-workflow-run.js';
import { tryWorkflowTool } from './try-workflow-tool.js';

/** What the workbench's routes serve from: where runs start, and the chat handlers. */
export interface WorkbenchRoutes {
  places: WorkbenchPlaces;
  chat: WorkbenchChat;
}

/**
 * The workbench's requests that change something: `POST /api/workflows/<id>/runs`,
 * `/tools` and `/chat`. Each is an answering request (same origin and the answer token).
 */
export const WORKBENCH_POST = /^\/api\/workflows\/([^/]+)\/(runs|tools|chat)$/;

/** A chat's reconnect: `GET /api/workflows/<id>/chat/<chatId>/stream`. */
const CHAT_STREAM = /^\/api\/workflows\/([^/]+)\/chat\/[^/]+\/stream$/;

/** True for a path that a workbench route answers (so its method and checks apply). */
export function isWorkbenchPath(path: string): boolean {
  return WORKBENCH_POST.test(path) || CHAT_STREAM.test(path);
}

/**
 * Answers a workbench request once Studio admitted it (its `Host`, and its token where
 * reading needs one). A POST must pass `checkAnswering` before its body is read: a request
 * from another site or without the answer token starts nothing and writes nothing.
 *
 * @throws {StudioRequestError} what `checkAnswering`, `startWorkflowRun`, `tryWorkflowTool`
 *   and the chat throw; `studio-request-invalid` (400) for an id that is not percent-encoding.
 */
export async function answerWorkbench(
  workbench: WorkbenchRoutes | undefined,
  access: StudioAccess,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const post = WORKBENCH_POST.exec(url.pathname);
  const stream = CHAT_STREAM.exec(url.pathname);
  const id = decodeId((post ?? stream)![1]!);
  if (post) checkAnswering(access, request, url);
  if (!workbench)
    throw new StudioRequestError(
      'studio-workflow-unknown',
      `june: this Studio shows runs only; start \`june dev\` to start workflows, try tools and chat.`,
      404,
    );
  if (post?.[2] === 'runs') {
    const body = await readJsonBody(request, 'a start-run request');
    return sendJson(response, 202, await startWorkflowRun(workbench.places, id, body));
  }
  if (post?.[2] === 'tools') {
    const body = await readJsonBody(request, 'a try-tool request');
    const gone = new AbortController();
    response.on('close', () => gone.abort());
    return sendJson(response, 200, await tryWorkflowTool(workbench.places, id, body, gone.signal));
  }
  const answer = await workbench.chat.answer(id, toRequest(request, url));
  return send(answer, response);
}

function decodeId(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: the workflow id ${JSON.stringify(encoded.slice(0, 80))} is not valid percent-encoding; encode it with encodeURIComponent.`,
      400,
    );
  }
}

/** The request as a `fetch` Request, for `june/web`'s chat handler. */
function toRequest(request: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === 'string') headers.set(name, value);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(url.pathname + url.search, 'http://studio.invalid'), {
    method: request.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Readable.toWeb(request) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Sends a `fetch` Response (a UI message stream, or a JSON refusal) on Node's response. */
async function send(answer: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  if (!answer.body) return void response.end();
  const body = Readable.fromWeb(answer.body as never);
  response.on('close', () => body.destroy());
  body.pipe(response);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}
