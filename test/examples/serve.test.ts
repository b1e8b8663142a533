// examples/serve as docs/serving.md runs it: `june serve examples/release.tsx --script ...`
// in one process, examples/serve/call-release.ts (the official MCP client) calling it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { callReleaseOverA2a } from '../../examples/serve/call-release-a2a.js';
import { callRelease } from '../../examples/serve/call-release.js';
import { repoRoot, startJune, type RunningJune } from '../cli/cli-harness.js';

let server: RunningJune | undefined;
let runs: string | undefined;
afterEach(async () => {
  if (server) {
    process.kill(server.pid, 'SIGINT');
    expect((await server.done).code).toBe(0);
  }
  if (runs) rmSync(runs, { recursive: true, force: true });
});

it('june serve serves examples/release.tsx, and the example client approves its deploy', async () => {
  runs = mkdtempSync(join(tmpdir(), 'june-serve-example-'));
  server = startJune(
    [
      'serve',
      'examples/release.tsx',
      '--script',
      'examples/release.script.json',
      '--port',
      '0',
      '--dir',
      runs,
    ],
    repoRoot,
  );
  const printed = await waitFor(() => {
    const { stdout } = server!.output();
    const url = /June MCP server: (\S+) serves release/.exec(stdout)?.[1];
    const token = /Token: (\S+) \(client "local"/.exec(stdout)?.[1];
    return url && token ? { url, token } : undefined;
  });
  const lines: string[] = [];
  const text = await callRelease(printed.url, printed.token, (line) => lines.push(line));
  expect(text).toBe('Done: I checked the 1.2.0 changelog and asked to deploy it to staging.');
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^asked: Approve the call of the tool "deploy"/),
      'progress: step release started',
      'progress: approved through mcp',
      `result: ${text}`,
    ]),
  );
});

it('june serve --a2a serves it as an A2A agent too, and the example A2A client approves its deploy', async () => {
  runs = mkdtempSync(join(tmpdir(), 'june-serve-example-'));
  server = startJune(
    [
      'serve',
      'examples/release.tsx',
      '--script',
      'examples/release.script.json',
      '--a2a',
      '--port',
      '0',
      '--dir',
      runs,
    ],
    repoRoot,
  );
  const printed = await waitFor(() => {
    const { stdout } = server!.output();
    const url = /June A2A agent: (\S+)/.exec(stdout)?.[1];
    const token = /Token: (\S+) \(client "local"/.exec(stdout)?.[1];
    return url && token ? { origin: new URL(url).origin, token } : undefined;
  });
  const lines: string[] = [];
  const output = await callReleaseOverA2a(printed.origin, printed.token, (line) =>
    lines.push(line),
  );
  expect(output).toEqual({
    result: 'Done: I checked the 1.2.0 changelog and asked to deploy it to staging.',
  });
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^asked: Approve the call of the tool "deploy"/),
      'progress: step release started',
      'progress: approved through a2a',
    ]),
  );
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`waited too long: ${JSON.stringify(server?.output())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
