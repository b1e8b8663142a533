import { statSync } from 'node:fs';
import { createMCPClient, ElicitationRequestSchema, type MCPClient } from '@ai-sdk/mcp';
import type { ToolSet } from 'ai';
import { RunAbortedError, SystemError, WorkflowError } from '../errors/june-error.js';
import { defineToolSource, type ToolSourceComponent } from '../resources/define-tool-source.js';
import type { ToolSourceConnection } from '../capabilities/declaration.js';
import {
  configuredSecrets,
  registerEnvSecrets,
  registerHeaderSecrets,
  registerUrlSecrets,
} from '../redaction/configured-secrets.js';
import { CallElicitation } from './call-elicitation.js';
import { failedCallsThrown } from './tool-error-results.js';
import { McpHttpSession, type OpenMcpClient } from './http-session.js';
import { StdioServerTransport } from './stdio-server-transport.js';
import { errorMessage } from '../errors/error-message.js';

/** An MCP server started as a child process and spoken to over stdio. */
export interface MCPStdioServerOptions {
  /** The name in errors and provenance: `"Filesystem"` shows as `<Filesystem>`. */
  name: string;
  /** The program to start, e.g. `"npx"` or `process.execPath`. */
  command: string;
  /** Its arguments, e.g. `['-y', '@modelcontextprotocol/server-everything', 'stdio']`. @default [] */
  args?: string[];
  /**
   * Variables for the server process, on top of HOME, LOGNAME, PATH, SHELL, TERM and USER
   * (the only ones it inherits). Never written to a trace.
   */
  env?: Record<string, string>;
  /** The server's working directory. Never written to a trace. @default the current directory */
  cwd?: string;
  /** Where the server's stderr goes: `"inherit"` shows it in your terminal. @default "ignore" */
  stderr?: 'ignore' | 'inherit';
  /** Milliseconds to wait for the server to start and answer `initialize`. @default 30000 */
  timeoutMs?: number;
}

/** An MCP server reached over HTTP (Streamable HTTP, or the older SSE transport). */
export interface MCPHttpServerOptions {
  /** The name in errors and provenance: `"Docs"` shows as `<Docs>`. */
  name: string;
  /** The server's endpoint, `http:` or `https:`, e.g. `"https://example.com/mcp"`. */
  url: string;
  /** Headers sent with every request (e.g. `Authorization`). Never written to a trace. */
  headers?: Record<string, string>;
  /** `"http"` for Streamable HTTP, `"sse"` for the older HTTP+SSE transport. @default "http" */
  transport?: 'http' | 'sse';
  /** Milliseconds to wait for the `initialize` answer. @default 30000 */
  timeoutMs?: number;
}

/**
 * Which of a server's tools an agent gets, and under which names (as for any tool source):
 * `pick` keeps only the named tools, `rename` gives some a new name. A tool name MCP allows
 * but a model cannot call (`files.read`) becomes `files_read` unless renamed; calls still
 * use the server's own name.
 */
export interface MCPToolSelection {
  /** Only these tools, by the server's names. @default every tool */
  pick?: readonly string[];
  /** The server's name to the name the model sees (`{ "files.read": "read_file" }`). @default no renames */
  rename?: Readonly<Record<string, string>>;
}

/** Options of {@link defineMCPServer}: a `command` to start (stdio) or a `url` to reach (HTTP), and which tools to take. */
export type MCPServerOptions = (MCPStdioServerOptions | MCPHttpServerOptions) & MCPToolSelection;

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Defines an MCP server as a capability: its tools become ordinary tools of every agent that
 * declares it (namespaces, approvals, grants and collisions apply as to any tool). One run
 * starts the server (or opens the connection) once, however many agents declare it, and
 * closes it when the run ends, however it ends: a stdio server's whole process group is
 * ended and waited for. `env`, `cwd` and `headers` are never written to a trace.
 * Built on {@link defineToolSource} with `@ai-sdk/mcp`.
 *
 * @throws {WorkflowError} `mcp-server-invalid` when there is not exactly one of `command` and
 *   `url`, the url is not http(s), or `timeoutMs` is not a positive number.
 * @throws {SystemError} (when a run connects) `mcp-connect-failed` when the server cannot be
 *   started or reached, or does not answer within `timeoutMs`, naming the server.
 * @example
 * ```tsx
 * const Filesystem = defineMCPServer({
 *   name: 'Filesystem',
 *   command: 'npx',
 *   args: ['@modelcontextprotocol/server-filesystem', './notes'],
 * });
 * const Docs = defineMCPServer({ name: 'Docs', url: 'https://docs.example.com/mcp', headers: { Authorization: `Bearer ${token}` } });
 * // <Agent model={model}><Namespace name="fs"><Filesystem /></Namespace><Docs /> ...</Agent>
 * ```
 */
