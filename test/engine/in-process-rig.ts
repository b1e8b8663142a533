// The engine contract's rig for engines that run in the test's process (the journal over a
// memory or file store, the recording engine): a run is interrupted by aborting it while it
// waits for an approval, and taken up again by a new run of the same id.
import type { ApprovalDecision } from '../../src/approvals/approval-request.js';
import type { Component } from '../../src/elements/element.js';
import type { DurableEngineFactory } from '../../src/engine/index.js';
import type { RunHandle } from '../../src/interpreter/index.js';
import { run } from '../../src/run/index.js';
import type { ContractRun, EngineRig, WaitingRequest } from './engine-contract.js';

/** The engines of one contract run: for its first process, and for taking it up again. */
export interface InProcessEngines {
  first: DurableEngineFactory;
  resumed: DurableEngineFactory;
}

/** A rig running each case in this process, over the engines `engines(dir)` makes. */
export function inProcessRig(engines: (dir: string) => InProcessEngines): EngineRig {
  return {
    async start(workflow, dir) {
      const module = (await import(workflow.file.href)) as Record<string, Component>;
      const made = engines(dir);
      const start = (component: Component, engine: DurableEngineFactory, runId?: string) =>
        run(component, {
          props: { dir },
          workflow: workflow.name,
          engine,
          ...(runId ? { runId } : {}),
        });
      let handle: RunHandle = start(module.default!, made.first);
      const contractRun: ContractRun = {
        waiting: async () =>
          handle.pendingApprovals.map((request) => ({
            key: request.key ?? request.id,
            tool: request.tool,
            input: request.input,
          })),
        answer: async (request, decision) => answer(handle, request, decision),
        interrupt: async () => {
          handle.abort('the process stops');
          await handle.result.then(
            () => {
              throw new Error('the interrupted run succeeded');
            },
            (error: unknown) => {
              if ((error as { code?: unknown }).code !== 'run-aborted') throw error;
            },
          );
        },
        resume: async (options = {}) => {
          const component = options.edited ? module.edited : module.default;
          handle = start(component!, made.resumed, handle.runId);
        },
        result: () => handle.result,
      };
      return contractRun;
    },
  };
}

/** Answers the request waiting under `request.key` through the run handle. */
function answer(handle: RunHandle, request: WaitingRequest, decision: ApprovalDecision): void {
  const id = handle.pendingApprovals.find(
    (pending) => (pending.key ?? pending.id) === request.key,
  )?.id;
  if (id === undefined) throw new Error(`no request waits under ${request.key}`);
  if (decision.approved)
    handle.approve(id, decision.input !== undefined ? { input: decision.input } : undefined);
  else if (decision.output !== undefined) handle.respond(id, decision.output);
  else handle.deny(id, decision.reason);
}
