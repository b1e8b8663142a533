// Installs the packages that only some parts of this repository use, each beside what uses it,
// so that `npm install` at the top brings only June, its build and its main example:
//   bench           bench/deps           Mastra, the OpenAI Agents SDK, tinybench (npm run bench)
//   test            test/deps            playwright-core and a packaged Chromium (npm test)
//   evals           examples/evals/deps  evalite and its native SQLite store (npm test, the example)
// Usage: node scripts/extra-deps.mjs [bench] [test] [evals] (none: all three). Each group is
// installed with `npm ci` from its own lock file into <folder>/deps/node_modules, and
// <folder>/node_modules/<name> links there for each package the group names, so the files of
// that folder import them by name while staying in June's own package (their `june` imports
// still resolve to this repository, and their other imports to the top node_modules).
// Peer dependencies (ai, zod, vitest, ...) are not installed again: they resolve to the top
// node_modules, the same copies June uses. A group whose lock file has not changed since its
// install is skipped.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const groups = { bench: 'bench', test: 'test', evals: 'examples/evals' };

const asked = process.argv.slice(2);
for (const name of asked) {
  if (!(name in groups)) {
    console.error(
      `june: no extra dependencies named ${name}; the groups: ${Object.keys(groups).join(', ')}.`,
    );
    process.exit(1);
  }
}

for (const name of asked.length > 0 ? asked : Object.keys(groups)) {
  const folder = join(root, groups[name]);
  const deps = join(folder, 'deps');
  const lock = readFileSync(join(deps, 'package-lock.json'), 'utf8');
  const stamp = join(deps, 'node_modules', '.installed-lock.json');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
    console.error(`june: installing the ${name} dependencies (${groups[name]}/deps)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(
      npm,
      ['ci', '--prefix', deps, '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error'],
      { stdio: 'inherit', shell: process.platform === 'win32' },
    );
    if (result.status !== 0) process.exit(result.status ?? 1);
    writeFileSync(stamp, lock);
  }
  link(folder, deps);
}

/**
 * `<folder>/node_modules/<name>` -> `deps/node_modules/<name>` for each package the group names
 * (and `.bin`), so that the folder's files find those packages and nothing else there: a copy of
 * `ai` or `@ai-sdk/provider` that one of them depends on stays out of the folder's own imports,
 * which keep resolving to the top node_modules.
 */
function link(folder, deps) {
  const names = Object.keys(
    JSON.parse(readFileSync(join(deps, 'package.json'), 'utf8')).dependencies,
  );
  const at = join(folder, 'node_modules');
  if (lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(at);
  for (const name of [...names, '.bin']) {
    const from = join(at, name);
    const to = join(deps, 'node_modules', name);
    if (lstatSync(from, { throwIfNoEntry: false }) !== undefined)
      rmSync(from, { recursive: true, force: true });
    mkdirSync(dirname(from), { recursive: true });
    symlinkSync(relative(dirname(from), to), from, 'dir');
  }
}
