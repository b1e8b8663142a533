import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inspect, run, type RunEvent, type Trace } from 'june';
import { scriptedModel } from 'june/testing';
import McpTools from '../../examples/mcp.js';
import { everythingProcesses } from '../mcp/support.js';

const scriptPath = fileURLToPath(new URL('../../examples/mcp.script.json', import.meta.url));
const examplePath = fileURLToPath(new URL('../../examples/mcp.tsx', import.meta.url));
const cliPath = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('examples/mcp.tsx', () => {
  it('inspect() lists the server without starting it', async () => {
    const report = await inspect(McpTools);
    expect(report.agents).toEqual([
      {
        path: 'assistant',
        name: 'assistant',
        tools: [],
        toolSources: ['<Everything> in <RequireApproval> in <Namespace name="everything">'],
      },
    ]);
    expect(everythingProcesses()).toEqual([]);
  });

  it('calls echo and get-sum on the real server with the scripted model; each call is approved; the server stops', async () => {
    const model = scriptedModel(scriptPath);
    const handle = run(McpTools, { model, onApproval: () => true });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(
      events.flatMap((event) =>
        event.type === 'approval-response' ? [[event.approved, event.automatic]] : [],
      ),
    ).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(
      events.flatMap((event) => (event.type === 'tool-result' ? [[event.tool, event.output]] : [])),
    ).toEqual([
      [
        'everything_echo',
        { content: [{ type: 'text', text: 'Echo: hello from June' }], isError: false },
      ],
      [
        'everything_get-sum',
        { content: [{ type: 'text', text: 'The sum of 19 and 23 is 42.' }], isError: false },
      ],
    ]);
    expect(result.output).toEqual({
      echo: 'The server echoed: hello from June.',
      sum: '19 + 23 = 42, says the server.',
    });
    expect(result.trace.root.children[0]!.capabilities).toContainEqual({
      name: 'everything_get-sum',
      source: '<Everything> in <RequireApproval> in <Namespace name="everything">',
    });
    expect(everythingProcesses()).toEqual([]);
    model.assertAllTurnsUsed();
  });

  it(
    'runs with `june run --script --approve all` and exits 0 (the built CLI)',
    { timeout: 90_000 },
    async () => {
      expect(existsSync(cliPath), 'dist/ is missing: run npm run build').toBe(true);
      const cwd = mkdtempSync(join(tmpdir(), 'june-mcp-example-'));
      dirs.push(cwd);
      const cli = spawnSync(
        process.execPath,
        [cliPath, 'run', examplePath, '--script', scriptPath, '--approve', 'all'],
        {
          cwd,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 60_000,
        },
      );

      expect(cli.status, cli.stderr).toBe(0);
      expect(cli.stdout).toContain('Echo: hello from June');
      expect(cli.stdout).toContain('The sum of 19 and 23 is 42.');
      const [traceFile] = readdirSync(join(cwd, '.june', 'runs')).filter((name) =>
        name.endsWith('.json'),
      );
      const trace = JSON.parse(
        readFileSync(join(cwd, '.june', 'runs', traceFile!), 'utf8'),
      ) as Trace;
      expect(trace.status).toBe('succeeded');
    },
  );
});
