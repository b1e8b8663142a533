import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Component } from '../elements/element.js';
import { errorMessage } from '../errors/error-message.js';
import { localRunHost } from '../host/local-run-host.js';
import type { HostedRunOptions } from '../host/memory-runs.js';
import type { RunHost } from '../host/run-host.js';
import type { ModelScript } from '../testing/script-format.js';
import { studioAccess } from '../studio/studio-access.js';
import type { CallContext } from './call-context.js';
import { CallLimits } from './call-limits.js';
import { checkedTokens } from './client-tokens.js';
import { listen } from './listen.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { loadA2aSdk } from './load-a2a-sdk.js';
import { a2aAgent, A2A_PATH, AGENT_CARD_PATH } from './a2a-agent.js';
import type { Session } from './mcp-session.js';
import { requestHandler } from './request-handler.js';
import { refuse } from './serve-gate.js';
import { servedWorkflows, type ServedWorkflow } from './served-workflow.js';

export { IDEMPOTENCY_KEY, RUN_ID_KEY } from './meta-keys.js';
export type { ServedWorkflow } from './served-workflow.js';

/** Options of {@link serveWorkflows}. */
export interface ServeOptions {
  /** The workflows, by tool name (letters, digits, `_`, `-`, `.`): a component, or a {@link ServedWorkflow}. */
  workflows: Record<string, Component | ServedWorkflow>;
  /** The runs folder the calls' runs are kept in. @default ".june/runs" */
  dir?: string;
  /** The address to listen on. @default "127.0.0.1" */
  hostname?: string;
  /** The port; 0 for a free one. @default 0 */
  port?: number;
  /**
   * The bearer tokens, by client name: the name is the client's identity in the answers it
   * gives (`answeredBy`) and for its limits. @default one random token named `local`
   */
  tokens?: Record<string, string>;
  /** Further host names requests may address (`Host`, `Origin`), beyond the bound address. */
  allowHosts?: string[];
  /** The largest request body taken, in bytes. @default 1_000_000 */
  maxBodyBytes?: number;
  /** How many calls one client may have running at once. @default 4 */
  maxCallsPerClient?: number;
  /** How long an elicitation waits for the client, in ms; then the call waits for other sources only. @default 3_600_000 */
  elicitationTimeoutMs?: number;
  /** Further options of every run (`model`, `redact`, ...). */
  runOptions?: HostedRunOptions;
  /** A model script answering every model call of each run (as `june run --script`). */
  script?: ModelScript;
  /**
   * Serves the workflows as an A2A agent too, at `/a2a` (JSON-RPC, A2A 1.0) with its agent
   * card at `/.well-known/agent-card.json`, each workflow a skill; needs `@a2a-js/sdk`.
   * @default false
   */
  a2a?: boolean;
}

/** A running MCP server ({@link serveWorkflows}). */
export interface ServedMcp {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The A2A endpoint, `http://127.0.0.1:<port>/a2a`, when served with `a2a: true`. */
  a2aUrl?: string;
  /** The A2A agent card's URL, when served with `a2a: true`. */
  agentCardUrl?: string;
  /** The tokens it takes, by client name. */
  tokens: Record<string, string>;
  /** The run host its calls run on (answer, list and cancel them here too). */
  host: RunHost;
  /** Stops taking requests, aborts the runs (their journals keep them for a resume), and closes. */
  close(): Promise<void>;
}

/**
 * Serves workflows over MCP Streamable HTTP with the official MCP SDK
 * (`@modelcontextprotocol/sdk`, an optional peer dependency): each workflow is one tool,
 * each call a durable run in the runs folder (`localRunHost`), whose approvals and
 * questions reach the caller as elicitation while every other source (Studio, `june
 * approve`) can answer them too. See docs/serving.md.
 *
 * @throws {SystemError} `serve-sdk-missing` when the MCP SDK is not installed;
 *   `serve-option-invalid` for a tool name or token that cannot be one;
 *   `serve-workflow-invalid` for a workflow that is not a component.
 * @example
 * ```ts
 * const served = await serveWorkflows({ workflows: { release: Release }, port: 3400 });
 * console.log(served.url, served.tokens.local);
 * ```
 */
export async function serveWorkflows(options: ServeOptions): Promise<ServedMcp> {
  const sdk = await loadMcpSdk();
  const a2aSdk = options.a2a ? await loadA2aSdk() : undefined;
  const served = await servedWorkflows(options.workflows);
  const hostname = options.hostname ?? '127.0.0.1';
  const tokens = options.tokens ?? { local: randomBytes(24).toString('base64url') };
  const tokenBytes = checkedTokens(tokens);
  const access = studioAccess(hostname, options.allowHosts ?? []);
  const host = await localRunHost({
    dir: options.dir ?? '.june/runs',
    workflows: Object.fromEntries([...served.values()].map((s) => [s.name, s.workflow.component])),
    ...(options.runOptions ? { runOptions: options.runOptions } : {}),
  });
  const calls = new CallLimits(options.maxCallsPerClient ?? 4);
  const sessions = new Map<string, Session>();
  const context: CallContext = {
    sdk,
    host,
    served,
    calls,
    elicitationTimeoutMs: options.elicitationTimeoutMs ?? 3_600_000,
    ...(options.script ? { script: options.script } : {}),
  };

  const maxBody = options.maxBodyBytes ?? 1_000_000;
  const a2a = a2aSdk ? a2aAgent(a2aSdk, context, maxBody) : undefined;
  const handle = requestHandler({
    context,
    allowedHosts: access.allowedHosts,
    tokens: tokenBytes,
    maxBody,
    sessions,
    ...(a2a ? { a2a } : {}),
  });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      refuse(response, 500, `june: the request failed: ${errorMessage(error)}`),
    );
  });
  const port = await listen(server, hostname, options.port ?? 0);
  const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
  const origin = `http://${shown}:${port}`;
  a2a?.listening(`${origin}${A2A_PATH}`);
  return {
    url: `${origin}/mcp`,
    ...(a2a ? { a2aUrl: `${origin}${A2A_PATH}`, agentCardUrl: `${origin}${AGENT_CARD_PATH}` } : {}),
    tokens,
    host,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await host.close();
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
    },
  };
}
