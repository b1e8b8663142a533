// The run host contract, in Hono's style: one suite, run against every host
// (memory-host.test.ts, file-host.test.ts over the real file system, and
// test/dbos/database-host.test.ts over a real PostgreSQL). A host passes or fails the same
// cases, so an entry point that takes a host never needs to know which one it has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunHost } from '../../src/host/run-host.js';
import { isUnreadable, type RunSummary } from '../../src/host/run-list.js';
import { runState, type RunState } from '../../src/host/run-state.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';

/** A host to test, the name it starts test/host/fixtures/desk.tsx by, and what ends it all. */
export interface HostUnderTest {
  host: RunHost;
  /** `desk.tsx`, `desk`: what `host.start` takes as the fixture's workflow. */
  workflow: string;
  close(): Promise<void>;
}

/** How long one wait may take, in ms: a `june run` or a worker's poll on a busy machine. */
const WAIT_MS = 60_000;

/** Polls `look` every 50 ms until it gives a value; fails after {@link WAIT_MS}. */
async function until<T>(what: string, look: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function listed(host: RunHost, runId: string): Promise<RunSummary | undefined> {
  const entry = (await host.list()).find((run) => run.runId === runId);
  return entry && !isUnreadable(entry) ? entry : undefined;
}

async function traceOf(host: RunHost, runId: string): Promise<Trace | undefined> {
  const found = await host.readTrace(runId);
  return 'text' in found ? (JSON.parse(found.text) as Trace) : undefined;
}

/** The run's state in the list and on its page (the trace), read now. */
async function states(host: RunHost, runId: string) {
  const trace = await traceOf(host, runId);
  return { list: (await listed(host, runId))?.status, page: trace && runState(trace) };
}

/** Waits until the list and the page both show `state`. */
function bothShow(host: RunHost, runId: string, state: RunState) {
  return until(`run ${runId} to be ${state} in the list and on its page`, async () => {
    const now = await states(host, runId);
    return now.list === state && now.page === state ? now : undefined;
  });
}

function toolNodes(trace: Trace): TraceNode[] {
  const found: TraceNode[] = [];
  const stack = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'tool') found.push(node);
    stack.push(...node.children);
  }
  return found;
}

/** Why a promise rejected: its error's `code`. */
async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => (error as { code?: string }).code,
  );
}

/**
 * The cases every run host passes: `makeHost` opens a fresh host (and whatever it runs on:
 * a folder, a database and a worker) for the suite.
 */
