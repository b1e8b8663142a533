// june runs, june approve and june cancel as functions of a run host: the same cases against
// a host in memory and a runs folder whose runs are `june run` processes (needs
// `npm run build`), so nothing in the commands asks which host they have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approveCommand,
  approveRequest,
  cancelCommand,
  runsCommand,
  type ApproveCommandOptions,
} from '../../src/cli/run-commands.js';
import type { RunHost } from '../../src/host/run-host.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import type { HostUnderTest } from '../host/host-contract.js';
import { folderHost, localHost, memoryHost } from '../host/hosts-under-test.js';

/** Collects what a command writes. */
function output() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    },
  };
}

async function until<T>(what: string, look: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function toolOutputs(trace: Trace, name: string): unknown[] {
  const found: unknown[] = [];
  const stack: TraceNode[] = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'tool' && node.name === name && node.output !== undefined)
      found.push(node.output);
    stack.push(...node.children);
  }
  return found;
}

describe.each([
  ['memory', memoryHost],
  ['a runs folder', folderHost],
  ['a runs folder run here', localHost],
])('the run commands on %s', (_name, makeHost) => {
  let subject: HostUnderTest;
  let host: RunHost;
  beforeAll(async () => {
    subject = await makeHost();
    host = subject.host;
  }, 180_000);
  afterAll(async () => {
    await subject?.close();
  });

  /** Starts a deploy run and waits until june runs lists its call as waiting; returns the run and the listing. */
  const waitingRun = async () => {
    const runId = await host.start({ workflow: subject.workflow, props: { mode: 'deploy' } });
    const listing = await until('june runs to list the waiting call', async () => {
      const { out, io } = output();
      expect(await runsCommand(host, io)).toBe(0);
      return out.stdout.includes(`${runId}  `) && out.stdout.includes('  waiting: ')
        ? out.stdout
        : undefined;
    });
    return { runId, listing };
  };
  const approve = (runId: string, requestId: string | undefined, flags: ApproveCommandOptions) => {
    const { out, io } = output();
    return approveCommand(host, io, approveRequest(runId, requestId, flags)).then((code) => ({
      code,
      ...out,
    }));
  };

  it('june runs lists a waiting run and its call; june approve --all runs the tool once', async () => {
    const { runId, listing } = await waitingRun();
    const block = listing.slice(listing.indexOf(`${runId}  `));
    // each waiting call with its key, without the run's id: what june approve takes
    const [call] = (await host.decisions(runId)).waiting;
    const short = call!.key.slice(`${runId}/`.length);
    expect(block.startsWith(`${runId}  `)).toBe(true);
    expect(block.split('\n')[1]).toBe(
      `  waiting: ${call!.requestId} · deploy {"env":"prod"} (step work; key ${short})`,
    );
    const answered = await approve(runId, undefined, { all: true });
    expect(answered.stderr).toBe('');
    expect(answered.stdout).toMatch(new RegExp(`^approved \\S+ of run ${runId}\\n$`));
    expect(answered.code).toBe(0);
    const trace = await host.result(runId);
    expect(trace.status).toBe('succeeded');
    expect(toolOutputs(trace, 'deploy')).toEqual(['deployed prod']);
  }, 120_000);

  it('june approve <requestId> --input runs the call with the edited input; a second answer exits 1', async () => {
    const { runId, listing } = await waitingRun();
    const requestId = new RegExp(`${runId}  [^\\n]*\\n  waiting: (\\S+)`).exec(listing)![1]!;
    const edited = await approve(runId, requestId, { input: '{"env":"staging"}' });
    expect(edited.stdout).toBe(`approved ${requestId} of run ${runId} with an edited input\n`);
    expect(edited.code).toBe(0);
    const again = await approve(runId, requestId, {});
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^june: /);
    expect(toolOutputs(await host.result(runId), 'deploy')).toEqual(['deployed staging']);
  }, 120_000);

  it("june approve takes a call's key without the run id; an id that names no waiting call lists what the run waits for", async () => {
    const { runId } = await waitingRun();
    const [call] = (await host.decisions(runId)).waiting;
    const short = call!.key.slice(`${runId}/`.length);
    expect(call!.key).toBe(`${runId}/${short}`);
    const unknown = await approve(runId, 'nope#9.9', {});
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe(
      `june: run ${runId} waits for no request "nope#9.9"; it waits for ${call!.requestId} (tool deploy, step work; key ${short}). Give one of those request ids or keys, or --all.\n`,
    );
    // as june serve's progress names the call: its key without the run's id
    const answered = await approve(runId, short, {});
    expect(answered.stderr).toBe('');
    expect(answered.stdout).toBe(`approved ${short} of run ${runId}\n`);
    expect(answered.code).toBe(0);
    expect(toolOutputs(await host.result(runId), 'deploy')).toEqual(['deployed prod']);
  }, 120_000);

  it('june approve of a call of a run that has ended names the answer that stands', async () => {
    const { runId } = await waitingRun();
    const [call] = (await host.decisions(runId)).waiting;
    const short = call!.key.slice(`${runId}/`.length);
    expect((await approve(runId, short, { input: '{"env":"staging"}' })).code).toBe(0);
    expect((await host.result(runId)).status).toBe('succeeded');

    const again = await approve(runId, short, { deny: true });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      new RegExp(
        `^june: the call "${short.replace(/[#.]/g, '\\$&')}" of run ${runId} was answered already: approved with an edited input through cli( by \\S+)? at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\. That answer stands; this denial was not applied\\. The run has ended \\(succeeded\\)\\.\\n$`,
      ),
    );
    const never = await approve(runId, 'nope#9.9', {});
    expect(never.code).toBe(1);
    expect(never.stderr).toBe(
      `june: the call "nope#9.9" of run ${runId} waits for no answer (withdrawn, or never asked), and the run has ended (succeeded); there is nothing to approve.\n`,
    );
  }, 120_000);

  it('june approve --all --deny: the tool never runs, the run goes on', async () => {
    const { runId } = await waitingRun();
    const denied = await approve(runId, undefined, { all: true, deny: true, reason: 'not today' });
    expect(denied.stdout).toMatch(new RegExp(`^denied \\S+ of run ${runId}\\n$`));
    expect(denied.code).toBe(0);
    const trace = await host.result(runId);
    expect(trace.status).toBe('succeeded');
    expect(toolOutputs(trace, 'deploy')).not.toContain('deployed prod');
    // the run has ended: there is nothing left to approve
    const late = await approve(runId, undefined, { all: true });
    expect(late.code).toBe(1);
    expect(late.stderr).toBe(
      `june: the run ${runId} has ended (succeeded); there is nothing to approve.\n`,
    );
  }, 120_000);

  it('june runs lists an approved call held until the other call of its turn is answered', async () => {
    const runId = await host.start({ workflow: subject.workflow, props: { mode: 'pair' } });
    const listing = await until('both calls to wait', async () => {
      const { out, io } = output();
      await runsCommand(host, io);
      return out.stdout.match(/ {2}waiting: .*\n/g)?.length === 2 ? out.stdout : undefined;
    });
    const staging = / {2}waiting: (\S+) · deploy \{"env":"staging"\}/.exec(listing)![1]!;
    expect((await approve(runId, staging, {})).code).toBe(0);
    const held = await until('the staging call to be held', async () => {
      const { out, io } = output();
      await runsCommand(host, io);
      return out.stdout.includes('  held: ') ? out.stdout : undefined;
    });
    expect(held).toContain(
      `  held: ${staging} · deploy {"env":"staging"} (step work; approved, runs once the requests of its turn are answered)\n`,
    );
    expect(held.match(/ {2}waiting: \S+ · deploy \{"env":"prod"\}/g)).toHaveLength(1);
    expect((await approve(runId, undefined, { all: true })).code).toBe(0);
    const trace = await host.result(runId);
    expect(toolOutputs(trace, 'deploy').sort()).toEqual(['deployed prod', 'deployed staging']);
  }, 120_000);

  it('june cancel stops a running run: it ends aborted', async () => {
    const runId = await host.start({ workflow: subject.workflow, props: { mode: 'hold' } });
    await until('the held call to start', async () => {
      const found = await host.readTrace(runId);
      return 'text' in found && /"name": *"hold"/.test(found.text) ? true : undefined;
    });
    const { out, io } = output();
    expect(await cancelCommand(host, io, runId)).toBe(0);
    expect(out.stdout).toBe(`cancelled run ${runId}\n`);
    expect((await host.result(runId)).status).toBe('aborted');
  }, 120_000);

  it('june cancel of a run that ended leaves it as it ended: exit 1, saying how it ended', async () => {
    const runId = await host.start({ workflow: subject.workflow, props: { mode: 'quick' } });
    expect((await host.result(runId)).status).toBe('succeeded');
    const { out, io } = output();
    expect(await cancelCommand(host, io, runId)).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      `june: the run ${runId} has ended (succeeded); there is nothing to cancel.\n`,
    );
    expect((await host.result(runId)).status).toBe('succeeded');
  }, 120_000);

  it('june approve and june cancel of a run the host does not have reject with studio-run-missing', async () => {
    await expect(approve('no-such-run', undefined, { all: true })).rejects.toMatchObject({
      code: 'studio-run-missing',
    });
    await expect(cancelCommand(host, output().io, 'no-such-run')).rejects.toMatchObject({
      code: 'studio-run-missing',
      // as every command, it names the command that lists the runs
      message: `june: there is no run "no-such-run" in ${host.label}; june runs lists the runs there (add --database <url> for a database's).`,
    });
  });
});
