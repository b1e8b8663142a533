// The engine contract: one suite of cases, each a whole run interrupted and taken up again,
// run against every `DurableEngine` (as Hono runs one suite over each of its routers). A new
// engine passes or fails the same cases: give `engineContract` a rig that says how a run
// starts, is interrupted and taken up again over that engine. The workflows are files in
// ./fixtures whose model and tools log to files in the run's folder, so an engine whose runs
// run in another process (a DBOS worker) is counted as one in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/approvals/approval-request.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { logLines } from './fixtures/contract-model.js';

/** A workflow of the contract: `file` exports it as `default`, and maybe an `edited` copy. */
export interface ContractWorkflow {
  /** The fixture's name (`release` for fixtures/release.tsx): a worker's workflow name. */
  name: string;
  file: URL;
}

/** An approval request waiting for an answer, as the engine's run shows it. */
export interface WaitingRequest {
  /** The request's stable key: the same for the same call after an interruption. */
  key: string;
  tool: string;
  input: unknown;
}

/** One run of a contract workflow over the engine under test. */
export interface ContractRun {
  /** The approval requests waiting for an answer now. */
  waiting(): Promise<WaitingRequest[]>;
  /** Answers a waiting request as a person would. */
  answer(request: WaitingRequest, decision: ApprovalDecision): Promise<void>;
  /** Interrupts the run while it waits for an approval (its process stops), keeping its records. */
  interrupt(): Promise<void>;
  /** Takes the interrupted run up again (a resume, a recovery); `edited`: with the workflow's `edited` export. */
  resume(options?: { edited?: boolean }): Promise<void>;
  /** The run's output and trace once it ends; rejects with its error. */
  result(): Promise<{ output: unknown; trace: Trace }>;
}

/** The cases of the contract, by id. */
export type ContractCase =
  | 'model-recorded'
  | 'tool-once'
  | 'approvals-once'
  | 'edited-answers'
  | 'question'
  | 'one-provider-call-id'
  | 'composite-places'
  | 'catch-attempts'
  | 'guard-decided-once'
  | 'changed-workflow';

/**
 * How the contract runs its cases over one engine. `limits` names the cases the engine
 * cannot be driven through the same way, with the reason, and `holds()` checking that the
 * reason still stands (the case's test fails once it does not: run the case then).
 */
export interface EngineRig {
  start(workflow: ContractWorkflow, dir: string): Promise<ContractRun>;
  limits?: Partial<Record<ContractCase, { reason: string; holds(): boolean }>>;
  /** How long a case may take, in ms. @default vitest's */
  timeoutMs?: number;
}

const fixture = (name: string): ContractWorkflow => ({
  name,
  file: new URL(`./fixtures/${name}.tsx`, import.meta.url),
});

/** The workflows of the contract, for a rig that sets them up before the cases run. */
export const contractWorkflows = {
  release: fixture('release'),
  edits: fixture('edits'),
  question: fixture('question'),
  sameCallId: fixture('same-call-id'),
  composite: fixture('composite'),
  catchRetry: fixture('catch-retry'),
  guarded: fixture('guarded'),
};

/** Polls the run until a request matching `match` waits; resolves with it. */
async function requestOf(
  run: ContractRun,
  match: (request: WaitingRequest) => boolean,
  what: string,
): Promise<WaitingRequest> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = (await run.waiting()).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const toolIs = (tool: string) => (request: WaitingRequest) => request.tool === tool;

/** The release run up to deploy's request: check answered, deploy waiting. */
async function releaseUntilDeploy(run: ContractRun): Promise<WaitingRequest> {
  await run.answer(await requestOf(run, toolIs('check'), 'check'), { approved: true });
  return requestOf(run, toolIs('deploy'), 'deploy');
}

const allNodes = (node: TraceNode): TraceNode[] => [node, ...node.children.flatMap(allNodes)];

