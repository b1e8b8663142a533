import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_PATH, AGENT_CARD_PATH, type A2aAgent } from './a2a-agent.js';
import type { CallContext } from './call-context.js';
import { openSession, type Session } from './mcp-session.js';
import { clientOf, readJsonBody, rebindingProblem, refuse } from './serve-gate.js';

/** What the HTTP side checks each request against, and the sessions it opened. */
export interface Gate {
  context: CallContext;
  /** The host names requests may address (`Host`, `Origin`). */
  allowedHosts: ReadonlySet<string>;
  /** The bearer tokens as bytes, by client name. */
  tokens: ReadonlyMap<string, Buffer>;
  /** The largest request body taken, in bytes. */
  maxBody: number;
  /** The open sessions, by `Mcp-Session-Id`. */
  sessions: Map<string, Session>;
  /** The A2A agent, when served (`a2a: true`): at /a2a and its card at /.well-known/agent-card.json. */
  a2a?: A2aAgent;
}

/**
 * Handles one HTTP request: the Host and Origin check (403), the endpoint `/mcp` (404), the
 * bearer token (401), the session (a client's own only; 404 and -32001 otherwise, as the
 * SDK tells an unknown one), the body limit (413) and JSON (400), an initialize request
 * to open a session (400 without one); then the session's MCP transport. Each refusal is a
 * JSON-RPC error whose message starts with `june: `.
 */
export function requestHandler(gate: Gate) {
  const { context, sessions } = gate;
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const rebinding = rebindingProblem(request, gate.allowedHosts);
    if (rebinding) return refuse(response, 403, rebinding);
    const a2a = gate.a2a && (path === A2A_PATH || path === AGENT_CARD_PATH);
    if (path !== '/mcp' && !a2a)
      return refuse(
        response,
        404,
        `june: nothing is served at ${path}; the MCP endpoint is /mcp${gate.a2a ? `, the A2A endpoint ${A2A_PATH}` : ''}.`,
      );
    const client = clientOf(request, gate.tokens);
    if (!client)
      return refuse(
        response,
        401,
        'june: this server takes calls with a bearer token (Authorization: Bearer <token>); the token is missing or not one it knows.',
        { 'www-authenticate': 'Bearer error="invalid_token"' },
      );
    if (a2a) return gate.a2a!.handle(request, response, client);
    const sid = request.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    // an unknown session is told as the SDK tells it (404, -32001), so a client starts anew
    if (typeof sid === 'string' && (!known || known.client !== client))
      return refuse(response, 404, 'Session not found', {}, -32001);
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request, gate.maxBody);
      if ('status' in read) return refuse(response, read.status, read.message);
      body = read.body;
    }
    let session = known;
    if (!session) {
      if (request.method !== 'POST' || !context.sdk.types.isInitializeRequest(body))
        return refuse(
          response,
          400,
          'june: start a session first (an initialize request without Mcp-Session-Id).',
        );
      session = openSession(context, client, sessions);
    }
    await session.transport.handleRequest(request, response, body);
  };
}
