// Answers that are not answers get a june: error naming what to change, and change nothing:
// an answeredAt that is not a time, a source without a name, and an onApproval policy that
// returns something other than a decision (a typo must not deny, or approve, in silence).
import { tool } from 'ai';
import { Agent, JuneError, Step, Tool, run, type ApprovalPolicy } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

function release(options: { onApproval?: ApprovalPolicy } = {}) {
  const ran: string[] = [];
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      ran.push(env);
      return `deployed to ${env}`;
    },
  });
  const model = streamModel([
    { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] },
    { text: 'Done.' },
  ]);
  const handle = run(
    <Agent model={model}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy" />
    </Agent>,
    options,
  );
  return { handle, ran };
}

async function firstRequest(handle: ReturnType<typeof release>['handle']) {
  for await (const event of handle.events)
    if (event.type === 'approval-request') return event.request;
  throw new Error('no approval request');
}

const thrown = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    expect(JuneError.isInstance(error)).toBe(true);
    return error as JuneError;
  }
  return expect.fail('expected a june: error');
};

describe('answers that are not answers', () => {
  test('an answeredAt that is not a time: approval-answer-invalid, and the request still waits', async () => {
    const { handle, ran } = release();
    const request = await firstRequest(handle);
    const error = thrown(() => handle.approve(request.id, { answeredAt: 'yesterday' }));
    expect(error.code).toBe('approval-answer-invalid');
    expect(error.message).toBe(
      `june: the answer to approval request "${request.id}" has answeredAt "yesterday", which is not a time; give an ISO 8601 string such as "2026-12-01T09:30:00Z" or a Date, or leave it out (now).`,
    );
    expect(handle.pendingApprovals.map((r) => r.id)).toEqual([request.id]);
    handle.approve(request.id, { answeredAt: new Date('2026-12-01T09:30:00Z') });
    const { trace } = await handle.result;
    expect(ran).toEqual(['prod']);
    expect(JSON.stringify(trace)).toContain('"answeredAt":"2026-12-01T09:30:00.000Z"');
  });

  test('a source without a name: approval-source-invalid when it is connected', async () => {
    const { handle } = release();
    const request = await firstRequest(handle);
    const error = thrown(() => handle.connect({ name: '' }));
    expect(error.code).toBe('approval-source-invalid');
    expect(error.message).toMatch(/^june: an approval source needs a name/);
    handle.deny(request.id, 'not now');
    await handle.result;
  });

  test.each([['yes'], [{ approve: true }], [1]])(
    'onApproval returning %j: approval-policy-invalid fails the run, and the tool does not run',
    async (returned) => {
      const { handle, ran } = release({ onApproval: () => returned as never });
      const error = (await handle.result.catch((caught: unknown) => caught)) as JuneError;
      expect(JuneError.isInstance(error)).toBe(true);
      expect(error.code).toBe('approval-policy-invalid');
      expect(error.message).toBe(
        `june: the onApproval policy returned ${JSON.stringify(returned)} for the "deploy" call in step "release"; return true or false, undefined to leave the call to a person, or { approved: boolean, reason?, answeredBy?, source? }.`,
      );
      expect(ran).toEqual([]);
    },
  );
});
