import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, parse, relative, resolve } from 'node:path';
import { WorkflowError } from '../errors/index.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { initFiles } from './init-files.js';
import { terminalStyle } from './terminal-style.js';

/**
 * The packages an initialised project needs, and whether as dev dependencies: the majors June
 * is built on (AI SDK 7, zod 4) and Node 24's types (June runs on Node 22 and 24).
 */
const needed = [
  { name: 'ai', spec: 'ai@7', dev: false },
  { name: 'zod', spec: 'zod@4', dev: false },
  { name: 'vitest', spec: 'vitest@4', dev: true },
  { name: 'typescript', spec: 'typescript', dev: true },
  { name: '@types/node', spec: '@types/node@24', dev: true },
] as const;

/**
 * `june init [dir]`: sets up a June project in `dir` (made if missing): tsconfig.json and
 * vitest.config.ts with June's JSX settings, a first workflow (`hello.tsx`) with its model
 * script, and a test that snapshots its `inspect()` report and runs it offline; plus a
 * package.json with `"type": "module"` when the folder has none. It writes nothing when one
 * of its files exists already. It then prints what to install and what to run.
 *
 * @param dir - the project folder, relative to the current directory. @default '.'
 * @throws {WorkflowError} `cli-init-conflict` when a file it would write exists (nothing is written).
 * @example
 * ```ts
 * process.exitCode = await initCommand('weather', processIO());
 * ```
 */
export async function initCommand(dir: string | undefined, io: CliIO): Promise<ExitCodeValue> {
  const folder = resolve(dir ?? '.');
  const label = relative(process.cwd(), folder) || '.';
  const existing = initFiles
    .filter((file) => existsSync(join(folder, file.path)))
    .map((file) => file.path);
  if (existing.length > 0) {
    const these = existing.length === 1 ? `${existing[0]} exists` : `${existing.join(', ')} exist`;
    throw new WorkflowError(
      'cli-init-conflict',
      `june: init writes nothing, since ${these} in ${label}; it never overwrites a file. Move ${existing.length === 1 ? 'it' : 'them'} aside, or run june init in a new folder (june init my-project).`,
    );
  }
  mkdirSync(folder, { recursive: true });
  const style = terminalStyle(io.stdout);
  const written = [...initFiles];
  const packageJson = join(folder, 'package.json');
  const moduleNote = packageTypeNote(packageJson);
  if (!existsSync(packageJson)) {
    const name =
      basename(folder)
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-') || 'workflows';
    const text = `${JSON.stringify({ name, private: true, type: 'module', scripts: { test: 'vitest run' } }, null, 2)}\n`;
    written.unshift({ path: 'package.json', purpose: 'the project, as ES modules', text });
  }
  for (const file of written) writeFileSync(join(folder, file.path), file.text, { flag: 'wx' });

  const width = Math.max(...written.map((file) => file.path.length));
  const lines = [
    style.bold(`june init: wrote ${written.length} files in ${label}`),
    ...written.map((file) => `  ${file.path.padEnd(width)}  ${style.dim(file.purpose)}`),
  ];
  if (moduleNote) lines.push(`june: warning: ${moduleNote.text}`);
  lines.push('next:', ...nextSteps(folder, label, moduleNote?.setType === true));
  io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.success;
}

/**
 * A warning when an existing package.json does not make `.ts`/`.tsx` files ES modules, and
 * whether `npm pkg set type=module` fixes it (it does not fix a file that is not JSON).
 */
function packageTypeNote(packageJson: string): { text: string; setType: boolean } | undefined {
  if (!existsSync(packageJson)) return undefined;
  try {
    if ((JSON.parse(readFileSync(packageJson, 'utf8')) as { type?: unknown }).type === 'module')
      return undefined;
  } catch {
    return {
      text: 'package.json is not valid JSON; fix it, and set "type": "module" in it (June is ES modules only).',
      setType: false,
    };
  }
  return {
    text: 'package.json has no "type": "module"; june run loads hello.tsx all the same, but tsc and editors read .ts and .tsx files as CommonJS, so type-checking fails: run npm pkg set type=module.',
    setType: true,
  };
}

function nextSteps(folder: string, label: string, notModule: boolean): string[] {
  const missing = needed.filter((pkg) => !installed(folder, pkg.name));
  const steps = label === '.' ? [] : [`  cd ${label}`];
  if (notModule) steps.push('  npm pkg set type=module');
  const deps = missing.filter((pkg) => !pkg.dev).map((pkg) => pkg.spec);
  const devDeps = missing.filter((pkg) => pkg.dev).map((pkg) => pkg.spec);
  if (deps.length) steps.push(`  npm install ${deps.join(' ')}`);
  if (devDeps.length) steps.push(`  npm install -D ${devDeps.join(' ')}`);
  steps.push(
    '  npx june run hello.tsx --script hello.script.json   # offline, from the script',
    '  npx vitest run                                      # the snapshot test',
  );
  return steps;
}

/** Whether `name` resolves from `folder`: a node_modules/<name>/package.json in it or a parent. */
function installed(folder: string, name: string): boolean {
  const { root } = parse(folder);
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name, 'package.json'))) return true;
    if (at === root) return false;
  }
}
