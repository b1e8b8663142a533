// The official MCP SDK's server answers a session it does not know with 404 and a JSON-RPC
// body (-32001 "Session not found"). Some @ai-sdk/mcp paths hand that body on as a JSON-RPC
// error without the HTTP status; June's HTTP session must read it as a forgotten session
// all the same: open a new session and make the call there, once.
import { MCPClientError, type MCPClient } from '@ai-sdk/mcp';
import { tool, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpHttpSession, type OpenMcpClient } from '../../src/mcp/http-session.js';

function session(name: string, execute: () => Promise<unknown>): OpenMcpClient {
  const tools: ToolSet = { lookup: tool({ inputSchema: z.object({}), execute }) };
  return { client: { close: async () => {} } as unknown as MCPClient, tools };
}

const options = { toolCallId: 'c1', messages: [] } as never;

describe('a session the server forgot, told as a JSON-RPC error', () => {
  it.each([
    [
      'a JSON-RPC -32001 "Session not found" without a status',
      new MCPClientError({ message: 'Session not found', code: -32001 }),
    ],
    ['an HTTP 404', new MCPClientError({ message: 'HTTP 404', statusCode: 404 })],
  ])('%s opens a new session and makes the call there once', async (_case, forgotten) => {
    let opened = 0;
    const stale = session('stale', () => Promise.reject(forgotten));
    const fresh = session('fresh', async () => 'defined by the new session');
    const http = new McpHttpSession(
      stale,
      async () => (opened++, fresh),
      'the MCP server <Glossary>',
    );

    await expect(http.tools().lookup!.execute!({}, options)).resolves.toBe(
      'defined by the new session',
    );
    expect(opened).toBe(1);
  });

  it('leaves another -32001 (a request timeout) as the call’s error', async () => {
    const timeout = new MCPClientError({ message: 'Request timed out', code: -32001 });
    let opened = 0;
    const http = new McpHttpSession(
      session('stale', () => Promise.reject(timeout)),
      async () => (opened++, session('fresh', async () => 'x')),
      'the MCP server <Glossary>',
    );

    await expect(http.tools().lookup!.execute!({}, options)).rejects.toBe(timeout);
    expect(opened).toBe(0);
  });
});
