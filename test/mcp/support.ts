// Helpers for MCP tests: where the real `server-everything` lives, and which server processes
// this test process has started (Linux /proc).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The entry script of `@modelcontextprotocol/server-everything` (its `mcp-server-everything` bin). */
export const everythingScript = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);

/** The options that start server-everything over stdio with this Node. */
export const everythingCommand = { command: process.execPath, args: [everythingScript, 'stdio'] };

/**
 * The pids of running (not zombie) children of this test process whose command line
 * contains `marker`.
 */
export function childProcesses(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || fields[0] === 'Z' || fields[0] === 'X') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Running server-everything processes started by this test process. */
export const everythingProcesses = () => childProcesses(everythingScript);

/** A process's environment variables (Linux). */
export function environmentOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** A process's working directory (Linux). */
export const cwdOf = (pid: number) => readlinkSync(`/proc/${pid}/cwd`);

/** Polls `check` until it returns true, every 20 ms, for at most `timeoutMs`. */
export async function waitUntil(
  check: () => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
