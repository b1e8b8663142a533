import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  symlinkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import {
  Agent,
  fileJournalStore,
  JuneError,
  memoryJournalStore,
  run,
  Step,
  Tool,
  type JournalStore,
} from 'june';
import { afterEach, describe, expect, it } from 'vitest';
import { fileRunOwner } from '../../src/journal/index.js';
import { z } from 'zod';
import { repoRoot } from '../cli/cli-harness.js';
import { turnModel } from './support.js';

// A run has one owner at a time, in every store: a resume while another process (or run)
// holds the run fails at once with run-owned, naming the owner, or waits for it when asked;
// a lease whose process is gone is taken over.

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function runsFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'june-owner-'));
  folders.push(folder);
  return folder;
}

/** A pid no process has now: a process that ran and ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

/** A deploy that waits for approval; each execution is counted, and waits for `gate` when given. */
function release(gate?: Promise<void>) {
  const deploys: string[] = [];
  // answers by the request, not by its own count: a fresh copy answers a resumed run alike
  const model = turnModel({
    ship: [
      { toolCalls: [{ id: 'c1', tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Shipped.' },
    ],
  });
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      deploys.push(env);
      await gate;
      return `deployed to ${env}`;
    },
  });
  const Release = () => (
    <Agent model={model}>
      <Tool name="deploy" value={deploy} />
      <Step id="ship" prompt="Ship it" />
    </Agent>
  );
  return { Release, deploys };
}

