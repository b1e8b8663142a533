import { randomUUID } from 'node:crypto';
import { JuneError } from '../errors/june-error.js';
import { fitProps, propsMisfitMessage } from '../workflows/props-fit.js';
import type { CallContext } from './call-context.js';
import { callWorkflow } from './call-workflow.js';
import { registerResources } from './inspect-resources.js';
import type { McpSdk, McpServer } from './load-mcp-sdk.js';
import { IDEMPOTENCY_KEY } from './meta-keys.js';
import { objectOutputSchema } from './tool-result.js';

/** What one MCP session holds: its transport and server, and whose it is. */
export interface Session {
  /** The name of the client whose token opened it: only that client may use it. */
  client: string;
  transport: InstanceType<McpSdk['http']['StreamableHTTPServerTransport']>;
}

/**
 * Opens an MCP session for a client: a Streamable HTTP transport and a server with the
 * tools and resources on it. The session is added to `sessions` under its id once
 * initialized, and removed when its transport closes.
 * @returns the session, whose transport then handles the initialize request.
 */
export function openSession(
  context: CallContext,
  client: string,
  sessions: Map<string, Session>,
): Session {
  const { sdk } = context;
  const transport = new sdk.http.StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, session),
  });
  const session: Session = { client, transport };
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  const server = new sdk.server.Server(
    { name: 'june', version: '1' },
    { capabilities: { tools: {}, resources: {} } },
  );
  registerHandlers(context, server, client);
  // The SDK's client ignores a cancellation of request id 0 (`if (!requestId) return` in
  // Protocol._oncancel, 1.32), and ids count from 0 per session: a ping takes id 0, so
  // a withdrawn elicitation is always one the client can be told of.
  server.oninitialized = () => void server.ping().catch(() => {});
  void server.connect(transport);
  return session;
}

/**
 * Registers the tools on a session's server: `tools/list` names each workflow with its
 * input and output schemas; `tools/call` checks the arguments and the idempotency key
 * (`InvalidParams` when they do not fit), takes one of the client's calls (`InvalidRequest`
 * at its limit), and runs the call ({@link callWorkflow}). Then the resources.
 */
function registerHandlers(context: CallContext, server: McpServer, client: string): void {
  const { sdk, served } = context;
  const { types } = sdk;
  const invalid = (message: string) => new types.McpError(types.ErrorCode.InvalidParams, message);
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: [...served.values()].map((s) => ({
      name: s.name,
      ...(s.workflow.description ? { description: s.workflow.description } : {}),
      inputSchema: (s.propsSchema ?? { type: 'object' }) as { type: 'object' },
      ...(s.outputSchema ? { outputSchema: objectOutputSchema(s.outputSchema) } : {}),
    })),
  }));
  registerResources(context, server);
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const s = served.get(request.params.name);
    if (!s)
      throw invalid(
        `june: no tool "${request.params.name}" here; it serves ${[...served.keys()].join(', ')}.`,
      );
    const fit = fitProps(request.params.arguments ?? {}, s.propsSchema);
    if ('problems' in fit)
      throw invalid(propsMisfitMessage(s.name, fit.problems, 'Fix the arguments and call again.'));
    const key = request.params._meta?.[IDEMPOTENCY_KEY];
    if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 200))
      throw invalid(`june: _meta["${IDEMPOTENCY_KEY}"] is a string of 1 to 200 characters.`);
    const release = context.calls.take(client);
    if (typeof release === 'string')
      throw new types.McpError(types.ErrorCode.InvalidRequest, release);
    try {
      return await callWorkflow(context, server, client, s, fit.props, key, {
        signal: extra.signal,
        requestId: extra.requestId,
        progressToken: request.params._meta?.progressToken,
        notify: (params) =>
          extra.sendNotification({ method: 'notifications/progress', params } as never),
      });
    } catch (error) {
      if (JuneError.isInstance(error) && error.code === 'serve-key-reused')
        throw new types.McpError(types.ErrorCode.InvalidParams, error.message, {
          code: error.code,
        });
      throw error;
    } finally {
      release();
    }
  });
}
