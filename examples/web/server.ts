// The example's server: node:http, the page built by vite, and June's chat handler at
// /api/chat. Offline on a scripted model unless OPENAI_API_KEY or OPENAI_BASE_URL is set.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { LanguageModel } from 'ai';
import { memoryJournalStore, type JournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler } from 'june/web';
import { shopWorkflow } from './shop.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export interface ExampleServer {
  url: string;
  /** The orders refunded so far. */
  refunds: string[];
  close(): Promise<void>;
}

/** Starts the example on 127.0.0.1 (`port` 0: any free port). */
export async function startServer(
  options: { port?: number; model?: LanguageModel; journal?: JournalStore; thread?: boolean } = {},
): Promise<ExampleServer> {
  const refunds: string[] = [];
  const model = options.model ?? (await exampleModel());
  const handler = chatHandler({
    workflow: shopWorkflow(model, refunds),
    journal: options.journal ?? memoryJournalStore(),
    // each chat a thread: its page (opened with ?thread) sends only its new message
    thread: options.thread ?? process.env.JUNE_THREAD === '1',
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = url.pathname.startsWith('/api/chat')
      ? handler(toRequest(req, url)).then((response) => send(response, res))
      : serveFile(url.pathname, res);
    answer.catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    refunds,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function exampleModel(): Promise<LanguageModel> {
  if (process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL)
    return (await import('june/sdk/openai')).openai('gpt-5-mini');
  return scriptedModel(here('./shop.script.json'));
}

function toRequest(req: IncomingMessage, url: URL): Request {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method ?? 'GET',
    headers: req.headers as Record<string, string>,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  Readable.fromWeb(response.body as never).pipe(res);
}

async function serveFile(path: string, res: ServerResponse): Promise<void> {
  const name = path === '/' ? 'index.html' : path.slice(1);
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(name) || name.includes('..')) {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(here(`./dist/${name}`));
    const type = name.endsWith('.js')
      ? 'text/javascript'
      : name.endsWith('.css')
        ? 'text/css'
        : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(body);
  } catch {
    res.writeHead(404).end('not found; build the page first: npm run example:web');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await startServer({ port: Number(process.env.PORT ?? 3000) });
  console.log(`June web example: ${url}`);
}
