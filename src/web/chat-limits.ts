import { WorkflowError } from '../errors/june-error.js';
import { ChatRequestError } from './chat-request-error.js';

/**
 * How much one chat request may carry. A request over a limit is refused before anything
 * runs, with 413 and the code `chat-request-too-large`.
 */
export interface ChatLimits {
  /**
   * The largest request body, in bytes. A body announced larger (`Content-Length`) is refused
   * before it is read, and one that grows larger while it is read is refused there, so a
   * handler never holds more than this of a request. @default 1_048_576 (1 MiB)
   */
  maxRequestBytes?: number;
  /** The most messages one request may carry (a chat's whole conversation). @default 1000 */
  maxMessages?: number;
}

/** The limits `chatHandler` applies when given none: 1 MiB and 1,000 messages per request. */
export const DEFAULT_CHAT_LIMITS: Readonly<Required<ChatLimits>> = Object.freeze({
  maxRequestBytes: 1_048_576,
  maxMessages: 1000,
});

/**
 * The limits of a handler: each given one checked, the defaults for the others.
 *
 * @throws {WorkflowError} `chat-handler-option-invalid` when a limit is not a whole number of 1
 *   or more.
 */
export function chatLimits(options: ChatLimits): Required<ChatLimits> {
  const limits = { ...DEFAULT_CHAT_LIMITS };
  for (const name of ['maxRequestBytes', 'maxMessages'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      const shown =
        typeof value === 'number' ? String(value) : (JSON.stringify(value) as string | undefined);
      throw new WorkflowError(
        'chat-handler-option-invalid',
        `june: chatHandler({ ${name}: ${shown ?? typeof value} }) is not a limit: give a whole number of 1 or more (the default is ${DEFAULT_CHAT_LIMITS[name]}).`,
      );
    }
    limits[name] = value;
  }
  return limits;
}

/**
 * Reads a request's body as JSON, never more than `maxRequestBytes` of it.
 *
 * @returns the parsed body, or `undefined` when it is not JSON (the caller says why it is malformed)
 * @throws {ChatRequestError} `chat-request-too-large` (413) for a body over the limit
 */
export async function readLimitedJson(request: Request, maxRequestBytes: number): Promise<unknown> {
  const announced = Number(request.headers.get('content-length') ?? Number.NaN);
  if (announced > maxRequestBytes) throw tooLarge(`${announced} bytes`, maxRequestBytes);
  if (request.body === null) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxRequestBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(`more than ${maxRequestBytes} bytes`, maxRequestBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** A `chat-request-too-large` (413) error for a request that carries more messages than `maxMessages`. */
export function tooManyMessages(count: number, maxMessages: number): ChatRequestError {
  return new ChatRequestError(
    'chat-request-too-large',
    `june: the chat request carries ${count} messages, more than the ${maxMessages} one request may; ` +
      'start a new chat, or raise chatHandler({ maxMessages }).',
    413,
  );
}

function tooLarge(size: string, maxRequestBytes: number): ChatRequestError {
  return new ChatRequestError(
    'chat-request-too-large',
    `june: the chat request's body is ${size}, more than the ${maxRequestBytes} bytes one request may; ` +
      'start a new chat, or raise chatHandler({ maxRequestBytes }).',
    413,
  );
}
