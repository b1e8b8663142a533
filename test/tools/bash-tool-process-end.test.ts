import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../cli/cli-harness.js';
import { waitUntil } from '../mcp/support.js';
import { isRunning } from '../helpers/processes.js';

// A program that uses bashTool() and ends while a command runs: by process.exit() (what a
// second Ctrl-C does), or killed with SIGKILL (nothing of it runs any more). Either way the
// command's whole process group ends, even processes that ignore SIGTERM. Checked by pid.

let project: ReturnType<typeof tempProject>;

beforeAll(() => {
  project = tempProject();
  project.write(
    'program.mjs',
    `import { readFileSync } from 'node:fs';
import { bashTool } from 'june/tools';

const bash = bashTool({ cwd: process.cwd(), needsApproval: false, timeoutMs: 600_000 });
const command = 'trap "" TERM; sleep 300 & echo $! > sleep.pid; echo $$ > bash.pid; wait';
bash.execute({ command }, { toolCallId: 'x', messages: [] });
// END=exit: leaves with process.exit() once the command runs; otherwise waits to be killed
setInterval(() => {
  try {
    if (process.env.END === 'exit' && Number(readFileSync('sleep.pid', 'utf8')) > 0) process.exit(3);
  } catch {}
}, 20);
`,
  );
});
afterAll(() => project.remove());

const pidIn = (path: string) => (existsSync(path) ? Number(readFileSync(path, 'utf8').trim()) : 0);

async function startProgram(name: string, end: 'exit' | 'kill') {
  const cwd = project.folder(name);
  const child = spawn(process.execPath, ['../program.mjs'], {
    cwd,
    env: { ...process.env, END: end },
    stdio: 'ignore',
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await waitUntil(
    () => pidIn(join(cwd, 'sleep.pid')) > 0 && pidIn(join(cwd, 'bash.pid')) > 0,
    'the command started',
    30_000,
  );
  return { child, exited, pids: [pidIn(join(cwd, 'bash.pid')), pidIn(join(cwd, 'sleep.pid'))] };
}

describe.runIf(process.platform === 'linux')('bashTool() when its process ends first', () => {
  it('process.exit() mid-command kills the whole group at once', async () => {
    const { exited, pids } = await startProgram('exit', 'exit');
    expect(await exited).toEqual({ code: 3, signal: null });
    // SIGKILL was sent before the process was gone: no grace to wait for
    await waitUntil(() => !pids.some(isRunning), 'bash and sleep ended', 1000);
  });

  it('kill -9 mid-command: the group ends without the process (SIGTERM, then SIGKILL after the grace)', async () => {
    const { child, exited, pids } = await startProgram('kill', 'kill');
    expect(pids.every(isRunning)).toBe(true);
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    await waitUntil(() => !pids.some(isRunning), 'bash and sleep ended', 10_000);
  });
});
