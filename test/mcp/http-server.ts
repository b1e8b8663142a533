// A small MCP server over Streamable HTTP on 127.0.0.1, built with @modelcontextprotocol/sdk:
// one tool, `lookup({ term })`, sessions, and a record of what every request carried.
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface RecordedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The JSON-RPC method of a POST (`initialize`, `tools/list`, `tools/call`, ...). */
  rpc?: string;
}

export interface TestMcpServer {
  url: string;
  requests: RecordedRequest[];
  /** Sessions opened and not yet ended by a DELETE. */
  openSessions(): number;
  close(): Promise<void>;
}

/**
 * Starts the server. With `requiredHeader`, requests without that exact header get a 401.
 * With `elicit`, it has a second tool, `greet()`, which asks its client for a name through
 * elicitation (a form with one required `name` field) and greets it, or says it was declined.
 */
export async function startMcpHttpServer(
  options: { requiredHeader?: [string, string]; elicit?: boolean } = {},
): Promise<TestMcpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: RecordedRequest[] = [];

  const newSession = async () => {
    const mcp = new McpServer({ name: 'june-test-http', version: '1.0.0' });
    mcp.registerTool(
      'lookup',
      { description: 'Looks a term up in the glossary', inputSchema: { term: z.string() } },
      async ({ term }) => ({
        content: [{ type: 'text', text: `${term}: a word from the glossary` }],
      }),
    );
    if (options.elicit)
      mcp.registerTool('greet', { description: 'Greets the person asked' }, async () => {
        const reply = await mcp.server.elicitInput({
          mode: 'form',
          message: 'What is your name?',
          requestedSchema: {
            type: 'object',
            properties: { name: { type: 'string', title: 'Name', minLength: 1 } },
            required: ['name'],
          },
        });
        const text =
          reply.action === 'accept' ? `hello ${String(reply.content?.name)}` : `${reply.action}d`;
        return { content: [{ type: 'text', text }] };
      });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await mcp.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let body: unknown;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    }
    requests.push({
      method: req.method ?? '',
      headers: req.headers,
      ...(body && typeof body === 'object' && 'method' in body ? { rpc: String(body.method) } : {}),
    });
    if (options.requiredHeader) {
      const [name, value] = options.requiredHeader;
      if (req.headers[name.toLowerCase()] !== value) {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'unauthorized' }));
        return;
      }
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || (body as { method?: string })?.method !== 'initialize') {
        res.writeHead(req.method === 'GET' ? 405 : 404).end();
        return;
      }
      transport = await newSession();
    }
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    openSessions: () => sessions.size,
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
