import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Trace } from 'june';

/** The repository's root folder. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The built CLI (`npm test` builds it first, through the `pretest` script). */
export const bin = join(repoRoot, 'dist', 'src', 'cli', 'bin.js');

/** What a `june` process did. */
export interface JuneProcess {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `june` process. */
export interface RunningJune {
  pid: number;
  /** What it printed so far. */
  output(): { stdout: string; stderr: string };
  done: Promise<JuneProcess>;
}

/**
 * Starts `node dist/src/cli/bin.js ...args` in `cwd`, with no terminal (stdin, stdout and
 * stderr are pipes) and no OpenAI settings unless `env` gives some (a fake server on
 * 127.0.0.1), so nothing can reach the network.
 */
export function startJune(
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
): RunningJune {
  if (!existsSync(bin))
    throw new Error(
      `${bin} is missing: run \`npm run build\` first (npm test does it through pretest).`,
    );
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  delete env.FORCE_COLOR;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<JuneProcess>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { pid: child.pid!, output: () => ({ stdout, stderr }), done };
}

/** Runs `june ...args` in `cwd` to the end. */
export function june(
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
): Promise<JuneProcess> {
  return startJune(args, cwd, extraEnv).done;
}

/**
 * A temporary project outside the repository, as a user would have one: a package.json with
 * `"type": "module"`, no tsconfig.json, and `june`, `ai` and `zod` in node_modules (links to
 * this repository and its dependencies). Workflows written here import `june` by name.
 */
export function tempProject(): {
  dir: string;
  write(name: string, text: string): string;
  folder(name: string): string;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'june-cli-test-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'june'), 'dir');
  for (const name of ['ai', 'zod'])
    symlinkSync(join(repoRoot, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  return {
    dir,
    write(name, text) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
    folder(name) {
      mkdirSync(join(dir, name), { recursive: true });
      return join(dir, name);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The traces `june run` wrote under `<cwd>/.june/runs/`, by file name. */
export function traces(cwd: string): Map<string, Trace> {
  const folder = join(cwd, '.june', 'runs');
  if (!existsSync(folder)) return new Map();
  return new Map(
    readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name, JSON.parse(readFileSync(join(folder, name), 'utf8')) as Trace]),
  );
}

/** The one trace a run wrote in `cwd`; fails when there is not exactly one. */
export function onlyTrace(cwd: string): Trace {
  const all = [...traces(cwd).values()];
  if (all.length !== 1)
    throw new Error(`expected one trace in ${cwd}/.june/runs, found ${all.length}`);
  return all[0]!;
}

/** Every node of a trace tree, depth first. */
export function nodesOf(trace: Trace): Trace['root'][] {
  const out: Trace['root'][] = [];
  const walk = (node: Trace['root']) => {
    out.push(node);
    node.children.forEach(walk);
  };
  walk(trace.root);
  return out;
}

/** The ids of the processes below `pid` (children, their children...), read from /proc. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // pid (comm) state ppid ...: the command may hold spaces and parentheses
      const stat = readFileSync(join('/proc', name, 'stat'), 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended while the list was read
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, of] of parents)
      if (of === parent) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
}

/** `june ...args` in `cwd` under util-linux `script`, on a pseudo-terminal of its own, offline. */
function spawnOnTerminal(args: string[], cwd: string) {
  const command = [process.execPath, bin, ...args]
    .map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return spawn('script', ['-qefc', command, '/dev/null'], {
    cwd,
    env: { ...process.env, TERM: 'xterm', COLUMNS: '100', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  });
}

/**
 * Starts `june ...args` in `cwd` on a pseudo-terminal of its own (util-linux `script`) and
 * returns at once: `screen()` is what it drew so far, and `closeTerminal()` kills `script`,
 * which closes the terminal under `june` as closing a terminal window does.
 */
export function startJuneOnTerminal(
  args: string[],
  cwd: string,
): { screen(): string; closeTerminal(): void } {
  const child = spawnOnTerminal(args, cwd);
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
  return { screen: () => screen, closeTerminal: () => void child.kill('SIGKILL') };
}

/**
 * Runs `june` on a pseudo-terminal (util-linux `script`), answering each prompt once the
 * screen shows its `when` text after where the previous answer's `when` was seen: the same
 * prompt text comes again for the next question or a prompt asked again, and keys typed
 * before a prompt is on screen would be lost between prompts. An answer with `type: ''` only
 * moves past a text (an error line) to wait for the prompt that follows it.
 *
 * With `killAt`, once every answer was typed and the screen then shows that text, the `june`
 * process itself (not `script`) is killed with SIGKILL, as `kill -9` would: nothing of it
 * runs after that, and `script` ends with it (`beforeKill`, when given, is awaited first).
 * `killed` says whether that happened.
 */
export function juneOnTerminal(
  args: string[],
  cwd: string,
  answers: Array<{ when: string; type: string }>,
  options: { killAt?: string; beforeKill?: () => Promise<void> } = {},
): Promise<{ code: number | null; screen: string; killed: boolean }> {
  const child = spawnOnTerminal(args, cwd);
  let screen = '';
  let from = 0;
  let killing = false;
  let killed = false;
  let failed: Error | undefined;
  const pending = [...answers];
  const killJune = () => {
    const june = descendantsOf(child.pid!).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(bin);
      } catch {
        return false;
      }
    });
    if (june === undefined) {
      child.kill('SIGKILL');
      failed = new Error('the june process under script was not found');
    } else process.kill(june, 'SIGKILL');
    killed = true;
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    for (;;) {
      const next = pending[0];
      const at = next ? screen.indexOf(next.when, from) : -1;
      if (!next || at === -1) break;
      from = at + next.when.length;
      pending.shift();
      child.stdin.write(next.type);
    }
    if (options.killAt === undefined || killing || pending.length > 0) return;
    if (screen.indexOf(options.killAt, from) === -1) return;
    killing = true;
    Promise.resolve(options.beforeKill?.()).then(killJune, (error: unknown) => {
      failed = error as Error;
      child.kill('SIGKILL');
    });
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (failed ? reject(failed) : resolve({ code, screen, killed })));
  });
}