export function runHostContract(name: string, makeHost: () => Promise<HostUnderTest>): void {
  describe(`the run host contract: ${name}`, () => {
    let subject: HostUnderTest;
    let host: RunHost;
    const start = (mode: string) => host.start({ workflow: subject.workflow, props: { mode } });
    const waiting = async (runId: string) => {
      await bothShow(host, runId, 'waiting');
      return until('the call to be listed as a decision', async () => {
        const decisions = await host.decisions(runId);
        return decisions.waiting.length > 0 ? decisions : undefined;
      });
    };

    beforeAll(async () => {
      subject = await makeHost();
      host = subject.host;
    }, 180_000);
    afterAll(async () => {
      await subject?.close();
    });

    it('lists a started run, and its end as its trace shows it', async () => {
      const runId = await start('quick');
      expect(await listed(host, runId)).toBeDefined();
      const trace = await host.result(runId);
      expect(trace.status).toBe('succeeded');
      expect(await states(host, runId)).toEqual({ list: 'succeeded', page: 'succeeded' });
    }, 120_000);

    it("follows a run's events from its start to its end, or says it keeps none", async () => {
      const runId = await start('quick');
      await host.result(runId);
      const types: string[] = [];
      const followed = (async () => {
        for await (const event of host.events(runId)) types.push(event.type);
      })();
      const code = await codeOf(followed);
      if (code === 'run-host-unsupported') return; // a runs folder keeps traces, not events
      expect(code).toBe('resolved');
      expect(types[0]).toBe('run-start');
      expect(types.at(-1)).toBe('run-finish');
    }, 120_000);

    it('lists a run waiting for approval as waiting, with its call as a decision, as its page shows it', async () => {
      const runId = await start('deploy');
      const decisions = await waiting(runId);
      expect(decisions.runId).toBe(runId);
      expect(decisions.state).toBe('live');
      expect(decisions.waiting).toHaveLength(1);
      expect(decisions.waiting[0]).toMatchObject({ tool: 'deploy', input: { env: 'prod' } });
      // the call's key is the request's key, as the run's trace and events name it
      const [asked] = toolNodes((await traceOf(host, runId))!);
      expect(decisions.waiting[0]!.key).toBe(asked?.approval?.key);
      expect((await listed(host, runId))?.pendingApprovals).toBe(1);
      await host.cancel(runId);
      await host.result(runId);
    }, 120_000);

    it('answers an approval once: the run goes on to succeed, and a second answer is refused', async () => {
      const runId = await start('deploy');
      const [call] = (await waiting(runId)).waiting;
      expect(await host.answer(runId, { key: call!.key, approved: true })).toEqual({
        delivered: 'live',
      });
      expect(await codeOf(host.answer(runId, { key: call!.key, approved: false }))).toBe(
        'studio-approval-unknown',
      );
      const trace = await host.result(runId);
      expect(trace.status).toBe('succeeded');
      expect(toolNodes(trace).map((node) => node.output)).toEqual(['deployed prod']);
      expect(await states(host, runId)).toEqual({ list: 'succeeded', page: 'succeeded' });
    }, 120_000);

    it('runs the call with the input an approval edited', async () => {
      const runId = await start('deploy');
      const [call] = (await waiting(runId)).waiting;
      await host.answer(runId, { key: call!.key, approved: true, input: { env: 'staging' } });
      const trace = await host.result(runId);
      expect(trace.status).toBe('succeeded');
      const [deploy] = toolNodes(trace);
      expect(deploy?.output).toBe('deployed staging');
      expect(deploy?.approval).toMatchObject({ status: 'approved', input: { env: 'staging' } });
    }, 120_000);

    it("answers each request with the request's policy, where the run runs, recorded as the source policy", async () => {
      const runId = await host.start({
        workflow: subject.workflow,
        props: { mode: 'deploy' },
        policy: { approve: 'none' },
      });
      const trace = await host.result(runId);
      expect(trace.status).toBe('succeeded');
      const [deploy] = toolNodes(trace);
      expect(deploy?.approval).toMatchObject({
        status: 'denied',
        reason: 'denied by --approve none',
        automatic: true,
        source: 'policy',
      });
    }, 120_000);

    it('refuses an edited input on a denial, before anything is given', async () => {
      const runId = await start('deploy');
      const [call] = (await waiting(runId)).waiting;
      expect(await codeOf(host.answer(runId, { key: call!.key, approved: false, input: {} }))).toBe(
        'studio-request-invalid',
      );
      expect((await host.decisions(runId)).waiting).toHaveLength(1);
      await host.cancel(runId);
      await host.result(runId);
    }, 120_000);

    it("refuses an edit the tool's input schema refuses, naming the field, before anything is given", async () => {
      const runId = await start('deploy');
      const [call] = (await waiting(runId)).waiting;
      const refused = await host
        .answer(runId, { key: call!.key, approved: true, input: { env: 'dev' } })
        .then(
          () => undefined,
          (error: { code?: string; message?: string }) => error,
        );
      expect(refused?.code).toBe('studio-approval-invalid');
      expect(refused?.message).toContain(
        `does not fit the tool's input schema: $.env: Invalid option: expected one of "staging"|"prod". Nothing changed and the request still waits`,
      );
      // the call still waits, and takes an edit that fits
      expect((await host.decisions(runId)).waiting).toHaveLength(1);
      await host.answer(runId, { key: call!.key, approved: true, input: { env: 'staging' } });
      const trace = await host.result(runId);
      expect(toolNodes(trace).map((node) => node.output)).toEqual(['deployed staging']);
    }, 120_000);

    it('lists a run cancelled while it waited as aborted, as its page shows it, never as waiting', async () => {
      const runId = await start('deploy');
      await waiting(runId);
      await host.cancel(runId);
      const trace = await host.result(runId);
      expect(trace.status).toBe('aborted');
      expect(await states(host, runId)).toEqual({ list: 'aborted', page: 'aborted' });
      // and it stays so, whatever the host looks at again
      expect(await states(host, runId)).toEqual({ list: 'aborted', page: 'aborted' });
    }, 120_000);

    it('lists a running run as running until it is cancelled, then aborted', async () => {
      const runId = await start('hold');
      await until('the held call to start', async () => {
        const trace = await traceOf(host, runId);
        return trace && toolNodes(trace).length > 0 ? true : undefined;
      });
      await bothShow(host, runId, 'running');
      await host.cancel(runId);
      expect((await host.result(runId)).status).toBe('aborted');
      expect(await states(host, runId)).toEqual({ list: 'aborted', page: 'aborted' });
    }, 120_000);

    it('lists a failed run as failed, as its page shows it', async () => {
      const runId = await start('fail');
      expect((await host.result(runId)).status).toBe('failed');
      expect(await states(host, runId)).toEqual({ list: 'failed', page: 'failed' });
    }, 120_000);

    it('refuses to start a run with the id of one it has: nothing starts, and that run stands', async () => {
      const runId = await start('quick');
      await host.result(runId);
      const again = host.start({ workflow: subject.workflow, props: { mode: 'fail' }, runId });
      expect(await codeOf(again)).toBe('studio-run-exists');
      expect(await states(host, runId)).toEqual({ list: 'succeeded', page: 'succeeded' });
    }, 120_000);

    it('forks a recorded run at its approval with a denial: the prefix replays, the call does not run, the fork knows its parent', async () => {
      const runId = await start('deploy');
      const [call] = (await waiting(runId)).waiting;
      await host.answer(runId, { key: call!.key, approved: true });
      expect((await host.result(runId)).status).toBe('succeeded');
      const request = {
        at: 'approval deploy work#0.0',
        change: { answer: 'deny' as const, reason: 'not today' },
        // the live part's turns: the first is the recorded one, which the fork's journal answers
        script: {
          steps: {
            work: [
              { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
              { text: 'stopped: not today' },
            ],
          },
        },
      };
      const plan = await host.forkPlan(runId, request);
      expect(plan).toMatchObject({ record: 'approval deploy work#0.0', replayed: 1 });
      expect(plan.live).toContain('after approval deploy work#0.0 everything runs live');

      const fork = await host.fork(runId, request);
      expect(fork.runId).not.toBe(runId);
      expect(fork.record).toBe('approval deploy work#0.0');
      const trace = await host.result(fork.runId);
      expect(trace.status).toBe('succeeded');
      expect(trace.forkedFrom).toMatchObject({
        runId,
        record: 'approval deploy work#0.0',
        change: { kind: 'answer', approved: false, reason: 'not today' },
      });
      const [deploy] = toolNodes(trace);
      expect(deploy?.approval).toMatchObject({ status: 'denied', reason: 'not today' });
      expect(deploy?.output).toBeUndefined();
      const models = [trace.root];
      for (let i = 0; i < models.length; i++) models.push(...models[i]!.children);
      const calls = models.filter((node) => node.kind === 'model');
      // the recorded call replays; the one after the denial runs
      expect(calls.map((node) => node.replayed === true)).toEqual([true, false]);
      expect(await states(host, fork.runId)).toEqual({ list: 'succeeded', page: 'succeeded' });
      // the recorded run stands as it was
      expect(toolNodes((await traceOf(host, runId))!)[0]?.output).toBe('deployed prod');
    }, 120_000);

    it('refuses a fork at a record the run does not have, a change that does not fit, and a run it does not have', async () => {
      const runId = await start('quick');
      await host.result(runId);
      const change = { result: 'x' };
      expect(await codeOf(host.forkPlan(runId, { at: 'tool nowhere work#0.0', change }))).toBe(
        'studio-fork-record-unknown',
      );
      expect(await codeOf(host.fork(runId, { at: 1, change }))).toBe('studio-fork-invalid');
      expect(await codeOf(host.fork('no-such-run-0000', { at: 1, change }))).toBe(
        'studio-run-missing',
      );
    }, 120_000);

    it("reads a thread's messages in order: the second run starts from the first's conversation", async () => {
      const thread = `desk-thread-${Date.now().toString(36)}`;
      const first = await host.start({
        workflow: subject.workflow,
        props: { mode: 'quick' },
        thread,
      });
      expect((await host.result(first)).status).toBe('succeeded');
      const second = await host.start({
        workflow: subject.workflow,
        props: { mode: 'deploy' },
        thread,
        policy: { approve: 'all' },
      });
      expect((await host.result(second)).status).toBe('succeeded');
      // what a reloaded chat page shows: both runs' prompts and answers, in the order they ran
      const said = (await host.threadMessages!(thread)).flatMap((message) => {
        const { role, content } = message as { role: string; content: unknown };
        if (typeof content === 'string') return [`${role}: ${content}`];
        return (content as { type: string; text?: string; toolName?: string }[])
          .filter((part) => part.type === 'text' || part.type === 'tool-result')
          .map((part) => `${role}: ${part.text ?? `${part.toolName} result`}`);
      });
      expect(said).toEqual([
        'user: Work: quick',
        'assistant: quick done',
        'user: Work: deploy',
        'tool: deploy result',
        'assistant: deploy done',
      ]);
      expect((await host.threadRuns?.(thread))?.map((run) => run.runId)).toEqual([first, second]);
    }, 120_000);

    it('says the same of a run it does not have, whatever is asked', async () => {
      const runId = 'no-such-run-0000';
      expect(await host.readTrace(runId)).toEqual({ missing: true });
      expect(await listed(host, runId)).toBeUndefined();
      const codes = await Promise.all([
        codeOf(host.decisions(runId)),
        codeOf(host.answer(runId, { key: `${runId}/work#0.0`, approved: true })),
        codeOf(host.cancel(runId)),
        codeOf(host.result(runId)),
      ]);
      expect(codes).toEqual(Array(4).fill('studio-run-missing'));
    }, 60_000);
  });
}
