import type { ApprovalDesk } from './approval-desk.js';
import type { DatabaseRuns } from './database-runs.js';
import { StudioRequestError } from './studio-request-error.js';
import { approvalsInTrace, type WaitingApproval } from './waiting-approvals.js';

/**
 * The approval desk of a database of runs (`june studio --database`): what a run waits for
 * is what DBOS lists (`RunClient.waiting`), its key the request's stable id; an answer goes
 * to the run's worker as a DBOS message (`RunClient.approve`), the same as `june approve`.
 * A run over a database is always `live`: whichever worker holds it takes the answer.
 *
 * @example
 * ```ts
 * const desk = databaseApprovalDesk(runs);
 * await desk.answer(runId, { key: 'entry#2.0', approved: true });
 * ```
 */
export function databaseApprovalDesk(runs: DatabaseRuns): ApprovalDesk {
  return {
    async approvals(runId) {
      const requests = await mapped(runId, () => runs.client.waiting(runId));
      const trace = runs.trace(runId);
      const shown = trace ? approvalsInTrace(trace) : [];
      const waiting = requests.map((request): WaitingApproval => {
        const known = shown.find((approval) => approval.requestId === request.id);
        return {
          ...(known ?? {}),
          key: request.id,
          requestId: request.id,
          tool: request.tool,
          input: request.input,
          step: request.step,
          status: 'pending',
        };
      });
      return { runId, state: waiting.length ? 'live' : 'none', resumable: false, waiting };
    },
    async answer(runId, answer) {
      await mapped(runId, () =>
        runs.client.approve(runId, {
          requestId: answer.key,
          approved: answer.approved,
          ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
        }),
      );
      return { delivered: 'live' };
    },
  };
}

/** Runs a RunClient call; its "no such run" and "nothing to answer" errors become 404 and 409. */
async function mapped<T>(runId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    if (code === 'dbos-run-unknown')
      throw new StudioRequestError('studio-run-missing', message, 404);
    if (code === 'approval-unknown' || code === 'dbos-run-finished')
      throw new StudioRequestError('studio-approval-unknown', message, 409);
    throw error;
  }
}
