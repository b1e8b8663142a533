// `june evals check`: evalite loads better-sqlite3 (its results store, a native module) before
// any of June's code runs, so a build for another Node.js fails `evalite run` with a stack
// trace. The check loads it the way evalite does and says what is wrong in one `june:` line,
// with the command that rebuilds it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { june, repoRoot } from './cli-harness.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project with evalite and a better-sqlite3 whose native addon does not load, with `addonError(dir)`. */
function projectWithStore(addonError: (dir: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'june-evals-check-'));
  dirs.push(dir);
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  write('package.json', '{ "type": "module" }\n');
  write(
    'node_modules/evalite/package.json',
    JSON.stringify({ name: 'evalite', version: '0.19.0', type: 'module', exports: './index.js' }),
  );
  write('node_modules/evalite/index.js', 'export {};\n');
  write(
    'node_modules/better-sqlite3/package.json',
    JSON.stringify({ name: 'better-sqlite3', version: '11.10.0', main: 'database.js' }),
  );
  // as better-sqlite3 does: the addon loads when the first database opens
  write(
    'node_modules/better-sqlite3/database.js',
    `module.exports = function Database() {
  const error = new Error(${JSON.stringify(addonError(dir))});
  error.code = 'ERR_DLOPEN_FAILED';
  throw error;
};\n`,
  );
  return dir;
}

/** Node's own words for an addon built against another Node's headers. */
const mismatch = (dir: string) =>
  `The module '${dir}/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION ${process.versions.modules}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`;

describe('june evals check', () => {
  it('names a better-sqlite3 built for another Node in one line, with the command that rebuilds it, and exits 1', async () => {
    const dir = projectWithStore(mismatch);
    const result = await june(['evals', 'check'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const nodeDir = dirname(dirname(process.execPath));
    expect(result.stderr).toBe(
      `june: evalite cannot open its results database: better-sqlite3 (${dir}/node_modules/better-sqlite3) was built for another Node.js (NODE_MODULE_VERSION 115), and this one (${process.version}) needs NODE_MODULE_VERSION ${process.versions.modules}. Rebuild it for this Node: cd ${dir} && npm_config_nodedir=${nodeDir} npm rebuild better-sqlite3\n`,
    );
  });

  it('says what else keeps it from loading, with the same command', async () => {
    const dir = projectWithStore(() => 'Could not locate the bindings file.');
    const result = await june(['evals', 'check'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^june: evalite cannot open its results database: better-sqlite3 \(.*\) does not load in Node\.js v[\d.]+: Could not locate the bindings file\. Rebuild it for this Node: cd .* npm rebuild better-sqlite3\n$/,
    );
  });

  it('tells a folder without evalite how to install it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'june-evals-check-'));
    dirs.push(dir);
    const result = await june(['evals', 'check'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `june: cannot find evalite from ${dir}: install it in the project with npm install --save-dev evalite vitest.\n`,
    );
  });

  it("passes where evalite's store loads: the examples' folder", async () => {
    const result = await june(['evals', 'check'], join(repoRoot, 'examples/evals'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^june: evalite 0\.19\.\d+ can keep its results: better-sqlite3 [\d.]+ loads in Node\.js v[\d.]+ \(NODE_MODULE_VERSION \d+\)\.\n$/,
    );
  });
});
