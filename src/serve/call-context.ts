import type { RunHost } from '../host/run-host.js';
import type { ModelScript } from '../testing/script-format.js';
import type { CallLimits } from './call-limits.js';
import type { McpSdk } from './load-mcp-sdk.js';
import type { Served } from './served-workflow.js';

/** What every session and call of one server shares. */
export interface CallContext {
  /** The MCP SDK, loaded. */
  sdk: McpSdk;
  /** The run host the calls' runs run on. */
  host: RunHost;
  /** The served workflows, by tool name. */
  served: Map<string, Served>;
  /** Each client's calls in progress. */
  calls: CallLimits;
  /** How long an elicitation waits for the client, in ms. */
  elicitationTimeoutMs: number;
  /** A model script answering every model call of each run. */
  script?: ModelScript;
}

/** What one tool call brings beside its arguments: from the MCP request it came in. */
export interface CallExtra {
  /** Aborts when the client cancels the call (or its session ends). */
  signal: AbortSignal;
  /** The call's JSON-RPC id, which its elicitations relate to. */
  requestId: string | number;
  /** The client's progress token; undefined when it asked for no progress. */
  progressToken: string | number | undefined;
  /** Sends a `notifications/progress` with these params. */
  notify: (params: Record<string, unknown>) => Promise<void>;
}
