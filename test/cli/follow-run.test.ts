// june run's one follow loop (src/cli/follow-run.ts) as a function of a run host: the same
// cases against a host in memory and a runs folder whose runs this process runs, so nothing
// in the loop asks which host it follows (the database's is followed in
// test/dbos/run-flags-hosts.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/cli-io.js';
import { followRun } from '../../src/cli/follow-run.js';
import type { RunSession } from '../../src/cli/run-session.js';
import { queuedStopSignals } from '../../src/cli/stop-signals.js';
import type { HostRunRequest, RunHost } from '../../src/host/run-host.js';
import type { HostUnderTest } from '../host/host-contract.js';
import { localHost, memoryHost } from '../host/hosts-under-test.js';

/** What the loop writes, off a terminal (no prompts). */
function output() {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdin: { isTTY: false },
    stdout: { isTTY: false, write: (text: string) => void (out.stdout += text) },
    stderr: { isTTY: false, write: (text: string) => void (out.stderr += text) },
  } as unknown as CliIO;
  return { out, io };
}

/** A session of a run the host started: all the loop knows of it. */
function sessionOf(host: RunHost, runId: string): RunSession {
  const signals = queuedStopSignals();
  return {
    host,
    runId,
    headline: `june run desk · run ${runId}\n`,
    signals,
    report: { traceFile: async () => ({}) },
    close: async () => signals.off(),
  };
}

describe.each([
  ['memory', memoryHost],
  ['a runs folder run here', localHost],
])('the follow loop on %s', (_name, makeHost) => {
  let subject: HostUnderTest;
  let host: RunHost;
  beforeEach(async () => {
    subject = await makeHost();
    host = subject.host;
  });
  afterEach(() => subject.close());

  const follow = async (
    request: Omit<HostRunRequest, 'workflow'>,
    approve?: 'ask' | 'wait' | 'all',
  ) => {
    const runId = await host.start({ workflow: subject.workflow, ...request });
    const { out, io } = output();
    const session = sessionOf(host, runId);
    try {
      const code = await followRun(session, approve ? { approve } : {}, io);
      return { code, out, runId, trace: await host.result(runId) };
    } finally {
      await session.close();
    }
  };

  it('shows the run and its end: exit 0 for a run that succeeded', async () => {
    const { code, out } = await follow({ props: { mode: 'quick' } });
    expect(code).toBe(0);
    expect(out.stdout).toMatch(/^june run desk · run \S+\n/);
    expect(out.stdout).toContain('quick done');
    expect(out.stdout).toMatch(/✓ succeeded in /);
    expect(out.stderr).toBe('');
  });

  it("a request the run's policy answers is not asked here", async () => {
    const { code, out, trace } = await follow(
      { props: { mode: 'deploy' }, policy: { approve: 'all' } },
      'all',
    );
    expect(code).toBe(0);
    expect(out.stdout).toContain('✓ approved deploy (automatic)');
    expect(trace.status).toBe('succeeded');
  });

  it('a request nobody here can answer refuses the run through the host, with the june: line', async () => {
    const { code, out, trace } = await follow({ props: { mode: 'deploy' } }, 'ask');
    expect(code).toBe(1);
    expect(out.stderr).toBe(
      'june: the tool "deploy" in step "work" needs approval, but there is no terminal to ask at; pass --approve all to approve every request, or --approve none to deny them.\n',
    );
    expect(out.stdout).toMatch(/■ aborted after /);
    expect(trace.status).toBe('aborted');
    expect(trace.root.error?.message).toContain('needs approval, but there is no terminal');
  });

  it('with --approve wait, an answer given through the host elsewhere ends the wait', async () => {
    const runId = await host.start({ workflow: subject.workflow, props: { mode: 'deploy' } });
    const { out, io } = output();
    const session = sessionOf(host, runId);
    const followed = followRun(session, { approve: 'wait' }, io);
    let key: string | undefined;
    while (key === undefined) {
      key = (await host.decisions(runId)).waiting[0]?.key;
      if (key === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await host.answer(runId, { key, approved: true, input: { env: 'staging' } });
    expect(await followed).toBe(0);
    await session.close();
    expect(out.stdout).toContain('✓ approved deploy with an edited input: {"env":"staging"}');
    expect(out.stdout).toContain('"deployed staging"');
  });

  it("a run that failed: one june: line naming why, and the exit code of its error's code", async () => {
    const { code, out, trace } = await follow({ props: { mode: 'fail' } });
    expect(trace.status).toBe('failed');
    // the fixture's script has no turn for the step: bad usage of a script, exit 2
    expect(trace.root.error?.code).toBe('script-invalid');
    expect(code).toBe(2);
    expect(out.stdout).toMatch(/✗ failed after /);
    expect(out.stderr).toMatch(/^june: .+\n$/);
  });
});
