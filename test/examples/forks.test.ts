// examples/forks/fork-offline.tsx as docs/forks.md runs it (`npx tsx ...`): it records the
// example release offline, lists its records, and forks it twice; each fork replays its
// prefix and names the run it came from.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

describe('examples/forks/fork-offline.tsx', () => {
  it('records the release and forks it at the tracker result and at the approval', () => {
    const ran = spawnSync(process.execPath, [tsx, 'examples/forks/fork-offline.tsx'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    });
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    const lines = ran.stdout.split('\n');
    const recorded = /^recorded (\S+): Released 1\.2 to prod\.$/.exec(lines[0]!)?.[1];
    expect(recorded).toBeDefined();
    expect(lines).toContain(
      '  4. tool issues plan#0.0/summarize#0.0/answer#0.0  issues {"milestone":"1.2"} → "no open issues in 1.2"',
    );
    expect(ran.stdout).toMatch(
      // with a blocker, the script's other path: the release stops before the deploy
      /fork \S+ at tool issues plan#0\.0\/summarize#0\.0\/answer#0\.0: Not releasing 1\.2: the login bug blocks it\./,
    );
    expect(ran.stdout).toMatch(
      // denied, the deploy does not run and the model says so
      /fork \S+ at approval deploy plan#1\.0: Not released: the deploy to prod was denied\./,
    );
    expect(
      lines.filter((line) => line === `  forked from ${recorded}; 3 answers replayed`),
    ).toHaveLength(2);
  }, 60_000);
});
