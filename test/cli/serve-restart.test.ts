// `june serve` killed with SIGKILL while a served call waits for approval: started again,
// the same call (the same idempotency key in _meta) resumes that run from its journal, and
// the tool runs once; a later call with that key gives the result again without a run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/trace-node.js';
import { nodesOf, repoRoot, startJune, tempProject, type RunningJune } from './cli-harness.js';
import { script } from '../serve/fixtures/ship.js';

const TOKEN = 'ci-token-0123456789abcdef';

describe('june serve across a restart', () => {
  let project: ReturnType<typeof tempProject>;
  const servers: RunningJune[] = [];
  const clients: Client[] = [];

  beforeEach(() => {
    project = tempProject();
    project.write('ship.tsx', readFileSync(join(repoRoot, 'test/serve/fixtures/ship.tsx'), 'utf8'));
    project.write('ship.script.json', JSON.stringify(script));
    project.write('tokens.json', JSON.stringify({ ci: TOKEN }));
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    for (const server of servers.splice(0)) {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // ended already
      }
      await server.done;
    }
    project.remove();
  });

  /** Starts `june serve` on a free port; its URL once it printed it. */
  async function serve(): Promise<{ server: RunningJune; url: string }> {
    const server = startJune(
      [
        'serve',
        'ship.tsx',
        '--port',
        '0',
        '--script',
        'ship.script.json',
        '--tokens',
        'tokens.json',
      ],
      project.dir,
    );
    servers.push(server);
    const url = await waitFor(
      () => /June MCP server: (\S+)/.exec(server.output().stdout)?.[1],
      server,
    );
    return { server, url };
  }

  async function connect(url: string, elicit: () => Promise<ElicitResult>): Promise<Client> {
    const client = new Client({ name: 'ci', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, elicit);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  const log = () => join(project.dir, 'ship.log');
  const shipped = () => {
    try {
      return readFileSync(log(), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  it('the same call after a kill -9 resumes the waiting run; the tool runs once', async () => {
    const call = {
      name: 'ship',
      arguments: { version: '7.0', log: log() },
      _meta: { 'june/idempotency-key': 'release-7.0' },
    };
    const first = await serve();
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const before = await connect(first.url, () => {
      asked();
      return new Promise<ElicitResult>(() => {}); // nobody answers before the kill
    });
    const lost = before.callTool(call).then(
      () => 'answered',
      () => 'lost',
    );
    await waiting;
    process.kill(first.server.pid, 'SIGKILL');
    expect((await first.server.done).signal).toBe('SIGKILL');
    await before.close(); // the agent gives up on its connection to the dead server
    expect(await lost).toBe('lost');
    expect(shipped()).toEqual([]);

    const second = await serve();
    let askedAgain = 0;
    const after = await connect(second.url, async () => {
      askedAgain += 1;
      return { action: 'accept', content: { approve: true } };
    });
    const result = await after.callTool(call, undefined, { timeout: 30_000 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: 'release shipped' });
    expect(askedAgain).toBe(1);
    expect(shipped()).toEqual(['7.0 prod']);
    // one run, resumed: its journal's model call was not made again
    const runId = result._meta?.['june/run-id'] as string;
    const trace = JSON.parse(
      readFileSync(join(project.dir, '.june', 'runs', `${runId}.json`), 'utf8'),
    ) as Trace;
    expect(trace.status).toBe('succeeded');
    const models = nodesOf(trace).filter((node) => node.kind === 'model');
    expect(models.map((node) => node.replayed === true)).toEqual([true, false]);
    const tool = nodesOf(trace).find((node) => node.kind === 'tool');
    expect(tool?.approval).toMatchObject({ status: 'approved', source: 'mcp', answeredBy: 'ci' });

    // the same call once more: its result again, nothing runs
    const again = await after.callTool(call);
    expect(again.structuredContent).toEqual({ result: 'release shipped' });
    expect(again._meta?.['june/run-id']).toBe(runId);
    expect(askedAgain).toBe(1);
    expect(shipped()).toEqual(['7.0 prod']);
  });
});

async function waitFor<T>(
  probe: () => T | undefined,
  server: RunningJune,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`waited too long: ${JSON.stringify(server.output())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
