// An MCP server over HTTP restarted while a run uses it (a real server process, killed and
// started again on the same port). A call the new process answers 404 for the old session
// never ran there: June opens a new session and the call goes on. A call in flight when the
// server died may have run: it is reported, not made again, and the next call gets a new
// session.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineMCPServer, run, Step, type TraceNode } from 'june';
import { afterEach, describe, expect, test } from 'vitest';
import { streamModel, toolResults } from '../helpers/mock-stream-model.js';

const script = new URL('../fixtures/mcp/restartable-http-server.mjs', import.meta.url).pathname;
const processes: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of processes.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the server process on `port` (0: any) and resolves with the port it listens on. */
function startServer(
  port: number,
  log: string,
  instance: string,
  mode: 'plain' | 'official' = 'plain',
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, String(port), log, instance, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  processes.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /listening (\d+)/.exec(out);
      if (listening) resolve({ port: Number(listening[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Polls `check` until it holds, failing after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'june-mcp-session-'));
  dirs.push(dir);
  const log = join(dir, 'requests.log');
  const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  return { log, lines };
}

const toolNodes = (node: TraceNode): TraceNode[] => [
  ...(node.kind === 'tool' ? [node] : []),
  ...node.children.flatMap(toolNodes),
];

describe('an MCP server over HTTP restarted mid-run', () => {
  test.each([
    ['404', 'plain'],
    ["the official SDK's 404 with JSON-RPC -32001", 'official'],
  ] as const)(
    'a call the restarted server answers %s for its session opens a new session and goes on',
    async (_answer, mode) => {
      const { log, lines } = setup();
      const first = await startServer(0, log, 'first', mode);
      const Glossary = defineMCPServer({
        name: 'Glossary',
        url: `http://127.0.0.1:${first.port}/mcp`,
      });
      const model = streamModel([
        { toolCalls: [{ id: 'c1', name: 'lookup', input: { term: 'agent' } }] },
        async () => {
          // the server restarts between the two calls: the new process knows no session
          await kill(first.child);
          await startServer(first.port, log, 'second', mode);
          return { toolCalls: [{ id: 'c2', name: 'lookup', input: { term: 'tool' } }] };
        },
        { text: 'Both defined.' },
      ]);
      const handle = run(
        <Agent model={model}>
          <Glossary />
          <Step id="define" prompt="Define agent, then tool" />
        </Agent>,
      );
      expect((await handle.result).output).toBe('Both defined.');
      expect(toolResults(model.doStreamCalls[2]!.prompt)).toEqual([
        expect.objectContaining({ toolCallId: 'c1', output: expect.objectContaining({}) }),
        expect.objectContaining({ toolCallId: 'c2' }),
      ]);
      expect(JSON.stringify(model.doStreamCalls[2]!.prompt)).toContain('tool: defined by second');
      expect(toolNodes(handle.trace().root).map((node) => [node.name, node.status])).toEqual([
        ['lookup', 'succeeded'],
        ['lookup', 'succeeded'],
      ]);
      console.log('LINES', mode, JSON.stringify(lines()));
      // the new process: the call on the old session (404), a new initialize, then the call
      const second = lines().filter((line) => line.startsWith('second '));
      const methods = second.map((line) => line.split(' ')[1]);
      expect(methods[0]).toBe('tools/call');
      expect(second[0]).not.toMatch(/ -$/); // it carried the old session id
      expect(methods).toContain('initialize');
      expect(methods.filter((method) => method === 'tools/call')).toHaveLength(2);
      expect(methods.lastIndexOf('tools/call')).toBeGreaterThan(methods.indexOf('initialize'));
    },
    30_000,
  );

  test('a call in flight when the server dies is reported, not made again; the next call gets a new session', async () => {
    const { log, lines } = setup();
    const first = await startServer(0, log, 'first');
    const Glossary = defineMCPServer({
      name: 'Glossary',
      url: `http://127.0.0.1:${first.port}/mcp`,
    });
    let restarted: Promise<unknown> | undefined;
    const model = streamModel([
      () => {
        // once the stamp has started on the server, the server dies and comes back
        restarted = until(() => lines().includes('first stamp'), 10_000, 'the stamp to start')
          .then(() => kill(first.child))
          .then(() => startServer(first.port, log, 'second'));
        return { toolCalls: [{ id: 'c1', name: 'stamp', input: {} }] };
      },
      async () => {
        await restarted;
        return { toolCalls: [{ id: 'c2', name: 'lookup', input: { term: 'agent' } }] };
      },
      { text: 'Done.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Glossary />
        <Step id="work" prompt="Stamp, then define agent" />
      </Agent>,
    );
    expect((await handle.result).output).toBe('Done.');
    const [stamp, lookup] = toolNodes(handle.trace().root);
    expect(stamp).toMatchObject({
      name: 'stamp',
      status: 'failed',
      error: { code: 'mcp-call-interrupted' },
    });
    expect(stamp!.error!.message).toMatch(
      /^june: the MCP server <Glossary> at http:\/\/127\.0\.0\.1:\d+\/mcp went away during the call to "stamp" \(.+\); the call may have run there, so it is not made again\. The next call opens a new session\.$/,
    );
    expect(lookup).toMatchObject({ name: 'lookup', status: 'succeeded' });
    expect(JSON.stringify(model.doStreamCalls[2]!.prompt)).toContain('agent: defined by second');
    // the stamp ran once, on the first process; the second process was asked for a new session first
    expect(lines().filter((line) => line.endsWith(' stamp'))).toEqual(['first stamp']);
    // (the old session is ended politely: a DELETE the new process answers 404; before
    // `initialize` the client may ask `server/discover` for the protocol version)
    const second = lines()
      .filter((line) => line.startsWith('second '))
      .map((line) => line.split(' ')[1])
      .filter((method) => method !== 'DELETE');
    // a new session (initialize) before its first call, and never the stamp again
    expect(second).toContain('initialize');
    expect(second.indexOf('initialize')).toBeLessThan(second.indexOf('tools/call'));
    expect(second.filter((method) => method === 'tools/call')).toHaveLength(1);
    expect(second).not.toContain('stamp');
  }, 30_000);
});