export function defineMCPServer(options: MCPServerOptions): ToolSourceComponent {
  const label = `defineMCPServer({ name: ${JSON.stringify(options?.name)} })`;
  const hasCommand = typeof (options as Partial<MCPStdioServerOptions>)?.command === 'string';
  const hasUrl = typeof (options as Partial<MCPHttpServerOptions>)?.url === 'string';
  if (hasCommand === hasUrl) {
    throw new WorkflowError(
      'mcp-server-invalid',
      `june: ${label} needs ${hasCommand ? 'either' : 'one of'} a command (a server started over stdio) or a url (a server reached over HTTP)${hasCommand ? ', not both' : ''}.`,
    );
  }
  if (hasUrl) checkUrl((options as MCPHttpServerOptions).url, label);
  registerSecrets(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new WorkflowError(
      'mcp-server-invalid',
      `june: ${label} has timeoutMs ${String(options.timeoutMs)}; use a number of milliseconds above 0 (default ${DEFAULT_TIMEOUT_MS}).`,
    );
  }
  return defineToolSource({
    name: options.name,
    connect: ({ signal }) => connectServer(options, timeoutMs, signal),
    ...(options.pick !== undefined ? { pick: options.pick } : {}),
    ...(options.rename !== undefined ? { rename: options.rename } : {}),
  });
}

