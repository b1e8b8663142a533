import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostName } from '../studio/studio-access.js';

/**
 * Answers an HTTP request that is refused before it reaches MCP: its status, and a JSON-RPC
 * error whose message starts with `june: `, so an MCP client shows it as it is.
 */
export function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The name of the client whose token the request carries (`Authorization: Bearer <token>`),
 * compared in constant time with each; undefined when it carries none of them.
 */
export function clientOf(
  request: IncomingMessage,
  tokens: ReadonlyMap<string, Buffer>,
): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return undefined;
  const given = Buffer.from(match[1]!);
  let found: string | undefined;
  for (const [name, token] of tokens)
    if (given.length === token.length && timingSafeEqual(given, token)) found ??= name;
  return found;
}

/**
 * Why the request's `Host` (and `Origin`, when it has one) may not reach the server, as
 * Studio checks them against DNS rebinding: a name outside `allowedHosts`; undefined when it may.
 */
export function rebindingProblem(
  request: IncomingMessage,
  allowedHosts: ReadonlySet<string>,
): string | undefined {
  const host = request.headers.host;
  if (host === undefined || !allowedHosts.has(hostName(host)))
    return `june: this server is not reached by the name ${JSON.stringify(host ?? '')} (it answers ${[...allowedHosts].join(', ')}); a page of another site cannot call it.`;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null')
    return origin === 'null' ? originProblem(origin) : undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return originProblem(origin);
  }
  return allowedHosts.has(hostName(originHost)) ? undefined : originProblem(origin);
}

function originProblem(origin: string): string {
  return `june: requests from the origin ${JSON.stringify(origin)} are refused; call this server from an MCP client, not a page of another site.`;
}

/**
 * Reads the request's body as JSON, up to `limit` bytes.
 * @returns the value, or the HTTP status and `june:` message to refuse it with.
 */
export async function readJsonBody(
  request: IncomingMessage,
  limit: number,
): Promise<{ body: unknown } | { status: number; message: string }> {
  const declared = Number(request.headers['content-length']);
  const tooLarge = {
    status: 413,
    message: `june: the request is larger than this server takes (${limit} bytes).`,
  };
  if (Number.isFinite(declared) && declared > limit) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return tooLarge;
    chunks.push(chunk as Buffer);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { status: 400, message: 'june: the request body is not JSON (a JSON-RPC message).' };
  }
}
