// Setup file of the unit lane: starting a process there fails the test that tried, naming the
// file that sorts tests into lanes. Node's child_process functions are replaced for this test
// process only (every process June or a library starts goes through them: bash, stdio
// servers, `june`, PostgreSQL, Chromium).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach } from 'vitest';

const starters = [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const;

const started: string[] = [];

for (const name of starters) {
  (childProcess as Record<string, unknown>)[name] = (command: unknown) => {
    const what = `${name}(${JSON.stringify(String(command))})`;
    started.push(what);
    throw new Error(
      `june tests: the unit lane starts no process, but this test called ${what}; ` +
        'list its file among the integration tests in test/lanes/lanes.ts',
    );
  };
}
syncBuiltinESMExports();

// A test that catches the error above still fails here.
afterEach(() => {
  const calls = started.splice(0);
  if (calls.length > 0)
    throw new Error(
      `june tests: the unit lane starts no process, but this test called ${calls.join(', ')}; ` +
        'list its file among the integration tests in test/lanes/lanes.ts',
    );
});