/** Runs the engine contract against one engine: `name` heads the suite. */
export function engineContract(name: string, rig: EngineRig): void {
  describe(`the engine contract: ${name}`, () => {
    const contractCase = (
      id: ContractCase,
      title: string,
      body: (dir: string) => Promise<void>,
    ) => {
      const limit = rig.limits?.[id];
      if (limit) {
        it(`${title}: not run against ${name}, ${limit.reason}`, () => {
          expect(limit.holds()).toBe(true);
        });
        return;
      }
      it(
        title,
        async () => {
          const dir = mkdtempSync(join(tmpdir(), `june-contract-${id}-`));
          try {
            await body(dir);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
        rig.timeoutMs,
      );
    };
    const models = (dir: string) => logLines(dir, 'models.log');
    const effects = (dir: string) => logLines(dir, 'effects.log');

    contractCase(
      'model-recorded',
      'a model call recorded before the interruption is answered from the record: no model call for it',
      async (dir) => {
        const run = await rig.start(contractWorkflows.release, dir);
        await releaseUntilDeploy(run);
        const before = models(dir);
        expect(before).toEqual(['plan|1', 'plan|2', 'ship|1', 'ship|2']);
        await run.interrupt();
        await run.resume();
        await run.answer(await requestOf(run, toolIs('deploy'), 'deploy'), { approved: true });
        const { output } = await run.result();
        expect(output).toEqual({ plan: 'the plan', ship: 'shipped' });
        expect(models(dir)).toEqual([...before, 'ship|3']);
      },
    );

    contractCase(
      'tool-once',
      'a tool call that finished before the interruption runs once',
      async (dir) => {
        const run = await rig.start(contractWorkflows.release, dir);
        await releaseUntilDeploy(run);
        expect(effects(dir)).toEqual(['lookup 1.2', 'check staging']);
        await run.interrupt();
        await run.resume();
        await run.answer(await requestOf(run, toolIs('deploy'), 'deploy'), { approved: true });
        await run.result();
        expect(effects(dir)).toEqual(['lookup 1.2', 'check staging', 'deploy prod']);
      },
    );

    contractCase(
      'approvals-once',
      'an approval waiting at the interruption is asked once; one answered before it is never asked again',
      async (dir) => {
        const run = await rig.start(contractWorkflows.release, dir);
        const deploy = await releaseUntilDeploy(run);
        await run.interrupt();
        await run.resume();
        // check's request would wait for an answer nobody gives: the run reaches deploy only without it
        await requestOf(run, toolIs('deploy'), 'deploy, asked again');
        expect(await run.waiting()).toEqual([deploy]);
        await run.answer(deploy, { approved: true });
        await run.result();
        expect(effects(dir)).toEqual(['lookup 1.2', 'check staging', 'deploy prod']);
      },
    );

    contractCase(
      'edited-answers',
      'an edited approval and an answer instead of the tool, given before the interruption, stand after it',
      async (dir) => {
        const run = await rig.start(contractWorkflows.edits, dir);
        const deploy = await requestOf(run, toolIs('deploy'), 'deploy');
        const announce = await requestOf(run, toolIs('announce'), 'announce');
        const confirm = await requestOf(run, toolIs('confirm'), 'confirm');
        await run.answer(deploy, { approved: true, input: { env: 'prod' } });
        await run.answer(announce, { approved: false, output: 'announced by hand' });
        await requestOf(run, toolIs('confirm'), 'confirm');
        // the answered calls wait for the last request of their turn: nothing ran yet
        expect(effects(dir)).toEqual([]);
        await run.interrupt();
        await run.resume();
        await requestOf(run, toolIs('confirm'), 'confirm, asked again');
        expect(await run.waiting()).toEqual([confirm]);
        await run.answer(confirm, { approved: true });
        const { trace } = await run.result();
        expect(effects(dir).sort()).toEqual(['confirm prod', 'deploy prod']);
        const announced = allNodes(trace.root).find((node) => node.name === 'announce');
        expect(announced?.approval).toMatchObject({
          status: 'responded',
          output: 'announced by hand',
        });
        expect(models(dir)).toEqual(['ship|1', 'ship|2']);
      },
    );

    contractCase(
      'question',
      'a question asked before the interruption is asked once after it, and its answer is what the model reads',
      async (dir) => {
        const run = await rig.start(contractWorkflows.question, dir);
        const asked = await requestOf(run, toolIs('ask_env'), 'the question');
        await run.interrupt();
        await run.resume();
        await requestOf(run, toolIs('ask_env'), 'the question, after the interruption');
        expect(await run.waiting()).toEqual([asked]);
        await run.answer(asked, { approved: false, output: 'staging' });
        const { output, trace } = await run.result();
        expect(output).toBe('shipped');
        const question = allNodes(trace.root).find((node) => node.name === 'ask_env');
        expect(question?.approval).toMatchObject({ status: 'responded', output: 'staging' });
        expect(models(dir)).toEqual(['ship|1', 'ship|2']);
      },
    );

    contractCase(
      'one-provider-call-id',
      'two calls with one provider call id are each asked, answered and run once',
      async (dir) => {
        const run = await rig.start(contractWorkflows.sameCallId, dir);
        const staging = await requestOf(run, toolIs('deploy'), 'deploy to staging');
        expect(staging.input).toEqual({ env: 'staging' });
        await run.answer(staging, { approved: true });
        const prod = await requestOf(run, (r) => r.key !== staging.key, 'deploy to prod');
        expect(prod.input).toEqual({ env: 'prod' });
        await run.interrupt();
        await run.resume();
        await requestOf(run, toolIs('deploy'), 'deploy to prod, asked again');
        expect(await run.waiting()).toEqual([prod]);
        await run.answer(prod, { approved: true });
        await run.result();
        expect(effects(dir)).toEqual(['deploy staging', 'deploy prod']);
        expect(models(dir)).toEqual(['ship|1', 'ship|2', 'ship|3']);
      },
    );

    contractCase(
      'composite-places',
      "a composite tool called twice: its child runs' calls are told apart by place",
      async (dir) => {
        const run = await rig.start(contractWorkflows.composite, dir);
        const first = await requestOf(run, toolIs('check'), "the staging child's check");
        await run.answer(first, { approved: true });
        const second = await requestOf(run, (r) => r.key !== first.key, "the prod child's check");
        const before = models(dir);
        expect(before).toEqual(['plan|1', 'ship:go|1', 'ship:go|2', 'plan|2', 'ship:go|1']);
        await run.interrupt();
        await run.resume();
        await requestOf(run, toolIs('check'), "the prod child's check, asked again");
        expect(await run.waiting()).toEqual([second]);
        await run.answer(second, { approved: true });
        const { output } = await run.result();
        expect(output).toBe('the plan');
        expect(effects(dir)).toEqual(['check staging', 'check prod']);
        expect(models(dir)).toEqual([...before, 'ship:go|2', 'plan|3']);
      },
    );

    contractCase(
      'catch-attempts',
      'a <Catch> whose first model call failed keeps its failed and its successful attempt',
      async (dir) => {
        const run = await rig.start(contractWorkflows.catchRetry, dir);
        await requestOf(run, toolIs('deploy'), 'deploy');
        const before = models(dir);
        expect(before).toEqual(['plan|1', 'plan|1', 'ship|1']);
        await run.interrupt();
        await run.resume();
        await run.answer(await requestOf(run, toolIs('deploy'), 'deploy'), { approved: true });
        const { trace } = await run.result();
        const attempts = allNodes(trace.root)
          .filter((node) => node.kind === 'catch')
          .map((node) => [node.name, node.status, node.error?.message]);
        expect(attempts).toEqual([
          ['attempt 1', 'failed', 'june: the provider is overloaded'],
          ['attempt 2', 'succeeded', undefined],
        ]);
        expect(models(dir)).toEqual([...before, 'ship|2']);
        expect(effects(dir)).toEqual(['deploy prod']);
      },
    );

    contractCase(
      'guard-decided-once',
      "a guard's decision made before the interruption stands: its judge is asked once, and the call it escalated waits again",
      async (dir) => {
        const run = await rig.start(contractWorkflows.guarded, dir);
        await requestOf(run, toolIs('deploy'), 'deploy');
        expect(models(dir)).toEqual(['ship|1', 'ship@release-judge|1']);
        await run.interrupt();
        await run.resume();
        await run.answer(await requestOf(run, toolIs('deploy'), 'deploy'), { approved: true });
        const { output, trace } = await run.result();
        expect(output).toBe('shipped');
        expect(models(dir)).toEqual(['ship|1', 'ship@release-judge|1', 'ship|2']);
        expect(effects(dir)).toEqual(['deploy prod']);
        const call = allNodes(trace.root).find((node) => node.name === 'deploy')!;
        expect(call.guards).toMatchObject([
          { guard: 'release-judge', action: 'escalate', reason: 'a deploy to prod' },
        ]);
      },
    );

    contractCase(
      'changed-workflow',
      'a workflow changed before the resume fails with journal-mismatch before the changed call',
      async (dir) => {
        const run = await rig.start(contractWorkflows.release, dir);
        await releaseUntilDeploy(run);
        const before = { models: models(dir), effects: effects(dir) };
        await run.interrupt();
        await run.resume({ edited: true });
        await expect(run.result()).rejects.toMatchObject({ code: 'journal-mismatch' });
        expect({ models: models(dir), effects: effects(dir) }).toEqual(before);
      },
    );
  });
}
