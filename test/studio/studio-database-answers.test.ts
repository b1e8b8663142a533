import { describe, expect, it } from 'vitest';
import { databaseApprovalDesk } from '../../src/host/database-approval-desk.js';
import type { DatabaseRuns } from '../../src/host/database-runs.js';
import type { SettledAnswer } from '../../src/approvals/index.js';
import type { DbosAnswerResult } from '../../src/dbos/run-client.js';
import { WorkflowError } from '../../src/errors/index.js';

// Studio over a database of runs hands answers to the RunClient, where the first answer
// stored for a call applies. Studio itself takes one answer per call (of an approve and a
// deny given at once, one is sent and the other refused with 409), and an answer another
// process stored first is refused with 409 too, naming the answer that stands.

const request = { id: 'entry#0.0', tool: 'publish', input: { n: 0 }, step: 'entry' };

/**
 * A database of one run waiting for the call "entry#0.0", as the RunClient shows it; with
 * `standing`, another process stored that answer to the call first.
 */
function databaseRuns(standing?: SettledAnswer) {
  const sent: Array<{ runId: string; requestId?: string; approved: boolean }> = [];
  let fail = false;
  const client = {
    waiting: async () => [request],
    approve: async (
      runId: string,
      answer: { requestId?: string; approved: boolean },
    ): Promise<DbosAnswerResult[]> => {
      await new Promise((resolve) => setTimeout(resolve, 10)); // the database's round trip
      if (fail) throw Object.assign(new Error('june: the database went away'), { code: 'x' });
      if (standing) return [{ status: 'answered', request, answer: standing }];
      sent.push({ runId, ...answer });
      const at = new Date().toISOString();
      return [
        {
          status: 'applied',
          request,
          answer: { approved: answer.approved, source: 'studio', answeredAt: at, automatic: false },
        },
      ];
    },
  };
  const runs = {
    client,
    trace: () => undefined,
    summary: () => undefined,
  } as unknown as DatabaseRuns;
  return { runs, sent, failNext: (value: boolean) => (fail = value) };
}

describe('Studio over a database: one answer per call', () => {
  it('an approve and a deny at once: one is sent, the other refused with 409; the call no longer shows as waiting', async () => {
    const { runs, sent } = databaseRuns();
    const desk = databaseApprovalDesk(runs);
    const outcomes = await Promise.allSettled([
      desk.answer('r1', { key: 'entry#0.0', approved: true }),
      desk.answer('r1', { key: 'entry#0.0', approved: false, reason: 'no' }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected')!;
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      code: 'studio-approval-unknown',
      status: 409,
      message: expect.stringMatching(
        /^june: the call "entry#0.0" of run "r1" was answered already/,
      ),
    });
    expect(sent).toHaveLength(1);
    expect((await desk.approvals('r1')).waiting).toEqual([]);
    // another run's call of the same key is its own
    await desk.answer('r2', { key: 'entry#0.0', approved: true });
    expect(sent.map((answer) => answer.runId)).toEqual(['r1', 'r2']);
  });

  it('an answer that could not be sent may be given again', async () => {
    const { runs, sent, failNext } = databaseRuns();
    const desk = databaseApprovalDesk(runs);
    failNext(true);
    await expect(desk.answer('r1', { key: 'entry#0.0', approved: true })).rejects.toThrow(
      'the database went away',
    );
    failNext(false);
    await desk.answer('r1', { key: 'entry#0.0', approved: true });
    expect(sent).toHaveLength(1);
  });

  it('an answer another process stored first is refused with 409, naming the answer that stands', async () => {
    const { runs, sent } = databaseRuns({
      approved: false,
      reason: 'not today',
      source: 'database',
      answeredBy: 'ana',
      answeredAt: '2026-12-02T04:50:01.123Z',
      automatic: false,
    });
    const desk = databaseApprovalDesk(runs);
    await expect(desk.answer('r1', { key: 'entry#0.0', approved: true })).rejects.toMatchObject({
      code: 'studio-approval-unknown',
      status: 409,
      message:
        'june: the approval request "entry#0.0" of run r1 was answered already: denied (not today) through database by ana at 2026-12-02T04:50:01.123Z. That answer stands; this approval was not applied.',
    });
    expect(sent).toEqual([]);
  });

  it('an edit the tool schema refuses is 409 studio-approval-invalid with its message, and may be given again', async () => {
    const { runs, sent } = databaseRuns();
    const approve = runs.client.approve.bind(runs.client);
    let refuse = true;
    runs.client.approve = (async (runId: string, answer: { approved: boolean }) => {
      if (!refuse) return approve(runId, answer as never);
      refuse = false;
      throw new WorkflowError(
        'approval-input-invalid',
        'june: the edited input for the "publish" call of approval request "entry#0.0" in step "entry" does not fit the tool\'s input schema: $.n: Invalid input: expected number, received string. Nothing changed and the request still waits.',
      );
    }) as typeof runs.client.approve;
    const desk = databaseApprovalDesk(runs);
    await expect(
      desk.answer('r1', { key: 'entry#0.0', approved: true, input: { n: 'x' } }),
    ).rejects.toMatchObject({
      code: 'studio-approval-invalid',
      status: 409,
      message: expect.stringMatching(/^june: the edited input for the "publish" call/),
    });
    await desk.answer('r1', { key: 'entry#0.0', approved: true, input: { n: 1 } });
    expect(sent).toHaveLength(1);
  });
});