async function connectServer(
  options: MCPServerOptions,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ToolSourceConnection> {
  // the server's elicitations are asked in the run, under the call they came up in
  const elicitation = new CallElicitation();
  const opened = await openClient(options, timeoutMs, signal, elicitation);
  if ('command' in options)
    return {
      tools: failedCallsThrown(elicitation.tools(opened.tools), `the MCP server <${options.name}>`),
      close: () => opened.client.close(),
    };
  // over HTTP, a session the server forgot is opened anew
  const server = `the MCP server <${options.name}> at ${shownUrl(options.url)}`;
  const session = new McpHttpSession(
    opened,
    () => openClient(options, timeoutMs, signal, elicitation),
    server,
  );
  return {
    tools: failedCallsThrown(elicitation.tools(session.tools()), server),
    close: () => session.close(),
  };
}

/**
 * Starts (stdio) or reaches (HTTP) the server, initializes a client and lists its tools.
 * @throws {SystemError} `mcp-connect-failed`; {@link RunAbortedError} when `signal` aborts.
 */
async function openClient(
  options: MCPServerOptions,
  timeoutMs: number,
  signal: AbortSignal,
  elicitation: CallElicitation,
): Promise<OpenMcpClient> {
  const stdio =
    'command' in options
      ? new StdioServerTransport({
          command: options.command,
          args: options.args ?? [],
          env: options.env,
          cwd: options.cwd,
          stderr: options.stderr ?? 'ignore',
        })
      : undefined;
  let client: MCPClient | undefined;
  const closeOnAbort = () => void (client ? client.close() : stdio?.close())?.catch(() => {});
  signal.addEventListener('abort', closeOnAbort, { once: true });
  try {
    client = await createMCPClient({
      transport: stdio ?? httpTransport(options as MCPHttpServerOptions, elicitation),
      clientName: 'june',
      // a server may ask the run's people (an approval of a served June workflow, a question)
      capabilities: { elicitation: {} },
      initializationOptions: { signal, timeout: timeoutMs },
      // a tool call is never made twice behind June's back: it may have effects
      maxRetries: 0,
    });
    client.onElicitationRequest(ElicitationRequestSchema, (request) => elicitation.answer(request));
    signal.throwIfAborted();
    const tools = (await client.tools()) as ToolSet;
    signal.throwIfAborted();
    return { client, tools };
  } catch (error) {
    // wait until a started server is gone, whatever failed
    await client?.close().catch(() => {});
    await stdio?.close().catch(() => {});
    if (signal.aborted) throw new RunAbortedError(signal.reason);
    throw connectFailed(options, timeoutMs, error, stdio?.exitDescription);
  } finally {
    signal.removeEventListener('abort', closeOnAbort);
  }
}

/** Keeps the url's credentials, the headers' and the env's values out of every record. */
function registerSecrets(options: MCPServerOptions): void {
  if ('url' in options) {
    registerUrlSecrets(options.url);
    registerHeaderSecrets(options.headers);
  } else registerEnvSecrets(options.env);
}

/**
 * The HTTP transport of `@ai-sdk/mcp`, whose `tools/call` requests carry their call's key
 * ({@link CallElicitation.fetch}). Redirects are followed, as before `@ai-sdk/mcp@2` (whose
 * default refuses them): the url is the workflow author's own, not one a model or a user gave.
 */
function httpTransport(options: MCPHttpServerOptions, elicitation: CallElicitation) {
  return {
    type: options.transport ?? 'http',
    url: options.url,
    redirect: 'follow',
    // a call's key goes with it as its idempotency key
    fetch: elicitation.fetch(),
    ...(options.headers ? { headers: options.headers } : {}),
  } as const;
}

function connectFailed(
  options: MCPServerOptions,
  timeoutMs: number,
  error: unknown,
  exit: string | undefined,
): SystemError {
  // the underlying error may quote the url with its credentials, or a header
  const why = describeError(configuredSecrets.error(error));
  const timedOut = /timed out/i.test(why);
  const server = `the MCP server <${options.name}>`;
  let message: string;
  if ('command' in options && options.cwd !== undefined && !isDirectory(options.cwd)) {
    // spawn reports a missing cwd as the command missing (`spawn /usr/bin/node ENOENT`); the path itself is not shown
    message = `june: ${server} (command ${JSON.stringify(options.command)}) could not be started: its cwd is not an existing directory. Create that directory, or change cwd (relative paths are read from the current directory).`;
  } else if ('command' in options) {
    const happened = timedOut
      ? `did not answer within ${timeoutMs} ms`
      : exit
        ? `exited (${exit}) before answering: ${why}`
        : `could not be started: ${why}`;
    message = `june: ${server} (command ${JSON.stringify(options.command)}) ${happened}. Check its command and args${timedOut ? ', or raise timeoutMs' : ''}; set stderr: 'inherit' to see what the server prints.`;
  } else {
    const happened = timedOut
      ? `did not answer within ${timeoutMs} ms`
      : `could not be reached: ${why}`;
    message = `june: ${server} at ${shownUrl(options.url)} ${happened}. Check the url${timedOut ? ', or raise timeoutMs' : ''}, the headers it needs, and that the server is running.`;
  }
  return new SystemError('mcp-connect-failed', message, { cause: error });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** An error's message, with the system error code found along its causes: `fetch failed (ECONNREFUSED)`. */
function describeError(error: unknown): string {
  const message = errorMessage(error);
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && typeof cause === 'object' && cause !== null; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && !message.includes(code))
      return `${message} (${code})`;
    cause = (cause as { cause?: unknown }).cause;
  }
  return message;
}

function checkUrl(url: string, label: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new WorkflowError(
      'mcp-server-invalid',
      `june: ${label} has the url ${JSON.stringify(shownUrl(url))}; use an http: or https: URL such as "https://example.com/mcp".`,
    );
  }
}

/** A url as messages show it: without credentials, query or fragment (they may hold secrets). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}
