import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './cli-harness.js';

// The install route the docs give (docs/getting-started.md): June packed with `npm pack`,
// installed from the tarball into a new project of the user's own, then `june init`,
// `june run --script`, the generated vitest test, and `june studio`. Installing reaches the
// npm registry only for what npm's cache lacks (--prefer-offline): after `npm ci` in this
// repository, the versions below are all there.

let work: string;
let project: string;
let studio: ChildProcess | undefined;

/** The environment of a user's shell: no vitest or npm-script variables of this test run. */
function userEnv(): NodeJS.ProcessEnv {
  const pass = /^(PATH|HOME|TMPDIR|https?_proxy|no_proxy|npm_config_(registry|cache|userconfig))$/i;
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => pass.test(name))),
    NO_COLOR: '1',
  };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(
  command: string,
  args: string[],
  cwd: string,
): { child: ChildProcess; done: Promise<Ran>; stdout: () => string } {
  const child = spawn(command, args, { cwd, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
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

const sh = (command: string, args: string[], cwd = project) => start(command, args, cwd).done;

/** The version of a package installed in this repository, so the user's install hits the npm cache. */
const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

beforeAll(async () => {
  expect(
    existsSync(join(repoRoot, 'dist', 'studio', 'index.html')),
    "Studio's UI is not built: run npm run build:studio (npm install does)",
  ).toBe(true);
  work = mkdtempSync(join(tmpdir(), 'june-packed-'));
  // dist/ is built already (npm test's pretest): pack it as it is
  const pack = await sh('npm', ['pack', '--ignore-scripts', '--pack-destination', work], repoRoot);
  expect(pack.code, pack.stderr).toBe(0);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;

  project = join(work, 'weather');
  await sh('mkdir', [project], work);
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "weather", "private": true, "type": "module" }\n',
  );
  const install = await sh('npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    join('..', tarball),
    `ai@${versionOf('ai')}`,
    `zod@${versionOf('zod')}`,
    `vitest@${versionOf('vitest')}`,
    `typescript@${versionOf('typescript')}`,
    `@types/node@${versionOf('@types/node')}`,
  ]);
  expect(install.code, install.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  if (studio && studio.exitCode === null) {
    const exited = new Promise((resolve) => studio!.once('close', resolve));
    studio.kill();
    await exited;
  }
  if (work) await rm(work, { recursive: true, force: true });
}, 60_000);

describe('June installed from its packed tarball into a new project', () => {
  it('is a copy of the package, not a link to the repository, with its license and docs', () => {
    const installed = join(project, 'node_modules', 'june');
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(
      JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies.june,
    ).toMatch(/^file:.*june-0\.1\.0\.tgz$/);
    for (const file of [
      'LICENSE',
      'README.md',
      'docs/getting-started.md',
      'dist/studio/index.html',
    ])
      expect(existsSync(join(installed, file)), file).toBe(true);
    // June's devDependencies (an MCP test server, benchmark peers) stay out of the user's project
    expect(
      existsSync(join(project, 'node_modules', '@modelcontextprotocol', 'server-everything')),
    ).toBe(false);
  });

  it(
    'june init, june run --script, and the generated vitest test pass',
    { timeout: 180_000 },
    async () => {
      const init = await sh('npx', ['june', 'init']);
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);

      const runs = await sh('npx', ['june', 'run', 'hello.tsx', '--script', 'hello.script.json']);
      expect(runs.stderr).toBe('');
      expect(runs.stdout).toContain('✓ succeeded');
      expect(runs.code).toBe(0);

      const vitest = await sh('npx', ['vitest', 'run']);
      expect(vitest.code, vitest.stdout + vitest.stderr).toBe(0);
      expect(vitest.stdout).toMatch(/Tests\s+2 passed/);
    },
  );

  it('june studio serves its UI', { timeout: 60_000 }, async () => {
    // the installed bin itself, not through npx, so that stopping it stops Studio
    const started = start(
      join(project, 'node_modules', '.bin', 'june'),
      ['studio', '--port', '0'],
      project,
    );
    studio = started.child;
    const url = await new Promise<string>((resolve, reject) => {
      started.child.stdout!.on('data', () => {
        const found = /June Studio: (http:\/\/\S+)/.exec(started.stdout());
        if (found) resolve(found[1]!);
      });
      started.done.then(
        (ran) => reject(new Error(`june studio exited with ${ran.code}: ${ran.stderr}`)),
        reject,
      );
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"');
  });
});