/** A run stopped while its deploy waited for approval; returns its id. */
async function stoppedRun(store: JournalStore): Promise<string> {
  const { Release } = release();
  const handle = run(Release, { journal: store });
  for await (const event of handle.events) if (event.type === 'approval-request') break;
  handle.abort('stopped while it waited');
  await handle.result.catch(() => {});
  return handle.runId;
}

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('a run has one owner: the file store', () => {
  it('a second lease fails at once with run-owned naming pid, host and since; a released one is taken again', async () => {
    const dir = runsFolder();
    const store = fileJournalStore({ dir });
    const first = await store.lease!('r1');
    expect(first.owner).toMatchObject({ pid: process.pid, hostname: hostname() });
    const refused = await store.lease!('r1').catch((error: unknown) => error);
    expect(JuneError.isInstance(refused) && refused.code).toBe('run-owned');
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^june: run r1 is already being run by process ${process.pid} on host ${hostname()} \\(this machine\\) since ${first.owner.startedAt}`,
      ),
    );
    // another store object over the same folder (another server) is refused too
    const other = fileJournalStore({ dir });
    await expect(other.lease!('r1')).rejects.toMatchObject({ code: 'run-owned' });
    await first.release();
    await first.release(); // idempotent
    const again = await other.lease!('r1');
    await again.release();
  });

  it('of many leases taken at once, exactly one is granted', async () => {
    const dir = runsFolder();
    const stores = Array.from({ length: 12 }, () => fileJournalStore({ dir }));
    const tries = await Promise.allSettled(stores.map((store) => store.lease!('race')));
    const granted = tries.filter((t) => t.status === 'fulfilled');
    expect(granted).toHaveLength(1);
    for (const t of tries)
      if (t.status === 'rejected') expect(t.reason).toMatchObject({ code: 'run-owned' });
    await (granted[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
    expect(existsSync(join(dir, 'race', 'owner.json'))).toBe(false);
  });

  it('takes over the lease of a process that is gone, or whose pid now names another process', async () => {
    const dir = runsFolder();
    const store = fileJournalStore({ dir });
    const owner = join(dir, 'r1', 'owner.json');
    const plant = (record: object) => {
      writeFileSync(owner, JSON.stringify(record));
    };
    mkdirSync(join(dir, 'r1'), { recursive: true });
    plant({
      pid: deadPid(),
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
      token: 'dead',
    });
    const afterCrash = await store.lease!('r1');
    expect(afterCrash.owner.pid).toBe(process.pid);
    await afterCrash.release();

    // this process's pid, but another process start: the pid was reused
    plant({
      pid: process.pid,
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
      token: 'old',
      processStart: '1',
    });
    const afterReuse = await store.lease!('r1');
    await afterReuse.release();

    // another machine: held while it renews the file, taken once a minute passed without
    plant({
      pid: 1,
      hostname: 'elsewhere.invalid',
      startedAt: '2026-01-01T00:00:00.000Z',
      token: 'far',
    });
    await expect(store.lease!('r1')).rejects.toThrow(
      /process 1 on host elsewhere\.invalid since .*; .*remove .*owner\.json/,
    );
    const old = new Date(Date.now() - 61_000);
    utimesSync(owner, old, old);
    const afterSilence = await store.lease!('r1');
    await afterSilence.release();

    // what holds no lease record is no owner: garbage, or a link to a device (a cloned repository)
    plant({ hello: 'world' });
    expect(await fileRunOwner(dir, 'r1')).toBeUndefined();
    await (await store.lease!('r1')).release();
    mkdirSync(join(dir, 'r1'), { recursive: true });
    symlinkSync('/dev/zero', owner);
    expect(await fileRunOwner(dir, 'r1')).toBeUndefined();
    const overLink = await store.lease!('r1');
    expect(lstatSync(owner).isFile()).toBe(true);
    expect(await fileRunOwner(dir, 'r1')).toEqual(overLink.owner);
    await overLink.release();
  });

  it('waits for the owner when asked, and stops waiting when its signal aborts', async () => {
    const store = fileJournalStore({ dir: runsFolder() });
    const first = await store.lease!('r1');
    const told: unknown[] = [];
    const waiting = store.lease!('r1', {
      wait: true,
      pollMs: 10,
      onWait: (owner) => told.push(owner),
    });
    let settled = false;
    void waiting.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect(told).toEqual([first.owner]);
    await first.release();
    const second = await waiting;
    expect(second.owner.pid).toBe(process.pid);

    const controller = new AbortController();
    const given = store.lease!('r1', { wait: true, pollMs: 10, signal: controller.signal });
    controller.abort(new Error('no longer needed'));
    await expect(given).rejects.toThrow('no longer needed');
    await second.release();
    expect(existsSync(join(folders.at(-1)!, 'r1', 'owner.json'))).toBe(false);
  });
});

describe('a run has one owner: run() with a journal', () => {
  for (const [name, makeStore] of [
    ['file', () => fileJournalStore({ dir: runsFolder() })],
    ['memory', () => memoryJournalStore()],
  ] as const) {
    it(`two resumes at once (${name} store): one runs the approved tool, the other fails with run-owned`, async () => {
      const store = makeStore();
      const runId = await stoppedRun(store);
      const hold = gate();
      const a = release(hold.promise);
      const b = release(hold.promise);
      const first = run(a.Release, { journal: store, resume: runId, onApproval: () => true });
      const second = run(b.Release, { journal: store, resume: runId, onApproval: () => true });
      const outcomes = await Promise.race([
        first.result.then(
          () => 'first',
          () => 'first failed',
        ),
        second.result.then(
          () => 'second',
          () => 'second failed',
        ),
      ]);
      const [loser, winner] = outcomes === 'second failed' ? [second, first] : [first, second];
      await expect(loser.result).rejects.toMatchObject({ code: 'run-owned' });
      await expect(loser.result).rejects.toThrow(
        `run ${runId} is already being run by process ${process.pid}`,
      );
      hold.open();
      await expect(winner.result).resolves.toMatchObject({ output: 'Shipped.' });
      expect([...a.deploys, ...b.deploys]).toEqual(['prod']);
      // the lease went with the run: a third resume replays the finished run, running nothing
      const c = release();
      await run(c.Release, { journal: store, resume: runId }).result;
      expect(c.deploys).toEqual([]);
    });
  }

  it('a resume of a run that still runs waits for it with waitForOwner, then runs nothing twice', async () => {
    const store = fileJournalStore({ dir: runsFolder() });
    const hold = gate();
    const a = release(hold.promise);
    const first = run(a.Release, { journal: store, onApproval: () => true });
    await new Promise<void>((resolve) => {
      const look = () => (a.deploys.length > 0 ? resolve() : setTimeout(look, 5));
      look();
    });
    const b = release();
    const second = run(b.Release, { journal: store, resume: first.runId, waitForOwner: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    hold.open();
    await first.result;
    await expect(second.result).resolves.toMatchObject({ output: 'Shipped.' });
    expect(a.deploys).toEqual(['prod']);
    expect(b.deploys).toEqual([]);

    // aborting a run that waits for the owner ends the wait
    const lease = await store.lease!(first.runId);
    const c = release();
    const waiting = run(c.Release, { journal: store, resume: first.runId, waitForOwner: true });
    await new Promise((resolve) => setTimeout(resolve, 30));
    waiting.abort('gave up');
    await expect(waiting.result).rejects.toMatchObject({ code: 'run-aborted' });
    await lease.release();
  });

  it('a new run holds its run while it runs, and lets go however it ends', async () => {
    const dir = runsFolder();
    const store = fileJournalStore({ dir });
    const hold = gate();
    const a = release(hold.promise);
    const first = run(a.Release, { journal: store, onApproval: () => true });
    await new Promise<void>((resolve) => {
      const look = () => (a.deploys.length > 0 ? resolve() : setTimeout(look, 5));
      look();
    });
    expect(JSON.parse(readFileSync(join(dir, first.runId, 'owner.json'), 'utf8'))).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
    });
    await expect(
      run(release().Release, { journal: store, resume: first.runId }).result,
    ).rejects.toMatchObject({ code: 'run-owned' });
    first.abort('stop');
    hold.open();
    await first.result.catch(() => {});
    expect(existsSync(join(dir, first.runId, 'owner.json'))).toBe(false);
    // a resume of a run with no journal leaves nothing behind
    await expect(
      run(release().Release, { journal: store, resume: 'no-such-run' }).result,
    ).rejects.toMatchObject({ code: 'journal-missing' });
    expect(existsSync(join(dir, 'no-such-run'))).toBe(false);
  });

  it('a lease given to run() is used and let go; one of another run is refused', async () => {
    const store = memoryJournalStore();
    const runId = await stoppedRun(store);
    const lease = await store.lease!(runId);
    const a = release();
    await run(a.Release, { journal: store, resume: runId, lease, onApproval: () => true }).result;
    expect(a.deploys).toEqual(['prod']);
    const after = await store.lease!(runId); // let go by the run
    await after.release();
    const other = await store.lease!('other');
    await expect(
      run(release().Release, { journal: store, resume: runId, lease: other }).result,
    ).rejects.toMatchObject({ code: 'run-resume-invalid' });
    expect(() => run(release().Release, { lease: other })).toThrow(/pass that store as journal/);
  });
});

/** A process start time as `/proc/<pid>/stat` gives it (clock ticks since boot, field 22). */
function startOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/**
 * A process that runs until the test ends: `command` (node waiting by default), whose pid is
 * returned once it runs `runs` (the command it ends up executing, when it starts another).
 */
async function liveProcess(
  command: string[] = [process.execPath, '-e', 'setInterval(() => {}, 1e6)'],
  runs: string[] = command,
) {
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  children.push(child);
  const pid = child.pid!;
  // its start time is read once it runs what it was started for, not the node that forked it
  const deadline = Date.now() + 10_000;
  while (readFileSync(`/proc/${pid}/cmdline`, 'utf8') !== `${runs.join('\0')}\0`) {
    if (Date.now() > deadline) throw new Error(`process ${pid} never ran ${runs.join(' ')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return pid;
}

/** A lease record as June writes it, on this machine. */
function leaseOf(pid: unknown, more: object = {}) {
  return {
    pid,
    hostname: hostname(),
    startedAt: '2026-01-01T00:00:00.000Z',
    token: 'forged',
    ...more,
  };
}

/** Runs the stopped run `runId` again, approving: resolves with what deployed. */
async function resumeApproving(store: JournalStore, runId: string): Promise<string[]> {
  const { Release, deploys } = release();
  await expect(
    run(Release, { journal: store, resume: runId, onApproval: () => true }).result,
  ).resolves.toMatchObject({ output: 'Shipped.' });
  return deploys;
}

const canSwitchUser =
  process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0
    ? undefined
    : 'needs root and setpriv to start a process of the user nobody';

describe('a forged or stale lease file never holds a run', () => {
  it('a lease naming pid 0, -1, a fractional pid, a reused pid, a future start, no start, or cut short lets a resume proceed', async () => {
    const live = await liveProcess();
    const forged: [string, string][] = [
      ['pid 0', JSON.stringify(leaseOf(0))],
      ['pid -1', JSON.stringify(leaseOf(-1))],
      ['pid 1.5', JSON.stringify(leaseOf(1.5))],
      ['a reused pid', JSON.stringify(leaseOf(live, { processStart: '1' }))],
      [
        'a future start',
        JSON.stringify(leaseOf(live, { processStart: String(Number(startOf(live)) + 1e9) })),
      ],
      ['no start time', JSON.stringify(leaseOf(live))],
      ['cut short', JSON.stringify(leaseOf(live, { processStart: startOf(live) })).slice(0, 40)],
    ];
    for (const [what, text] of forged) {
      const dir = runsFolder();
      const store = fileJournalStore({ dir });
      const runId = await stoppedRun(store);
      writeFileSync(join(dir, runId, 'owner.json'), text);
      expect(await fileRunOwner(dir, runId), what).toBeUndefined();
      expect(await resumeApproving(store, runId), what).toEqual(['prod']);
      expect(existsSync(join(dir, runId, 'owner.json')), what).toBe(false);
    }
  });

  it('a live owner, the very process that took the lease, still refuses a resume with run-owned', async () => {
    const live = await liveProcess();
    const dir = runsFolder();
    const store = fileJournalStore({ dir });
    const runId = await stoppedRun(store);
    const owner = join(dir, runId, 'owner.json');
    writeFileSync(owner, JSON.stringify(leaseOf(live, { processStart: startOf(live) })));
    const { Release, deploys } = release();
    await expect(
      run(Release, { journal: store, resume: runId, onApproval: () => true }).result,
    ).rejects.toThrow(`run ${runId} is already being run by process ${live} on host`);
    expect(deploys).toEqual([]);
    expect(existsSync(owner)).toBe(true);
    // once that process ended, the lease is stale and the run is taken up
    const child = children.pop()!;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await resumeApproving(store, runId)).toEqual(['prod']);
  });

  it('a live owner of another user still refuses a resume; from that user, this process counts as live', async (context) => {
    if (canSwitchUser) context.skip(canSwitchUser);
    const asNobody = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
    const theirs = await liveProcess([...asNobody, 'sleep', '1000'], ['sleep', '1000']);
    expect(readFileSync(`/proc/${theirs}/status`, 'utf8')).toMatch(/^Uid:\s+65534\b/m);
    const dir = runsFolder();
    const store = fileJournalStore({ dir });
    const runId = await stoppedRun(store);
    writeFileSync(
      join(dir, runId, 'owner.json'),
      JSON.stringify(leaseOf(theirs, { processStart: startOf(theirs) })),
    );
    await expect(
      run(release().Release, { journal: store, resume: runId, onApproval: () => true }).result,
    ).rejects.toMatchObject({ code: 'run-owned', owner: { pid: theirs } });

    // the other way round: nobody's signal cannot reach this process (EPERM), yet it is alive,
    // while the same pid with another start time is not
    const check = (record: object) =>
      spawnSync(
        asNobody[0]!,
        [
          ...asNobody.slice(1),
          process.execPath,
          '--input-type=module',
          '-e',
          `import { ownerAlive } from ${JSON.stringify(join(repoRoot, 'dist/src/journal/owner-alive.js'))};
           process.stdout.write(String(ownerAlive(${JSON.stringify(record)}, Date.now())));`,
        ],
        { encoding: 'utf8' },
      );
    const ours = check(leaseOf(process.pid, { processStart: startOf(process.pid) }));
    expect(ours.stderr).toBe('');
    expect(ours.stdout).toBe('true');
    expect(check(leaseOf(process.pid, { processStart: '1' })).stdout).toBe('false');
    expect(check(leaseOf(0)).stdout).toBe('false');
  });
});
