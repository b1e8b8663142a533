import type { ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPackages,
  lockedPackages,
  newProject,
  packJune,
  runIn,
  startIn,
} from '../helpers/packed-june.js';

// The install route the docs give (docs/getting-started.md): June packed with `npm pack`,
// installed from the tarball into a new project of the user's own, then `june init`,
// `june run --script`, the generated vitest test, and `june studio`. Installing reaches the
// npm registry only for what npm's cache lacks (--prefer-offline): after `npm ci` in this
// repository, the versions below are all there.

let work: string;
let project: string;
let studio: ChildProcess | undefined;

const sh = (command: string, args: string[]) => runIn(project, command, args);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'june-packed-'));
  const tarball = await packJune(work);
  project = newProject(join(work, 'weather'));
  await installPackages(project, [
    tarball,
    ...lockedPackages(['ai', 'zod', 'vitest', 'typescript', '@types/node']),
  ]);
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
    const started = startIn(project, join(project, 'node_modules', '.bin', 'june'), [
      'studio',
      '--port',
      '0',
    ]);
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
