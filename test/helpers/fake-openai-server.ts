// A scripted fake of OpenAI's Responses API (`POST /v1/responses`) on 127.0.0.1, for tests that
// drive `@ai-sdk/openai` (and so `june/sdk/openai`) over real HTTP, fully offline.
//
//   const server = await startFakeOpenAI();
//   process.env.OPENAI_BASE_URL = server.baseURL;
//   server.reply({ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] });
//   server.reply({ text: 'It is 4C in Oslo.', usage: { inputTokens: 20, outputTokens: 6 } });
//   ... run the model ...
//   expect(server.requests[1].body.input).toContainEqual(expect.objectContaining({ type: 'function_call_output' }));
//   await server.close();
//
// Both forms of the API are spoken: a JSON body, and server-sent events when the request body
// has `stream: true` (what `streamText` sends). The event sequence follows OpenAI's
// (response.created, response.in_progress, response.output_item.added,
// response.content_part.added, response.output_text.delta, response.output_text.done,
// response.content_part.done, response.function_call_arguments.delta/.done,
// response.output_item.done, response.completed).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A function call the fake model makes. */
export interface FakeOpenAIToolCall {
  /** The tool's name, as in the request's `tools`. */
  name: string;
  /** The input: an object (sent as JSON) or a raw string (sent as is, e.g. to test bad JSON). */
  arguments: unknown;
  /** The call id the SDK reports as `toolCallId`. @default `call_<n>`, n counting from 1 per server */
  call_id?: string;
}

/** Token counts reported for one reply. Omit `usage` and the response has none. */
export interface FakeOpenAIUsage {
  inputTokens: number;
  outputTokens: number;
  /** @default 0 */
  cachedInputTokens?: number;
  /** @default 0 */
  reasoningTokens?: number;
}

/** One scripted model turn. */
export interface FakeOpenAIReply {
  /**
   * The assistant's text. Streamed as one delta per word (whitespace kept), or one delta per
   * array element when an array is given.
   */
  text?: string | string[];
  /** Function calls, after the text. */
  toolCalls?: FakeOpenAIToolCall[];
  usage?: FakeOpenAIUsage;
  /** `incomplete_details.reason`, e.g. `"max_output_tokens"` (finish reason `length`). */
  incompleteReason?: string;
}

/** A scripted HTTP failure: the body is OpenAI's error shape, `{ error: { message, type, code } }`. */
export interface FakeOpenAIError {
  error: { status: number; message: string; code?: string };
}

/** What a scripted reply may be: a turn, a failure, or a function of the request body returning one. */
export type FakeOpenAIScript =
  | FakeOpenAIReply
  | FakeOpenAIError
  | ((request: FakeOpenAIRequest) => FakeOpenAIReply | FakeOpenAIError);

/** One request the server received (every path, scripted or not). */
export interface FakeOpenAIRequest {
  method: string;
  /** e.g. `/v1/responses` */
  path: string;
  /** The `Authorization` header, e.g. `"Bearer sk-test"`. */
  authorization: string | undefined;
  /** The parsed JSON body (`undefined` when empty or not JSON). */
  body: any;
  /** True when the body asked for server-sent events (`stream: true`). */
  stream: boolean;
}

export interface FakeOpenAIServer {
  /** e.g. `http://127.0.0.1:54321/v1`: the value for `OPENAI_BASE_URL` or `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: FakeOpenAIRequest[];
  /** Queues replies, answered in order, one per `POST /v1/responses`. */
  reply(...replies: FakeOpenAIScript[]): void;
  /** How many queued replies have not been used yet. */
  readonly pendingReplies: number;
  close(): Promise<void>;
}

const CREATED_AT_S = 1_700_000_000;

