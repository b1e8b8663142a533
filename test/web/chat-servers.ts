// Chat servers in processes of their own (fixtures/chat-server.mjs over the built package) and
// what the first-message tests send them: real HTTP on 127.0.0.1, as a browser's useChat does.
// The workflow (fixtures/chat-once.tsx) logs each model call to a file and holds its answer
// until a gate file exists, so every request is in before the first run could end.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, tempProject } from '../cli/cli-harness.js';
import { waitFor } from '../dbos/support.js';
import { userMessage } from './support.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const serverScript = fileURLToPath(new URL('./fixtures/chat-server.mjs', import.meta.url));
const workflowSource = readFileSync(new URL('./fixtures/chat-once.tsx', import.meta.url), 'utf8');

/** A project holding `chat-once.tsx`, with the model's call log and gate beside it. */
export function chatOnceProject() {
  const project = tempProject();
  project.write('chat-once.tsx', workflowSource);
  const calls = join(project.dir, 'calls.log');
  const gate = join(project.dir, 'gate');
  writeFileSync(calls, '');
  return {
    ...project,
    /** What the workflow's model reads from its environment. */
    env: { CHAT_CALLS: calls, CHAT_GATE: gate },
    /** The model calls made so far, one line each (`<pid> <prompt>`). */
    calls: () => readFileSync(calls, 'utf8').split('\n').filter(Boolean),
    /** Lets every model call answer. */
    open: () => writeFileSync(gate, ''),
  };
}

/** A chat server process: `url` is its origin (`http://127.0.0.1:<port>`). */
export interface ChatServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts fixtures/chat-server.mjs in `cwd` with `env`, serving `workflow` (a file in `cwd`),
 * and waits until it listens.
 */
export async function startChatServer(
  cwd: string,
  env: Record<string, string>,
  workflow = 'chat-once.tsx',
): Promise<ChatServer> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first.`);
  const child = spawn(process.execPath, [serverScript, workflow], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let ended = false;
  void exited.then(() => (ended = true));
  await waitFor(() => ended || /listening \d+/.test(stdout), 60_000, 'the chat server');
  const port = /listening (\d+)/.exec(stdout)?.[1];
  if (!port) throw new Error(`the chat server ended: ${stderr}`);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (!ended) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The body of chat `chatId`'s first message, as useChat sends it. */
export function firstMessage(chatId: string) {
  return { id: chatId, messages: [userMessage('u1', 'Hello')] };
}

/** POSTs `body` to a server's chat endpoint (`/api/chat`). */
export function postChat(server: ChatServer, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** POSTs `body` `times` times at once, spread over `servers` in turn. */
export function postAtOnce(servers: ChatServer[], body: unknown, times: number) {
  return Promise.all(
    Array.from({ length: times }, (_, i) => postChat(servers[i % servers.length]!, body)),
  );
}

/** The `{ error: { code, message } }` bodies of the refused responses (those not 200). */
export async function refusals(responses: Response[]) {
  const refused = responses.filter((response) => response.status !== 200);
  return Promise.all(
    refused.map(async (response) => ({
      status: response.status,
      ...((await response.json()) as { error: { code: string; message: string } }).error,
    })),
  );
}

/** The folder of examples/web's built page (chat-server.mjs serves it with `CHAT_PAGE`). */
export const examplePage = here('../../examples/web/dist');

/**
 * Builds examples/web's page (vite) unless its build is newer than its sources (the page,
 * and June's web code it bundles).
 */
export async function buildExamplePage(): Promise<void> {
  const built = join(examplePage, 'index.html');
  const sources = [
    here('../../examples/web/page.jsx'),
    ...readdirSync(here('../../src/web')).map((name) => here(`../../src/web/${name}`)),
  ];
  const newest = Math.max(...sources.map((source) => statSync(source).mtimeMs));
  if (existsSync(built) && statSync(built).mtimeMs > newest) return;
  const { build } = await import('vite');
  await build({ configFile: here('../../examples/web/vite.config.ts'), logLevel: 'error' });
}
