// june run --approve all (or none) leaves a guard's escalation to a person: asked at the
// terminal when there is one, else refused with a sentence naming the guard and the flag
// that lets --approve answer it too.
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/cli-io.js';
import type { ProgressPrinter } from '../../src/cli/progress-printer.js';
import { RunControl, runPrompting } from '../../src/cli/run-control.js';
import type { TerminalStyle } from '../../src/cli/terminal-style.js';
import { waitingHost } from './waiting-host.js';

function control(approve: 'all' | 'none', approveEscalations = false) {
  // the request still waits (no script answered it)
  const { host, cancelled: aborted } = waitingHost();
  const run = new RunControl({
    session: { host, runId: 'r1' },
    printer: {} as ProgressPrinter,
    style: {} as TerminalStyle,
    io: {} as CliIO,
    approve,
    json: false,
    approveEscalations,
    promptOutput: undefined,
  });
  return { run, aborted };
}

const request = {
  id: 'a1',
  tool: 'deploy',
  input: { env: 'prod' },
  step: 'ship',
  toolCallId: 'c1',
};
const escalated = {
  ...request,
  guard: { name: 'no-prod', declaration: '<Guard name="no-prod">', reason: 'prod needs a person' },
};

describe('a guard escalation under --approve all', () => {
  it('is refused when nobody can be asked, naming the guard, its reason and the flags', async () => {
    const { run, aborted } = control('all');
    run.request(escalated);
    await run.settled();
    expect(run.refusal).toBe(
      'the guard "no-prod" escalated the call of "deploy" in step "ship" (prod needs a person), and a guard\'s escalation needs a person\'s answer, but there is no terminal to ask at; pass --approve studio or --approve wait and answer it in Studio or with june approve, or pass --approve-escalations to let --approve all answer it too',
    );
    expect(aborted).toEqual([run.refusal]);
  });

  it('is left to --approve all with --approve-escalations; other requests always are', async () => {
    const allowed = control('all', true);
    allowed.run.request(escalated);
    await allowed.run.settled();
    expect(allowed.run.refusal).toBeUndefined();
    const plain = control('none');
    plain.run.request(request);
    await plain.run.settled();
    expect(plain.run.refusal).toBeUndefined();
  });

  it('is asked at the terminal when there is one, unless --approve-escalations', async () => {
    const tty = { isTTY: true } as NodeJS.WriteStream;
    const io = { stdout: tty, stderr: tty, stdin: { isTTY: true } } as unknown as CliIO;
    expect(runPrompting(io, 'all', false)).toBe(tty);
    expect(runPrompting(io, 'all', false, true)).toBeUndefined();
    expect(runPrompting(io, 'studio', false)).toBeUndefined();
  });
});
