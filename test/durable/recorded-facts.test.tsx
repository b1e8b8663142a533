import { tool } from 'ai';
import {
  Agent,
  JuneError,
  Step,
  run,
  type RunEvent,
  type RunHandle,
  memoryJournalStore,
} from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstEvent, isApprovalRequest, turnModel } from './support.js';

// The model calls refund, then (whatever refund gave) deploy, then answers.
const turns = {
  main: [
    { toolCalls: [{ id: 'c_refund', tool: 'refund', input: { amount: 500 } }] },
    { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
    { text: 'Done.' },
  ],
};

/** refund asks only while `policy.refundNeedsApproval` says so; deploy always asks. */
function tools(policy = { refundNeedsApproval: true }) {
  const ran: string[] = [];
  return {
    ran,
    policy,
    refund: tool({
      description: 'Refund an order',
      inputSchema: z.object({ amount: z.number() }),
      needsApproval: () => policy.refundNeedsApproval,
      execute: async ({ amount }) => (ran.push(`refund:${amount}`), 'refunded'),
    }),
    deploy: tool({
      description: 'Deploy',
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: async ({ env }) => (ran.push(`deploy:${env}`), `deployed ${env}`),
    }),
  };
}

function Shop({ tools: t }: { tools: ReturnType<typeof tools> }) {
  return (
    <Agent model={turnModel(turns)} tools={{ refund: t.refund, deploy: t.deploy }}>
      <Step id="main" prompt="Refund, then deploy" />
    </Agent>
  );
}

/** Runs until deploy waits, with refund denied by a person; then the process "stops". */
async function deniedThenStopped(
  store: ReturnType<typeof memoryJournalStore>,
  t: ReturnType<typeof tools>,
): Promise<RunHandle> {
  const handle = run(<Shop tools={t} />, { journal: store });
  const refund = await requestOf(handle, 'refund');
  handle.deny(refund.request.id, 'too large');
  await requestOf(handle, 'deploy');
  handle.abort('the process stopped');
  await handle.result.catch(() => {});
  return handle;
}

/** The approval request of `tool` (events replay from the start for every reader). */
const requestOf = (handle: RunHandle, name: string) =>
  firstEvent(
    handle,
    (event): event is Extract<RunEvent, { type: 'approval-request' }> =>
      isApprovalRequest(event) && event.request.tool === name,
  );

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as JuneError,
  );

describe('on resume, what the journal recorded decides', () => {
  it('a recorded denial stands when needsApproval now says no and every approval is granted', async () => {
    const store = memoryJournalStore();
    const t = tools();
    const handle = await deniedThenStopped(store, t);
    t.policy.refundNeedsApproval = false;
    const asked: string[] = [];
    const result = await run(<Shop tools={t} />, {
      journal: store,
      resume: handle.runId,
      onApproval: (request) => (asked.push(request.tool), true),
    }).result;
    expect(result.output).toBe('Done.');
    expect(t.ran).toEqual(['deploy:prod']);
    // only the pending request was asked; the denial came from the journal
    expect(asked).toEqual(['deploy']);
  });

  it('a recorded denial stands against handle.approve and an approve-all policy alike: the request is never pending', async () => {
    const store = memoryJournalStore();
    const t = tools();
    const handle = await deniedThenStopped(store, t);
    const resumed = run(<Shop tools={t} />, { journal: store, resume: handle.runId });
    const deploy = await firstEvent(resumed, isApprovalRequest);
    expect(deploy.request.tool).toBe('deploy');
    expect(resumed.pendingApprovals.map((request) => request.tool)).toEqual(['deploy']);
    resumed.approve(deploy.request.id);
    expect((await resumed.result).output).toBe('Done.');
    expect(t.ran).toEqual(['deploy:prod']);
  });

  it('a call that ran without approval is not asked again when needsApproval now says yes', async () => {
    const store = memoryJournalStore();
    const t = tools({ refundNeedsApproval: false });
    const handle = run(<Shop tools={t} />, { journal: store });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('the process stopped');
    await handle.result.catch(() => {});
    expect(t.ran).toEqual(['refund:500']);

    t.policy.refundNeedsApproval = true;
    const asked: string[] = [];
    const result = await run(<Shop tools={t} />, {
      journal: store,
      resume: handle.runId,
      onApproval: (request) => (asked.push(request.tool), true),
    }).result;
    expect(result.output).toBe('Done.');
    expect(asked).toEqual(['deploy']);
    expect(t.ran).toEqual(['refund:500', 'deploy:prod']);
  });

  it('needsApproval is asked once per call: a function that changes its mind after the answer cannot turn it around', async () => {
    const t = tools();
    const handle = run(<Shop tools={t} />, { journal: memoryJournalStore() });
    const refund = await requestOf(handle, 'refund');
    t.policy.refundNeedsApproval = false;
    handle.deny(refund.request.id, 'too large');
    const deploy = await requestOf(handle, 'deploy');
    handle.approve(deploy.request.id);
    expect((await handle.result).output).toBe('Done.');
    expect(t.ran).toEqual(['deploy:prod']);
  });

  it('a recorded approval request that no longer fits the call fails with journal-mismatch before anyone is asked or anything runs', async () => {
    const store = memoryJournalStore();
    const t = tools();
    const handle = await deniedThenStopped(store, t);
    // the journal of another workflow version: the pending request was for another input
    const edited = memoryJournalStore();
    for (const record of await store.read(handle.runId)) {
      const changed =
        record.type === 'approval-request' && record.tool === 'deploy'
          ? { ...record, input: { env: 'staging' } }
          : record;
      if (changed.type === 'journal') await edited.create(handle.runId, changed);
      else await edited.append(handle.runId, changed);
    }
    const asked: string[] = [];
    const error = await failureOf(
      run(<Shop tools={t} />, {
        journal: edited,
        resume: handle.runId,
        onApproval: (request) => (asked.push(request.tool), true),
      }).result,
    );
    expect(error?.code).toBe('journal-mismatch');
    expect(error?.message).toContain(
      'the tool call main#1.0 ("deploy") of step "main" does not fit what was recorded: its input was {"env":"staging"} when the run was recorded, now {"env":"prod"}',
    );
    expect(asked).toEqual([]);
    expect(t.ran).toEqual([]);
  });

  it('a recorded tool call of another tool fails with journal-mismatch, and the tool does not run', async () => {
    const store = memoryJournalStore();
    const t = tools({ refundNeedsApproval: false });
    const handle = run(<Shop tools={t} />, { journal: store });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('the process stopped');
    await handle.result.catch(() => {});
    const edited = memoryJournalStore();
    for (const record of await store.read(handle.runId)) {
      if (record.type === 'journal') await edited.create(handle.runId, record);
      else
        await edited.append(
          handle.runId,
          record.type === 'tool-call' ? { ...record, tool: 'chargeback' } : record,
        );
    }
    t.ran.length = 0;
    const error = await failureOf(
      run(<Shop tools={t} />, { journal: edited, resume: handle.runId, onApproval: () => true })
        .result,
    );
    expect(error?.code).toBe('journal-mismatch');
    expect(error?.message).toContain(
      'it was a call of "chargeback" when the run was recorded, now of "refund"',
    );
    expect(t.ran).toEqual([]);
  });
});
