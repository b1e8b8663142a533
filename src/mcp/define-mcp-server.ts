import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import type { ToolSet } from 'ai';
import { SystemError, WorkflowError } from '../errors/june-error.js';
import { defineToolSource } from '../resources/define-tool-source.js';

/** An MCP server started as a child process and spoken to over stdio. */
export interface MCPStdioServerOptions {
  /** The name in errors and provenance: `"Filesystem"` shows as `<Filesystem>`. */
  name: string;
  /** The program to start, e.g. `"npx"` or `"node"`. */
  command: string;
  args?: string[];
  /**
   * Variables for the server process, on top of HOME, LOGNAME, PATH, SHELL, TERM and USER
   * (the only ones it inherits). Never written to a trace.
   */
  env?: Record<string, string>;
  /** The server's working directory. Never written to a trace. */
  cwd?: string;
  /** Milliseconds to wait for the server to start and answer `initialize`. @default 30000 */
  timeoutMs?: number;
}

/** An MCP server reached over HTTP (Streamable HTTP, or the older SSE transport). */
export interface MCPHttpServerOptions {
  /** The name in errors and provenance: `"Docs"` shows as `<Docs>`. */
  name: string;
  url: string;
  /** Headers sent with every request (e.g. `Authorization`). Never written to a trace. */
  headers?: Record<string, string>;
  /** @default "http" */
  transport?: 'http' | 'sse';
  /** Milliseconds to wait for the `initialize` answer. @default 30000 */
  timeoutMs?: number;
}

/** Options of {@link defineMCPServer}. */
export type MCPServerOptions = MCPStdioServerOptions | MCPHttpServerOptions;

/**
 * Defines an MCP server as a capability: its tools become ordinary tools of every agent that
 * declares it (namespaces, approvals, grants and collisions apply as to any tool). One run
 * starts the server (or opens the connection) once, however many agents declare it, and
 * closes it when the run ends. Built on {@link defineToolSource} with `@ai-sdk/mcp`.
 *
 * @throws {WorkflowError} `mcp-server-invalid` when neither `command` nor `url` is given.
 * @throws {SystemError} (when the run resolves it) `mcp-connect-failed` when the server
 *   cannot be started or reached, naming the server.
 * @example
 * ```tsx
 * const Filesystem = defineMCPServer({
 *   name: 'Filesystem',
 *   command: 'npx',
 *   args: ['@modelcontextprotocol/server-filesystem', './notes'],
 * });
 * // <Agent model={model}><Namespace name="fs"><Filesystem /></Namespace> ...</Agent>
 * ```
 */
export function defineMCPServer(options: MCPServerOptions) {
  const hasCommand = 'command' in options && typeof options.command === 'string';
  const hasUrl = 'url' in options && typeof options.url === 'string';
  if (!hasCommand && !hasUrl) {
    throw new WorkflowError('mcp-server-invalid', `june: defineMCPServer({ name: ${JSON.stringify(options.name)} }) needs a command (stdio) or a url (HTTP).`);
  }
  return defineToolSource({
    name: options.name,
    connect: async ({ signal }) => {
      let client: MCPClient | undefined;
      const closeOnAbort = () => void client?.close();
      signal.addEventListener('abort', closeOnAbort, { once: true });
      try {
        client = await createMCPClient({
          transport: hasCommand
            ? new Experimental_StdioMCPTransport({
                command: (options as MCPStdioServerOptions).command,
                args: (options as MCPStdioServerOptions).args ?? [],
                ...((options as MCPStdioServerOptions).env ? { env: (options as MCPStdioServerOptions).env } : {}),
                ...((options as MCPStdioServerOptions).cwd ? { cwd: (options as MCPStdioServerOptions).cwd } : {}),
                stderr: 'ignore',
              })
            : {
                type: (options as MCPHttpServerOptions).transport ?? 'http',
                url: (options as MCPHttpServerOptions).url,
                ...((options as MCPHttpServerOptions).headers ? { headers: (options as MCPHttpServerOptions).headers } : {}),
              },
          clientName: 'june',
          initializationOptions: { signal, timeout: options.timeoutMs ?? 30_000 },
        });
        signal.throwIfAborted();
        const tools = (await client.tools()) as ToolSet;
        signal.throwIfAborted();
        const opened = client;
        return { tools, close: () => opened.close() };
      } catch (error) {
        await client?.close().catch(() => {});
        if (signal.aborted) throw signal.reason;
        const why = error instanceof Error ? error.message : String(error);
        throw new SystemError('mcp-connect-failed', `june: the MCP server <${options.name}> could not be ${hasCommand ? 'started' : 'reached'}: ${why}`, { cause: error });
      } finally {
        signal.removeEventListener('abort', closeOnAbort);
      }
    },
  });
}
