// defineMCPServer({ url }) against an MCP server over Streamable HTTP on 127.0.0.1.
import { Agent, defineMCPServer, run, Step } from 'june';
import { afterEach, describe, expect, test } from 'vitest';
import { streamModel } from '../helpers/mock-stream-model.js';
import { collect, rejectionOf } from '../resources/support.js';
import { startMcpHttpServer, type TestMcpServer } from './http-server.js';

const token = 'Bearer test-token-7f3a9c';
const servers: TestMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function glossaryServer(options: Parameters<typeof startMcpHttpServer>[0] = {}) {
  const server = await startMcpHttpServer(options);
  servers.push(server);
  return server;
}

describe('an MCP server over HTTP', () => {
  test('its tools are called from a step; every request carries the headers, and the trace never holds them', async () => {
    const server = await glossaryServer({ requiredHeader: ['authorization', token] });
    const Glossary = defineMCPServer({
      name: 'Glossary',
      url: server.url,
      headers: { Authorization: token },
    });
    const model = streamModel([
      (options) => {
        expect((options.tools ?? []).map((t) => t.name)).toEqual(['lookup']);
        return { toolCalls: [{ id: 'c1', name: 'lookup', input: { term: 'agent' } }] };
      },
      { text: 'An agent is a word from the glossary.' },
    ]);
    const handle = run(
      <>
        <Agent model={model} name="first">
          <Glossary />
          <Step id="define" prompt="Define agent" />
        </Agent>
        <Agent model={streamModel([{ text: 'second' }])} name="second">
          <Glossary />
          <Step id="again" prompt="again" />
        </Agent>
      </>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      tool: 'lookup',
      output: { content: [{ type: 'text', text: 'agent: a word from the glossary' }] },
    });
    expect(result.steps.define).toBe('An agent is a word from the glossary.');
    // the server saw the header on every request, and nothing was refused
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((request) => request.headers.authorization === token)).toBe(true);
    // two agents, one connection: one initialize; closed (a DELETE ends the session) before the result settles
    expect(server.requests.filter((request) => request.rpc === 'initialize')).toHaveLength(1);
    expect(server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
    expect(server.openSessions()).toBe(0);
    for (const text of [JSON.stringify(result.trace), JSON.stringify(events)]) {
      expect(text).not.toContain('test-token-7f3a9c');
    }
    expect(result.trace.root.children[0]!.capabilities).toEqual([
      { name: 'lookup', source: '<Glossary>' },
    ]);
  });

  test('a server that refuses the headers fails the run with mcp-connect-failed; the message holds no header', async () => {
    const server = await glossaryServer({ requiredHeader: ['authorization', token] });
    const Glossary = defineMCPServer({
      name: 'Glossary',
      url: `${server.url}?key=query-secret`,
      headers: { Authorization: 'Bearer wrong-token-value' },
    });
    const model = streamModel([]);
    const error = await rejectionOf(
      run(
        <Agent model={model}>
          <Glossary />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );

    expect(error.code).toBe('mcp-connect-failed');
    expect(error.message).toMatch(
      new RegExp(
        `^june: the MCP server <Glossary> at ${server.url.replace(/\./g, '\\.')} could not be reached: `,
      ),
    );
    expect(error.message).toContain(
      'Check the url, the headers it needs, and that the server is running.',
    );
    expect(error.message).not.toContain('wrong-token-value');
    expect(error.message).not.toContain('query-secret');
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('a server that is not running fails the run, naming the server and its url', async () => {
    const server = await glossaryServer();
    const url = server.url;
    await servers.pop()!.close();
    const Gone = defineMCPServer({ name: 'Gone', url });
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Gone />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );
    expect(error.code).toBe('mcp-connect-failed');
    expect(error.message).toContain(
      `june: the MCP server <Gone> at ${url} could not be reached: fetch failed (ECONNREFUSED).`,
    );
  });
});
