import { MCPClientError, type MCPClient } from '@ai-sdk/mcp';
import type { ToolExecutionOptions, ToolSet } from 'ai';
import { SystemError } from '../errors/june-error.js';
import { errorMessage } from '../errors/error-message.js';

/** An open MCP client and the tools it listed. */
export interface OpenMcpClient {
  client: MCPClient;
  tools: ToolSet;
}

/**
 * A connection to an MCP server over HTTP that outlives the server's sessions. The
 * Streamable HTTP spec has a client whose session the server no longer knows (it restarted,
 * or let the session expire: HTTP 404 for the session id) start a new session with a new
 * `initialize`; `@ai-sdk/mcp` only drops the session id, so every later call would fail.
 *
 * - A call the server answers with 404 never ran there: a new session is opened (once for
 *   every call that found the old one gone) and the call is made on it. When the new
 *   session is refused too, the call fails with `mcp-session-lost`.
 * - A call in flight when the connection broke (the server went away mid-call) may have
 *   run: it fails with `mcp-call-interrupted` and is not made again (a tool may have
 *   effects); the next call opens a new session.
 *
 * Tool calls are never retried by the MCP client itself (`maxRetries: 0` where the client is
 * made), so these are the only second attempts.
 */
export class McpHttpSession {
  #current: Promise<OpenMcpClient>;
  /** The session calls go to, once open (`undefined` while a new one opens). */
  #open: OpenMcpClient | undefined;
  /** Set when a call was cut off: the next call opens a new session first. */
  #broken: OpenMcpClient | undefined;

  /**
   * @param first - the session opened when the run connected.
   * @param openClient - opens a new session (a new client, `initialize`, `tools/list`).
   * @param server - how messages name the server: `the MCP server <Docs> at http://…/mcp`.
   */
  constructor(
    first: OpenMcpClient,
    private readonly openClient: () => Promise<OpenMcpClient>,
    private readonly server: string,
  ) {
    this.#open = first;
    this.#current = Promise.resolve(first);
  }

  /** The tools of the first session, each calling through this connection. */
  tools(): ToolSet {
    const first = this.#open!.tools;
    return Object.fromEntries(
      Object.entries(first).map(([name, tool]) => [
        name,
        {
          ...tool,
          execute: (input: unknown, options: ToolExecutionOptions<any>) =>
            this.#call(name, input, options),
        },
      ]),
    ) as ToolSet;
  }

  /** Closes the session open now. */
  async close(): Promise<void> {
    const open = await this.#current.catch(() => undefined);
    await open?.client.close();
  }

  async #call(name: string, input: unknown, options: ToolExecutionOptions<any>): Promise<unknown> {
    let session = await this.#session();
    try {
      return await execute(session, name, input, options);
    } catch (error) {
      if (options.abortSignal?.aborted) throw error;
      if (sessionForgotten(error)) {
        session = await this.#renew(session);
        try {
          return await execute(session, name, input, options);
        } catch (again) {
          if (!sessionForgotten(again)) throw again;
          throw new SystemError(
            'mcp-session-lost',
            `june: ${this.server} forgot the session of the call to "${name}" (HTTP 404), and again on a new session; the call did not run. Check that the server keeps its sessions (one instance, or sessions shared between instances).`,
            { cause: again },
          );
        }
      }
      if (connectionRefused(error)) {
        this.#broken = session;
        throw new SystemError(
          'mcp-connect-failed',
          `june: ${this.server} could not be reached for the call to "${name}" (${errorMessage(error)}); the call did not run. Check that the server is running; the next call opens a new session.`,
          { cause: error },
        );
      }
      if (connectionLost(error)) {
        this.#broken = session;
        throw new SystemError(
          'mcp-call-interrupted',
          `june: ${this.server} went away during the call to "${name}" (${errorMessage(error)}); the call may have run there, so it is not made again. The next call opens a new session.`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** The session to call on: a new one first when the last call was cut off. */
  async #session(): Promise<OpenMcpClient> {
    const session = await this.#current;
    return this.#broken === session ? this.#renew(session) : session;
  }

  /** A new session in place of `stale`, opened once however many calls ask for it. */
  #renew(stale: OpenMcpClient): Promise<OpenMcpClient> {
    if (this.#open !== stale) return this.#current;
    this.#open = undefined;
    this.#broken = undefined;
    void stale.client.close().catch(() => {});
    this.#current = this.openClient().then((opened) => (this.#open = opened));
    return this.#current;
  }
}

function execute(
  session: OpenMcpClient,
  name: string,
  input: unknown,
  options: ToolExecutionOptions<any>,
): Promise<unknown> {
  const tool = session.tools[name];
  if (!tool?.execute)
    return Promise.reject(new Error(`the server no longer lists the tool "${name}"`));
  return Promise.resolve(tool.execute(input, options));
}

/**
 * The server does not know the session (restarted, or expired): it answered 404, or, as the
 * official MCP SDK's `StreamableHTTPServerTransport` does, 404 with a JSON-RPC error body
 * (`-32001 "Session not found"`), which `@ai-sdk/mcp` hands on as a JSON-RPC error without
 * the status.
 */
function sessionForgotten(error: unknown): boolean {
  if (!MCPClientError.isInstance(error)) return false;
  if (error.statusCode === 404) return true;
  return error.code === SESSION_NOT_FOUND && /session not found/i.test(error.message);
}

/** The JSON-RPC error code the official MCP SDK's server sends with "Session not found". */
const SESSION_NOT_FOUND = -32001;

/** Whether `test` holds for `error` or one of its causes. */
function along(error: unknown, test: (cause: Record<string, unknown>) => boolean): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    if (test(cause as Record<string, unknown>)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** No connection could be made: the request never reached the server. */
function connectionRefused(error: unknown): boolean {
  return along(error, (cause) => cause.code === 'ECONNREFUSED');
}

/** Codes of a connection that broke after it was made. */
const LOST = /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/;

/** The request's connection broke before an HTTP answer came: the call may or may not have run. */
function connectionLost(error: unknown): boolean {
  return along(
    error,
    (cause) =>
      (typeof cause.code === 'string' && LOST.test(cause.code)) ||
      (cause.name === 'TypeError' &&
        (cause.message === 'fetch failed' || cause.message === 'terminated')),
  );
}
