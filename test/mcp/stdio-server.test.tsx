// defineMCPServer over stdio, against the real @modelcontextprotocol/server-everything.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  Catch,
  defineMCPServer,
  inspect,
  JuneError,
  Namespace,
  RequireApproval,
  run,
  Step,
  type RunEvent,
} from 'june';
import { afterAll, describe, expect, test } from 'vitest';
import { hangingModel, streamModel, toolResults } from '../helpers/mock-stream-model.js';
import { collect, rejectionOf } from '../resources/support.js';
import {
  childProcesses,
  cwdOf,
  environmentOf,
  everythingCommand,
  everythingProcesses,
  everythingScript,
  waitUntil,
} from './support.js';

const Everything = defineMCPServer({ name: 'Everything', ...everythingCommand });

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('an MCP server over stdio', () => {
  test('its tools are the agent’s tools; a step calls echo and get-sum; the server is gone when the run ends', async () => {
    const model = streamModel([
      (options) => {
        const names = (options.tools ?? []).map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-env']));
        return {
          toolCalls: [
            { id: 'c1', name: 'echo', input: { message: 'hello from june' } },
            { id: 'c2', name: 'get-sum', input: { a: 2, b: 40 } },
          ],
        };
      },
      (options) => {
        const results = toolResults(options.prompt);
        expect(JSON.stringify(results)).toContain('Echo: hello from june');
        expect(JSON.stringify(results)).toContain('The sum of 2 and 40 is 42.');
        return { text: 'Echoed, and 2 + 40 = 42.' };
      },
    ]);
    const handle = run(
      <Agent model={model}>
        <Everything />
        <Step id="try" prompt="Echo something, then add 2 and 40" />
      </Agent>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(result.steps.try).toBe('Echoed, and 2 + 40 = 42.');
    const outputs = events.flatMap((event) =>
      event.type === 'tool-result' ? [[event.tool, event.output]] : [],
    );
    expect(outputs).toEqual([
      ['echo', { content: [{ type: 'text', text: 'Echo: hello from june' }], isError: false }],
      [
        'get-sum',
        { content: [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }], isError: false },
      ],
    ]);
    expect(result.trace.root.children[0]!.capabilities).toContainEqual({
      name: 'echo',
      source: '<Everything>',
    });
    expect(everythingProcesses()).toEqual([]);
  });

  test('two agents of one run share one server process', async () => {
    const seen: number[][] = [];
    const model = streamModel([
      () => (
        seen.push(everythingProcesses()),
        { toolCalls: [{ id: 'c1', name: 'mcp_echo', input: { message: 'one' } }] }
      ),
      { text: 'first done' },
      () => (
        seen.push(everythingProcesses()),
        { toolCalls: [{ id: 'c2', name: 'echo', input: { message: 'two' } }] }
      ),
      { text: 'second done' },
    ]);
    const result = await run(
      <>
        <Agent model={model} name="first">
          <Namespace name="mcp">
            <Everything />
          </Namespace>
          <Step id="one" prompt="echo one" />
        </Agent>
        <Agent model={model} name="second">
          <Everything />
          <Step id="two" prompt="echo two" />
        </Agent>
      </>,
    ).result;

    expect(result.output).toEqual({ one: 'first done', two: 'second done' });
    expect(seen[0]).toHaveLength(1);
    expect(seen[1]).toEqual(seen[0]);
    expect(everythingProcesses()).toEqual([]);
  });

  test('namespaced and wrapped in <RequireApproval>, an MCP tool waits for an answer', async () => {
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'everything_echo', input: { message: 'approved' } }] },
      { text: 'ok' },
    ]);
    const handle = run(
      <Agent model={model}>
        <RequireApproval>
          <Namespace name="everything">
            <Everything />
          </Namespace>
        </RequireApproval>
        <Step id="try" prompt="echo" />
      </Agent>,
    );
    const events: RunEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === 'approval-request') handle.approve(event.request.id);
    }
    await handle.result;
    expect(events.find((event) => event.type === 'approval-request')).toMatchObject({
      request: { tool: 'everything_echo', input: { message: 'approved' } },
    });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      tool: 'everything_echo',
      output: { content: [{ text: 'Echo: approved' }] },
    });
  });

  test('no server process is left after a failure or an abort', async () => {
    // a failure: the step's model call fails after the server started
    const failing = streamModel([
      () => (expect(everythingProcesses()).toHaveLength(1), { error: new Error('provider down') }),
    ]);
    const failed = await run(
      <Agent model={failing} maxRetries={0}>
        <Everything />
        <Step id="s" prompt="p" />
      </Agent>,
    ).result.catch((error: Error) => error);
    expect((failed as Error).message).toContain('provider down');
    expect(everythingProcesses()).toEqual([]);

    // an abort during a step
    const handle = run(
      <Agent model={hangingModel([{ type: 'stream-start', warnings: [] }])}>
        <Everything />
        <Step id="s" prompt="p" />
      </Agent>,
    );
    for await (const event of handle.events) {
      if (event.type === 'step-start') {
        expect(everythingProcesses()).toHaveLength(1);
        handle.abort();
      }
    }
    expect((await rejectionOf(handle.result)).code).toBe('run-aborted');
    expect(everythingProcesses()).toEqual([]);
  });

  test('an abort while the server starts settles the run as aborted and ends the server', async () => {
    // a program that starts and never answers `initialize`
    const marker = 'june-test-silent-server';
    const Silent = defineMCPServer({
      name: 'Silent',
      command: process.execPath,
      args: ['-e', `setInterval(() => {}, 1000) // ${marker}`],
    });
    const model = streamModel([]);
    const handle = run(
      <Agent model={model}>
        <Silent />
        <Step id="s" prompt="p" />
      </Agent>,
    );
    await waitUntil(() => childProcesses(marker).length === 1, 'the silent server runs');
    handle.abort('stop');

    expect((await rejectionOf(handle.result)).code).toBe('run-aborted');
    expect(childProcesses(marker)).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('a server that does not answer in timeoutMs fails the run, naming it', async () => {
    const marker = 'june-test-mute-server';
    const Mute = defineMCPServer({
      name: 'Mute',
      command: process.execPath,
      args: ['-e', `setInterval(() => {}, 1000) // ${marker}`],
      timeoutMs: 300,
    });
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Mute />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );

    expect(error.code).toBe('mcp-connect-failed');
    expect(error.blame).toBe('system');
    expect(error.message).toMatch(
      /^june: the MCP server <Mute> \(command ".*"\) did not answer within 300 ms\. Check its command and args, or raise timeoutMs;/,
    );
    expect(childProcesses(marker)).toEqual([]);
  });

  test('a server that exits at once fails the run with a june: message naming it', async () => {
    const Broken = defineMCPServer({
      name: 'Broken',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
    });
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Broken />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );
    expect(error.code).toBe('mcp-connect-failed');
    expect(error.message).toMatch(
      /^june: the MCP server <Broken> \(command ".*"\) exited \(code 3\) before answering: /,
    );
  });

  test('under <Catch>, a server that fails to start is started afresh, then the fallback renders', async () => {
    const Broken = defineMCPServer({
      name: 'Broken',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
    });
    const handle = run(
      <Catch
        retries={1}
        fallback={() => (
          <Agent model={streamModel([{ text: 'Working without the server.' }])}>
            <Step id="offline" prompt="p" />
          </Agent>
        )}
      >
        <Agent model={streamModel([])}>
          <Broken />
          <Step id="s" prompt="p" />
        </Agent>
      </Catch>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);
    expect(result.output).toBe('Working without the server.');
    expect(events.flatMap((event) => (event.type === 'error' ? [event.error.code] : []))).toEqual([
      'mcp-connect-failed',
      'mcp-connect-failed',
    ]);
  });

  test('a command that does not exist fails the run, naming the server', async () => {
    const Missing = defineMCPServer({ name: 'Missing', command: 'june-no-such-command-xyz' });
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Missing />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );
    expect(error.code).toBe('mcp-connect-failed');
    expect(error.message).toContain(
      'june: the MCP server <Missing> (command "june-no-such-command-xyz") could not be started: spawn june-no-such-command-xyz ENOENT',
    );
  });

  test('env and cwd reach the server and never appear in the trace or the events', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'june-mcp-cwd-')));
    dirs.push(cwd);
    const secret = 'sekret-4b1d-value';
    const Configured = defineMCPServer({
      name: 'Configured',
      ...everythingCommand,
      env: { JUNE_TEST_TOKEN: secret },
      cwd,
    });
    let environment: Record<string, string> = {};
    let serverCwd = '';
    const model = streamModel([
      () => {
        const [pid] = everythingProcesses();
        environment = environmentOf(pid!);
        serverCwd = cwdOf(pid!);
        return { toolCalls: [{ id: 'c1', name: 'echo', input: { message: 'hi' } }] };
      },
      { text: 'done' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Configured />
        <Step id="s" prompt="p" />
      </Agent>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(environment.JUNE_TEST_TOKEN).toBe(secret);
    expect(environment.PATH).toBe(process.env.PATH);
    expect(Object.keys(environment).sort()).toEqual(expect.not.arrayContaining(['VITEST']));
    expect(serverCwd).toBe(cwd);
    for (const text of [JSON.stringify(result.trace), JSON.stringify(events)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(cwd);
    }
  });

  test('inspect() lists the server without starting it', async () => {
    const report = await inspect(
      <Agent model={streamModel([])} name="lead">
        <Namespace name="everything">
          <Everything />
        </Namespace>
        <Step id="s" prompt="p" />
      </Agent>,
    );
    expect(report.agents).toEqual([
      {
        path: 'lead',
        name: 'lead',
        tools: [],
        toolSources: ['<Everything> in <Namespace name="everything">'],
      },
    ]);
    expect(everythingProcesses()).toEqual([]);
  });

  test('defineMCPServer checks its options when it is called', () => {
    const invalid = (options: unknown) => {
      try {
        defineMCPServer(options as never);
      } catch (error) {
        return JuneError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      }
      return 'no error';
    };
    expect(invalid({ name: 'X' })).toBe(
      'mcp-server-invalid: june: defineMCPServer({ name: "X" }) needs one of a command (a server started over stdio) or a url (a server reached over HTTP).',
    );
    expect(invalid({ name: 'X', command: 'a', url: 'http://127.0.0.1/' })).toContain('not both');
    expect(invalid({ name: 'X', url: 'ftp://example.com/mcp?key=secret' })).toBe(
      'mcp-server-invalid: june: defineMCPServer({ name: "X" }) has the url "ftp://example.com/mcp"; use an http: or https: URL such as "https://example.com/mcp".',
    );
    expect(invalid({ name: 'X', command: 'a', timeoutMs: 0 })).toContain('timeoutMs 0');
    expect(invalid({ name: '', command: 'a' })).toContain('tool-source-invalid');
    expect(everythingScript).toMatch(/server-everything/);
  });
});
