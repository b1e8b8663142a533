import type { IncomingMessage, ServerResponse } from 'node:http';
import type { User } from '@a2a-js/sdk/server';
import { agentCard } from './a2a-card.js';
import { A2aExecutor } from './a2a-executor.js';
import type { CallContext } from './call-context.js';
import type { A2aSdk } from './load-a2a-sdk.js';
import { readJsonBody, refuse } from './serve-gate.js';

export { SKILL_SCHEMAS_EXTENSION } from './a2a-card.js';

/** Where the A2A agent answers: its JSON-RPC endpoint and its agent card. */
export const A2A_PATH = '/a2a';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The served workflows as an A2A agent (`serveWorkflows({ a2a: true })`). */
export interface A2aAgent {
  /** Answers one request to {@link A2A_PATH} or {@link AGENT_CARD_PATH}, from a client known by its token. */
  handle(request: IncomingMessage, response: ServerResponse, client: string): Promise<void>;
  /** Sets the URL the card gives for the JSON-RPC endpoint, once the server listens. */
  listening(url: string): void;
}

/**
 * Serves the workflows as an A2A agent with `@a2a-js/sdk` over `node:http`: the agent card
 * (each workflow a skill), and A2A 1.0 JSON-RPC (`SendMessage`, `SendStreamingMessage` as
 * server-sent events, `GetTask`, `CancelTask`, ...) through the SDK's request handler and
 * June's executor ({@link A2aExecutor}). Each client (its token's name) sees its own tasks.
 */
export function a2aAgent(sdk: A2aSdk, context: CallContext, maxBody: number): A2aAgent {
  const card = agentCard(context);
  const store = new sdk.server.InMemoryTaskStore();
  const handler = new sdk.server.DefaultRequestHandler(
    card,
    store,
    new A2aExecutor(sdk, context, store),
  );
  const rpc = new sdk.server.JsonRpcTransportHandler(handler);
  const { JsonRpcTransportHandler, ServerCallContext, validateVersion } = sdk.server;
  const failure = (id: unknown, error: unknown) => ({
    jsonrpc: '2.0',
    id: id ?? null,
    error: JsonRpcTransportHandler.mapToJSONRPCError(error),
  });

  return {
    listening(url) {
      card.supportedInterfaces = [
        { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      ];
    },
    async handle(request, response, client) {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path === AGENT_CARD_PATH) return json(response, sdk.core.AgentCard.toJSON(card));
      if (request.method !== 'POST')
        return refuse(response, 405, `june: send A2A JSON-RPC requests to ${A2A_PATH} with POST.`);
      const read = await readJsonBody(request, maxBody);
      if ('status' in read) return refuse(response, read.status, read.message);
      const id = (read.body as { id?: unknown } | null)?.id;
      const header = request.headers['a2a-version'];
      const user: User = { isAuthenticated: true, userName: client };
      const call = new ServerCallContext({
        user,
        ...(typeof header === 'string' ? { requestedVersion: header } : {}),
      });
      let out: Awaited<ReturnType<typeof rpc.handle>>;
      try {
        validateVersion(call.requestedVersion, card, 'JSONRPC');
        out = await rpc.handle(read.body as Record<string, unknown>, call);
      } catch (error) {
        return json(response, failure(id, error));
      }
      if (!(Symbol.asyncIterator in out)) return json(response, out);
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      try {
        for await (const event of out) response.write(`data: ${JSON.stringify(event)}\n\n`);
      } catch (error) {
        response.write(`event: error\ndata: ${JSON.stringify(failure(id, error))}\n\n`);
      } finally {
        response.end();
      }
    },
  };
}

function json(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
