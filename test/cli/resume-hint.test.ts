import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../mcp/support.js';
import {
  june,
  nodesOf,
  onlyTrace,
  repoRoot,
  startJune,
  tempProject,
  type RunningJune,
} from './cli-harness.js';

// A `june run` stopped while an approval waits prints the command that resumes it. Pasted
// into a shell, that command takes the run up the way it was started: the same --approve
// mode and the flags a resume needs.

const example = join(repoRoot, 'examples', 'release.tsx');
const script = join(repoRoot, 'examples', 'release.script.json');
let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
});
afterAll(() => project.remove());

/** Stops a run with Ctrl-C once its deploy waits for approval; what it printed. */
async function stopWhileWaiting(running: RunningJune) {
  await waitUntil(
    () => running.output().stdout.includes('? deploy needs approval'),
    'the deploy waits for approval',
    30_000,
  );
  process.kill(running.pid, 'SIGINT');
  return running.done;
}

/** The arguments after `june` of a printed command, split as a POSIX shell splits them. */
function shellWords(command: string): string[] {
  const words = execFileSync('bash', ['-c', `printf '%s\\0' ${command.replace(/^june /, '')}`], {
    encoding: 'utf8',
  });
  return words.split('\0').slice(0, -1);
}

describe('the resume line of a stopped june run', () => {
  it('carries --approve and the flags a resume needs, and resumes the run as it was started', async () => {
    const cwd = project.folder('wait');
    const pattern = 'sk-[a-z]+ end';
    const flags = ['--script', script, '--approve', 'wait', '--strict'];
    const redaction = ['--redact-env', 'RELEASE_TOKEN', '--redact-pattern', pattern];
    const env = { RELEASE_TOKEN: 'rt-0123456789' };
    const first = await stopWhileWaiting(
      startJune(['run', example, ...flags, ...redaction], cwd, env),
    );
    expect(first.code).toBe(130);
    const { runId } = onlyTrace(cwd);
    const printed = /^resume: (.*)$/m.exec(first.stdout)?.[1];
    expect(printed).toBe(
      `june run ${example} --script ${script} --strict --redact-env RELEASE_TOKEN --redact-pattern '${pattern}' --approve wait --resume ${runId}`,
    );

    // pasted: the resumed run waits for the approval again instead of asking at no terminal
    const args = shellWords(printed!);
    expect(args).toContain(pattern);
    const resumed = await stopWhileWaiting(startJune(args, cwd, env));
    expect(resumed.code).toBe(130);
    expect(resumed.stdout).toContain(' · resumed from its journal');
    expect(resumed.stdout).toContain(`resume: ${printed}`);
  }, 60_000);

  it('after a refusal under --approve all, adds the flag the refusal asks for, so the resume does not stop the same way', async () => {
    const cwd = project.folder('refused');
    const guards = join(repoRoot, 'examples', 'guards.tsx');
    const guardsScript = join(repoRoot, 'examples', 'guards.script.json');
    const first = await june(['run', guards, '--script', guardsScript, '--approve', 'all'], cwd);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/pass --approve-escalations to let --approve all answer it too/);
    const { runId } = onlyTrace(cwd);
    const printed = /^resume: (.*)$/m.exec(first.stdout)?.[1];
    expect(printed).toBe(
      `june run ${guards} --script ${guardsScript} --approve all --approve-escalations --resume ${runId}`,
    );
    const resumed = await june(shellWords(printed!), cwd);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const deploys = nodesOf(onlyTrace(cwd)).filter((node) => node.name === 'deploy');
    expect(deploys.at(-1)?.approval?.status).toBe('approved');
  }, 60_000);

  it('never repeats secret props given inline', async () => {
    const cwd = project.folder('secret');
    const secret = '{"apiToken":"tok-5e3cd9a1"}';
    const args = ['run', example, '--script', script, '--approve', 'wait'];
    const result = await stopWhileWaiting(startJune([...args, '--secret-props', secret], cwd));
    const { runId } = onlyTrace(cwd);
    expect(result.stdout).toContain(
      `resume: june run ${example} --script ${script} --approve wait --resume ${runId}`,
    );
    expect(result.stdout).not.toContain('tok-5e3cd9a1');
  }, 60_000);
});
