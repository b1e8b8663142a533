// Workflows served over MCP (src/serve/), called by the official MCP SDK client over
// Streamable HTTP on 127.0.0.1: a call is a run in the runs folder whose approval reaches
// the caller as elicitation, or is answered through another source (the runs folder, as
// Studio answers), and bad requests are refused with nothing started.
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { folderRunHost } from '../../src/host/folder-run-host.js';
import type { RunHost } from '../../src/host/run-host.js';
import { serveWorkflows, type ServedMcp } from '../../src/serve/index.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { tempProject } from '../cli/cli-harness.js';
import Ship, { description, props, script } from './fixtures/ship.js';

const TOKEN = 'alice-token-0123456789';

describe('june serve: workflows over MCP', () => {
  let project: ReturnType<typeof tempProject>;
  let served: ServedMcp;
  let log: string;
  const clients: Client[] = [];
  const hosts: RunHost[] = [];

  beforeEach(async () => {
    project = tempProject();
    log = join(project.dir, 'ship.log');
    served = await serveWorkflows({
      dir: join(project.dir, '.june', 'runs'),
      workflows: { ship: { component: Ship, props, description } },
      tokens: { alice: TOKEN, bob: 'bob-token-0123456789ab' },
      script,
      maxBodyBytes: 64_000,
    });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    for (const host of hosts.splice(0)) await host.close();
    await served.close();
    project.remove();
  });

  /** An SDK client connected with `token`; with `elicit`, it declares elicitation and answers with it. */
  async function connect(
    token: string,
    elicit?: (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>,
  ): Promise<Client> {
    const client = new Client(
      { name: 'test-agent', version: '1' },
      { capabilities: elicit ? { elicitation: { form: {} } } : {} },
    );
    if (elicit)
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        elicit(request, extra.signal),
      );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  const shipped = () =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const toolNode = (trace: Trace): TraceNode | undefined =>
    [trace.root].flatMap(function walk(node: TraceNode): TraceNode[] {
      return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(walk)];
    })[0];
  const runIdOf = (result: { _meta?: Record<string, unknown> }) =>
    result._meta?.['june/run-id'] as string;

  it('lists each workflow as a tool with its props schema, and its inspect report as a resource', async () => {
    const client = await connect(TOKEN);
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'ship',
        description,
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: expect.objectContaining({
            version: expect.objectContaining({ type: 'string' }),
          }),
          required: ['version', 'log'],
        }),
      }),
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['june://workflows/ship/inspect']);
    const read = await client.readResource({ uri: 'june://workflows/ship/inspect' });
    const report = JSON.parse((read.contents[0] as { text: string }).text);
    expect(report.agents[0].tools).toEqual([
      expect.objectContaining({ name: 'ship', needsApproval: true }),
    ]);
  });

  it('asks the caller through elicitation; its answer runs the tool once, recorded as the client’s through mcp', async () => {
    const asked: ElicitRequest['params'][] = [];
    const progress: string[] = [];
    const client = await connect(TOKEN, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { approve: true, env: 'staging' } };
    });
    const result = await client.callTool(
      { name: 'ship', arguments: { version: '1.2', log } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? '') },
    );

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: 'release shipped' });
    expect(result.content).toEqual([{ type: 'text', text: 'release shipped' }]);
    expect(shipped()).toEqual(['1.2 staging']);
    // the form: approve, a reason, and the tool's flat input as fields filled with the model's
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain('"ship"');
    expect(
      (asked[0] as { requestedSchema: { properties: object } }).requestedSchema.properties,
    ).toMatchObject({
      approve: { type: 'boolean' },
      reason: { type: 'string' },
      env: { type: 'string', enum: ['staging', 'prod'], default: 'prod' },
      note: { type: 'string' },
    });
    expect(progress).toEqual(
      expect.arrayContaining([
        'step ship started',
        expect.stringContaining('waiting for approval of ship'),
        'step ship succeeded',
      ]),
    );
    const trace = await served.host.result(runIdOf(result));
    expect(toolNode(trace)?.approval).toMatchObject({
      status: 'approved',
      source: 'mcp',
      answeredBy: 'alice',
      input: { env: 'staging' },
    });
  });

  it("serves the workflow's output schema, and a result that is not an object as { result } the client checks against it", async () => {
    await served.close();
    served = await serveWorkflows({
      dir: join(project.dir, '.june', 'runs'),
      workflows: { ship: { component: Ship, props, output: z.string() } },
      tokens: { alice: TOKEN },
      script,
    });
    const client = await connect(TOKEN, async () => ({
      action: 'accept',
      content: { approve: true },
    }));
    const [tool] = (await client.listTools()).tools;
    expect(tool?.outputSchema).toMatchObject({
      type: 'object',
      properties: { result: { type: 'string' } },
      required: ['result'],
    });
    const result = await client.callTool({ name: 'ship', arguments: { version: '1.4', log } });
    expect(result.structuredContent).toEqual({ result: 'release shipped' });
  });

  it('a decline denies the call: the tool never runs, and the run still ends', async () => {
    const client = await connect(TOKEN, async () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'ship', arguments: { version: '1.3', log } });
    expect(result.isError).toBeFalsy();
    expect(shipped()).toEqual([]);
    const trace = await served.host.result(runIdOf(result));
    expect(toolNode(trace)?.approval).toMatchObject({
      status: 'denied',
      source: 'mcp',
      answeredBy: 'alice',
    });
  });

  it('an answer given through the runs folder (as Studio gives it) wins: the elicitation is withdrawn from the client', async () => {
    let withdrawn!: () => void;
    const elicitationWithdrawn = new Promise<void>((resolve) => (withdrawn = resolve));
    let elicited!: () => void;
    const elicitationShown = new Promise<void>((resolve) => (elicited = resolve));
    const client = await connect(TOKEN, (_request, signal) => {
      elicited();
      // a person who never answers: the form stays open until the server withdraws it
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => {
          withdrawn();
          reject(new Error('withdrawn'));
        }),
      );
    });
    const call = client.callTool({ name: 'ship', arguments: { version: '2.0', log } });
    await elicitationShown;

    const folder = await folderRunHost({
      dir: join(project.dir, '.june', 'runs'),
      pollIntervalMs: 50,
    });
    hosts.push(folder);
    const [run] = await folder.list();
    const call0 = await waitFor(async () => (await folder.decisions(run!.runId)).waiting[0]);
    await folder.answer(run!.runId, { key: call0.key, approved: true, answeredBy: 'ana' });

    await elicitationWithdrawn;
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(shipped()).toEqual(['2.0 prod']);
    const trace = await served.host.result(runIdOf(result));
    expect(toolNode(trace)?.approval).toMatchObject({
      status: 'approved',
      source: 'studio',
      answeredBy: 'ana',
    });
  });

  it('a client without elicitation is answered through the run host (Studio, june approve): progress names the call', async () => {
    const client = await connect(TOKEN);
    let waitingMessage: string | undefined;
    const call = client.callTool({ name: 'ship', arguments: { version: '3.0', log } }, undefined, {
      onprogress: (p) => {
        if (p.message?.startsWith('waiting for approval')) waitingMessage = p.message;
      },
    });
    const message = await waitFor(async () => waitingMessage);
    const key = /\(call (.+)\)$/.exec(message)![1]!;
    await served.host.answer(key.split('/')[0]!, { key, approved: true, answeredBy: 'ops' });
    const result = await call;
    expect(result.structuredContent).toEqual({ result: 'release shipped' });
    expect(shipped()).toEqual(['3.0 prod']);
  });

  it("a client's cancellation aborts the run, and the tool never runs", async () => {
    let elicited!: () => void;
    const shown = new Promise<void>((resolve) => (elicited = resolve));
    const client = await connect(TOKEN, (_request, signal) => {
      elicited();
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('gone'))),
      );
    });
    const stop = new AbortController();
    const call = client.callTool({ name: 'ship', arguments: { version: '4.0', log } }, undefined, {
      signal: stop.signal,
    });
    await shown;
    const [run] = await served.host.list();
    stop.abort('changed my mind');
    await expect(call).rejects.toThrow('changed my mind');
    const trace = await served.host.result(run!.runId);
    expect(trace.status).toBe('aborted');
    expect(shipped()).toEqual([]);
  });

  it('refuses bad requests with june: errors, and starts nothing', async () => {
    // a wrong token
    await expect(connect('not-a-token-at-all-000')).rejects.toThrow(
      /june: this server takes calls with a bearer token/,
    );
    const client = await connect(TOKEN);
    // an unknown tool
    await expect(client.callTool({ name: 'deploy', arguments: {} })).rejects.toThrow(
      'june: no tool "deploy" here; it serves ship.',
    );
    // props that fail the schema
    await expect(
      client.callTool({ name: 'ship', arguments: { version: '', log } }),
    ).rejects.toThrow(/june: the props do not fit ship's props schema: version: /);
    // a Host that is not this server's (DNS rebinding) and a foreign Origin
    const port = new URL(served.url).port;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    });
    const rebinding = await post(port, initialize, { host: `evil.example:${port}` });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error.message).toMatch(
      /^june: this server is not reached by the name/,
    );
    const origin = await post(port, initialize, { origin: 'http://evil.example' });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.message).toMatch(/^june: requests from the origin/);
    // a huge body
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'ship', arguments: { version: 'x'.repeat(100_000), log } },
    });
    const tooLarge = await post(port, huge, {});
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).error.message).toMatch(
      /^june: the request is larger than this server takes/,
    );

    expect(await served.host.list()).toEqual([]);
    expect(shipped()).toEqual([]);
  });

  it('refuses an idempotency key sent again with other arguments (serve-key-reused), and starts nothing', async () => {
    const client = await connect(TOKEN, async () => ({
      action: 'accept',
      content: { approve: true },
    }));
    const keyed = (version: string) =>
      client.callTool({
        name: 'ship',
        arguments: { version, log },
        _meta: { 'june/idempotency-key': 'release-7' },
      });
    const first = await keyed('7.0');
    expect(first.isError).toBeFalsy();
    expect(shipped()).toEqual(['7.0 prod']);

    const refused = await keyed('7.1').then(
      () => undefined,
      (error: unknown) => error as { code: number; message: string; data?: unknown },
    );
    expect(refused?.code).toBe(-32602);
    expect(refused?.message).toMatch(
      /june: the idempotency key "release-7" named a call of ship with other arguments/,
    );
    expect(refused?.data).toEqual({ code: 'serve-key-reused' });
    // the first call's arguments again: its result, and nothing runs
    const again = await keyed('7.0');
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(runIdOf(again)).toBe(runIdOf(first));
    expect((await served.host.list()).map((run) => run.runId)).toEqual([runIdOf(first)]);
    expect(shipped()).toEqual(['7.0 prod']);
  });

  it('limits how many calls one client runs at once; other clients are not held by it', async () => {
    await served.close();
    served = await serveWorkflows({
      dir: join(project.dir, '.june', 'runs'),
      workflows: { ship: { component: Ship, props } },
      tokens: { alice: TOKEN, bob: 'bob-token-0123456789ab' },
      script,
      maxCallsPerClient: 1,
    });
    const alice = await connect(TOKEN);
    const first = alice.callTool({ name: 'ship', arguments: { version: '5.0', log } });
    await waitFor(async () => (await served.host.list())[0]);
    await expect(
      alice.callTool({ name: 'ship', arguments: { version: '5.1', log } }),
    ).rejects.toThrow(
      'june: the client "alice" has 1 calls running, as many as it may; wait for one to end.',
    );
    const bob = await connect('bob-token-0123456789ab');
    const second = bob.callTool({ name: 'ship', arguments: { version: '5.2', log } });
    await waitFor(async () => ((await served.host.list()).length === 2 ? true : undefined));
    for (const run of await served.host.list()) {
      const call = await waitFor(async () => (await served.host.decisions(run.runId)).waiting[0]);
      await served.host.answer(run.runId, { key: call.key, approved: true });
    }
    await Promise.all([first, second]);
    expect(shipped().sort()).toEqual(['5.0 prod', '5.2 prod']);
  });
});

/** Polls `probe` until it gives a value. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** POSTs `body` to the server's /mcp with the token and extra headers (Host among them). */
function post(
  port: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${TOKEN}`,
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