/** Starts the fake on 127.0.0.1 with a free port. Unscripted requests get HTTP 500. */
export async function startFakeOpenAI(): Promise<FakeOpenAIServer> {
  const queue: FakeOpenAIScript[] = [];
  const requests: FakeOpenAIRequest[] = [];
  let responseCount = 0;
  let callCount = 0;
  const nextCallId = () => `call_${++callCount}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = parseJson(text);
      const path = req.url ?? '';
      const request: FakeOpenAIRequest = {
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        body,
        stream: isRecord(body) && body.stream === true,
      };
      requests.push(request);
      const number = requests.length;

      if (req.method !== 'POST' || path !== '/v1/responses') {
        sendError(
          res,
          404,
          `fake-openai: request #${number} is ${req.method} ${path}; only POST /v1/responses is served`,
          'not_found',
        );
        return;
      }
      const script = queue.shift();
      if (script === undefined) {
        sendError(
          res,
          500,
          `fake-openai: no scripted reply for request #${number} (POST /v1/responses, model ${JSON.stringify(isRecord(body) ? body.model : undefined)}); ` +
            `queue one with server.reply({ text }) or server.reply({ toolCalls })`,
          'unscripted_request',
        );
        return;
      }
      const reply = typeof script === 'function' ? script(request) : script;
      if ('error' in reply) {
        sendError(
          res,
          reply.error.status,
          reply.error.message,
          reply.error.code ?? 'scripted_error',
        );
        return;
      }
      const built = buildResponse(
        reply,
        `resp_${++responseCount}`,
        String(isRecord(body) ? body.model : ''),
        nextCallId,
      );
      if (request.stream) sendEvents(res, built);
      else sendJson(res, 200, built.response);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    get pendingReplies() {
      return queue.length;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type OutputItem =
  | {
      type: 'message';
      id: string;
      status: 'completed';
      role: 'assistant';
      content: Array<{ type: 'output_text'; text: string; annotations: [] }>;
    }
  | {
      type: 'function_call';
      id: string;
      status: 'completed';
      call_id: string;
      name: string;
      arguments: string;
    };

interface Response {
  id: string;
  object: 'response';
  created_at: number;
  model: string;
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: string } | null;
  error: null;
  output: OutputItem[];
  usage?: Record<string, unknown>;
}

/** A response in wire form, plus the text deltas to stream for each message item (by item id). */
interface Built {
  response: Response;
  deltas: Map<string, string[]>;
}

function buildResponse(
  reply: FakeOpenAIReply,
  id: string,
  model: string,
  nextCallId: () => string,
): Built {
  const output: OutputItem[] = [];
  const deltas = new Map<string, string[]>();
  if (reply.text !== undefined) {
    const parts = Array.isArray(reply.text) ? reply.text : reply.text.split(/(?<=\s)(?=\S)/);
    const itemId = `msg_${id}_${output.length}`;
    deltas.set(itemId, parts);
    output.push({
      type: 'message',
      id: itemId,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: parts.join(''), annotations: [] }],
    });
  }
  for (const call of reply.toolCalls ?? []) {
    output.push({
      type: 'function_call',
      id: `fc_${id}_${output.length}`,
      status: 'completed',
      call_id: call.call_id ?? nextCallId(),
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    });
  }
  const usage = reply.usage;
  const response: Response = {
    id,
    object: 'response',
    created_at: CREATED_AT_S,
    model,
    status: reply.incompleteReason === undefined ? 'completed' : 'incomplete',
    incomplete_details:
      reply.incompleteReason === undefined ? null : { reason: reply.incompleteReason },
    error: null,
    output,
    ...(usage && {
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
        output_tokens: usage.outputTokens,
        output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    }),
  };
  return { response, deltas };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function sendError(res: http.ServerResponse, status: number, message: string, code: string) {
  // `retry-after-ms: 0` lets the AI SDK's retries (on 408, 409, 429, 5xx) run at once instead of
  // after 2 s and 4 s; tests that do not want retries pass `maxRetries: 0`.
  res.setHeader('retry-after-ms', '0');
  sendJson(res, status, { error: { message, type: 'fake_openai_error', param: null, code } });
}

function sendEvents(res: http.ServerResponse, { response, deltas }: Built) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>) => {
    res.write(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`,
    );
  };
  const { output, usage: _usage, ...head } = response;
  const pending = { ...head, status: 'in_progress', incomplete_details: null, output: [] };
  send('response.created', { response: pending });
  send('response.in_progress', { response: pending });

  output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'message') {
      const text = item.content[0]?.text ?? '';
      const part = { type: 'output_text', annotations: [] };
      send('response.output_item.added', {
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      send('response.content_part.added', {
        item_id,
        output_index,
        content_index: 0,
        part: { ...part, text: '' },
      });
      for (const delta of deltas.get(item_id) ?? [text]) {
        send('response.output_text.delta', {
          item_id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      }
      send('response.output_text.done', {
        item_id,
        output_index,
        content_index: 0,
        text,
        logprobs: [],
      });
      send('response.content_part.done', {
        item_id,
        output_index,
        content_index: 0,
        part: { ...part, text },
      });
    } else {
      send('response.output_item.added', {
        output_index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      send('response.function_call_arguments.delta', {
        item_id,
        output_index,
        delta: item.arguments,
      });
      send('response.function_call_arguments.done', {
        item_id,
        output_index,
        arguments: item.arguments,
      });
    }
    send('response.output_item.done', { output_index, item });
  });

  send(response.status === 'completed' ? 'response.completed' : 'response.incomplete', {
    response,
  });
  res.end();
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null;
}
