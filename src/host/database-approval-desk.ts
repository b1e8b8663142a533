import { checkAnswerShape, editOf, type ApprovalDesk } from './approval-desk.js';
import type { DatabaseRuns } from './database-runs.js';
import { StudioRequestError } from './studio-request-error.js';
import { answerRefused, editRefused } from './answer-refusal.js';
import { localUser } from '../approvals/local-user.js';
import { notAppliedText } from '../dbos/answer-result-text.js';
import type { DbosApprovalRequest } from '../dbos/dbos-engine.js';
import { approvalsInTrace, type WaitingApproval } from './waiting-approvals.js';

/**
 * The approval desk of a database of runs (`june studio --database`): what a run waits for
 * is what DBOS lists (`RunClient.waiting`), its key `<runId>/<request id>` (the request's
 * `ApprovalRequest.key`, as a run's events and a chat page name it; an answer may name the
 * call by its request id alone, as `june approve` lets people type it); an answer goes
 * to the run's worker as a DBOS message (`RunClient.approve`), the same as `june approve`.
 * A run over a database is always `live`: whichever worker holds it takes the answer (DBOS
 * runs each run on one worker at a time). The first answer to a call this Studio sends is
 * the one given: another one to the same call gets `answered` (Studio's route: 409
 * `studio-approval-unknown`), and so does one whose call another process (`june approve`,
 * another Studio) answered first: the database keeps the first answer stored. Answers go as
 * answered through `studio`, by the given `answeredBy` or the user Studio runs as.
 *
 * @example
 * ```ts
 * const desk = databaseApprovalDesk(runs);
 * await desk.answer(runId, { key: `${runId}/entry#2.0`, approved: true });
 * ```
 */
export function databaseApprovalDesk(runs: DatabaseRuns): ApprovalDesk {
  const sent = new SentAnswers();
  return {
    async approvals(runId) {
      const requests = (await mapped(runId, () => runs.client.waiting(runId))).filter(
        (request) => !sent.has(runId, request.id),
      );
      const trace = runs.trace(runId);
      const shown = trace ? approvalsInTrace(trace) : [];
      const waiting = requests.map((request): WaitingApproval => {
        const known = shown.find((approval) => approval.requestId === request.id);
        return { ...(known ?? {}), ...callOf(runId, request) };
      });
      const held = (runs.summary(runId)?.held ?? []).map((request) => callOf(runId, request));
      return {
        runId,
        state: waiting.length ? 'live' : 'none',
        resumable: false,
        waiting,
        ...(held.length > 0 ? { held } : {}),
      };
    },
    async answer(runId, answer) {
      checkAnswerShape(runId, answer);
      const requestId = answer.key.startsWith(`${runId}/`)
        ? answer.key.slice(runId.length + 1)
        : answer.key;
      // checked and marked at once, before anything is awaited: of two answers to one call
      // given at once, the second is refused here rather than dropped by the database
      if (!sent.add(runId, requestId))
        throw answerRefused({
          status: 'answered',
          message: `june: the call "${answer.key}" of run "${runId}" was answered already; an answer counts once. Reload the run to see what it waits for.`,
        });
      const by = answer.answeredBy ?? localUser();
      let result;
      try {
        [result] = await mapped(runId, () =>
          runs.client.approve(runId, {
            requestId,
            approved: answer.approved,
            ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
            ...editOf(answer),
            ...(by !== undefined ? { answeredBy: by } : {}),
            source: answer.source ?? 'studio',
          }),
        );
      } catch (error) {
        sent.delete(runId, requestId);
        throw editRefused(error);
      }
      // another process (june approve, another Studio) stored its answer first
      if (result && result.status !== 'applied') {
        if (result.status === 'unknown') sent.delete(runId, requestId);
        throw answerRefused({
          status: result.status,
          message: notAppliedText(runId, result, answer),
        });
      }
      return { delivered: 'live' };
    },
  };
}

/** A request the database lists (waiting, or held: approved, waiting for the rest of its turn) as a call of a run's decisions. */
function callOf(runId: string, request: DbosApprovalRequest): WaitingApproval {
  return {
    key: `${runId}/${request.id}`,
    requestId: request.id,
    tool: request.tool,
    input: request.input,
    step: request.step,
    status: 'pending',
    ...questionOf(request),
  };
}

/**
 * The calls this Studio answered (until their run takes the answer, DBOS still lists them
 * as waiting), the most recent {@link SentAnswers.LIMIT} of them.
 */
class SentAnswers {
  static readonly LIMIT = 10_000;
  readonly #keys = new Set<string>();

  has(runId: string, key: string): boolean {
    return this.#keys.has(`${runId}\n${key}`);
  }

  /** Marks the call as answered; false when it was already. */
  add(runId: string, key: string): boolean {
    const id = `${runId}\n${key}`;
    if (this.#keys.has(id)) return false;
    this.#keys.add(id);
    if (this.#keys.size > SentAnswers.LIMIT) this.#keys.delete(this.#keys.values().next().value!);
    return true;
  }

  delete(runId: string, key: string): void {
    this.#keys.delete(`${runId}\n${key}`);
  }
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

/** A question's `kind` and `question`, as a waiting approval carries them; nothing for a tool call. */
function questionOf(request: DbosApprovalRequest): Pick<WaitingApproval, 'kind' | 'question'> {
  return request.kind === 'question' && request.question
    ? { kind: 'question', question: request.question }
    : {};
}
