// June as a user gets it: packed with `npm pack` from this repository's dist/, and installed
// from the tarball into new projects outside the repository (docs/getting-started.md's route).
// Installs reach the npm registry only for what npm's cache lacks (`--prefer-offline`), and ask
// for the exact versions this repository's lockfile holds, which `npm ci` put in that cache.
//
//   const work = mkdtempSync(join(tmpdir(), 'june-x-'));
//   const tarball = await packJune(work);
//   const project = newProject(join(work, 'app'));
//   await installPackages(project, [tarball, ...lockedPackages(['ai', 'zod'])]);
//   const ran = await runIn(project, process.execPath, ['--import', 'tsx', 'main.tsx']);
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../cli/cli-harness.js';

/** What a process did. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A started process: the child, its end, and what it printed so far. */
export interface Started {
  child: ChildProcess;
  done: Promise<Ran>;
  stdout(): string;
}

/**
 * The environment of a user's shell: no vitest or npm-script variables of this test run, no
 * OpenAI settings, no colours; `extra` is added over it. What reaching the registry needs
 * stays: proxies, npm's registry, cache and config, and the certificates to trust (a proxy's
 * own CA; without it every registry request fails and is retried, which takes minutes).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const pass =
    /^(PATH|HOME|TMPDIR|https?_proxy|no_proxy|npm_config_(registry|cache|userconfig|cafile)|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/i;
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => pass.test(name))),
    NO_COLOR: '1',
    ...extra,
  };
}

/** Starts `command args` in `cwd` with {@link userEnv} (plus `env`), stdin closed. */
export function startIn(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Started {
  const child = spawn(command, args, {
    cwd,
    env: userEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<Ran>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done, stdout: () => stdout };
}

/** Runs `command args` in `cwd` to its end (see {@link startIn}). */
export const runIn = (
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Ran> => startIn(cwd, command, args, env).done;

/** `ran`'s exit code with its output, for an assertion message. */
export const described = (what: string, ran: Ran) =>
  `${what} exited with ${ran.code}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`;

/**
 * The version of `name` in this repository's package-lock.json (the copy at the top of its
 * node_modules), so that a project installing it is served from npm's cache.
 * @throws {Error} when the lockfile has no such package.
 */
export function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (version === undefined)
    throw new Error(
      `package-lock.json has no node_modules/${name}: add it to package.json's devDependencies, or install it at a version the lockfile has`,
    );
  return version;
}

/** `name@<locked version>` for each name (see {@link lockedVersion}). */
export const lockedPackages = (names: readonly string[]) =>
  names.map((name) => `${name}@${lockedVersion(name)}`);

/**
 * Packs June from this repository's dist/ as it is (no build: `npm test` builds it first) into
 * `folder`, and returns the tarball's path.
 * @throws {Error} when dist/ or Studio's built UI is missing, or `npm pack` fails.
 */
export async function packJune(folder: string): Promise<string> {
  for (const [file, build] of [
    ['dist/src/index.js', 'npm run build'],
    ['dist/studio/index.html', 'npm run build:studio'],
  ] as const)
    if (!existsSync(join(repoRoot, file)))
      throw new Error(`${file} is missing: run ${build} first (npm install does both)`);
  const pack = await runIn(repoRoot, 'npm', [
    'pack',
    '--ignore-scripts',
    '--pack-destination',
    folder,
  ]);
  if (pack.code !== 0) throw new Error(described('npm pack', pack));
  const tarball = readdirSync(folder).find((name) => /^june-.*\.tgz$/.test(name));
  if (tarball === undefined) throw new Error(`npm pack wrote no june-*.tgz into ${folder}`);
  return join(folder, tarball);
}

/** Makes `folder` a new ESM project (`package.json` with `"type": "module"`) and returns it. */
export function newProject(folder: string): string {
  mkdirSync(folder, { recursive: true });
  const name = folder.split('/').at(-1)!;
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`,
  );
  return folder;
}

/**
 * `npm install --prefer-offline` of `specs` (tarball paths, `name@version`) into `project`.
 * @throws {Error} when npm fails, with its output.
 */
export async function installPackages(project: string, specs: readonly string[]): Promise<void> {
  const install = await runIn(project, 'npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    ...specs,
  ]);
  if (install.code !== 0) throw new Error(described(`npm install in ${project}`, install));
}
