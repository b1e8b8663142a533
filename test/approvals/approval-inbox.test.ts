import { describe, expect, test } from 'vitest';
import {
  ApprovalInbox,
  type ApprovalListener,
  type ApprovalRequest,
  type ApprovalSource,
  type SourceInbox,
} from '../../src/approvals/index.js';

const request = (id: string, key?: string): ApprovalRequest => ({
  id,
  tool: 'deploy',
  input: { env: 'prod' },
  step: 'release',
  toolCallId: `call-${id}`,
  ...(key !== undefined ? { key } : {}),
});

/** A listener that keeps what the inbox told it. */
function recording() {
  const told: string[] = [];
  const answers: Parameters<ApprovalListener['answered']>[] = [];
  const listener: ApprovalListener = {
    requested: (r) => told.push(`requested ${r.id}`),
    answered: (...args) => {
      answers.push(args);
      told.push(`answered ${args[0]} through ${args[1].source}`);
    },
    withdrawn: (id) => told.push(`withdrawn ${id}`),
  };
  return { told, answers, listener };
}

describe('ApprovalInbox', () => {
  test('applies the first answer once, by key or by id, and tells later ones why not', async () => {
    const { told, answers, listener } = recording();
    const inbox = new ApprovalInbox(listener);
    const answer = inbox.request(
      request('a1', 'run/release#0.0'),
      new AbortController().signal,
      'run',
    );
    const first = inbox.answer('run/release#0.0', { approved: true, answeredBy: 'ana' }, 'studio');
    expect(first).toMatchObject({
      status: 'applied',
      answer: { approved: true, source: 'studio', answeredBy: 'ana' },
    });
    const second = inbox.answer('a1', { approved: false, answeredBy: 'bo' }, 'terminal');
    expect(second).toMatchObject({
      status: 'answered',
      answer: { approved: true, source: 'studio', answeredBy: 'ana' },
    });
    expect(await answer).toMatchObject({ approved: true, automatic: false, source: 'studio' });
    expect(answers).toHaveLength(1);
    expect(told).toEqual(['requested a1', 'answered a1 through studio']);
    expect(inbox.answer('nope', { approved: true }, 'web')).toEqual({
      status: 'unknown',
      ref: 'nope',
      pending: [],
    });
  });

  test('records when the person answered: the given time, else now, as ISO 8601; a time that is not one is refused', async () => {
    const { listener } = recording();
    const inbox = new ApprovalInbox(listener);
    const signal = new AbortController().signal;
    const given = inbox.request(request('a1'), signal, 'run');
    inbox.answer(
      'a1',
      { approved: false, reason: 'not now', answeredAt: '2026-11-30T12:00:00Z' },
      'web',
    );
    expect(await given).toEqual({
      approved: false,
      reason: 'not now',
      source: 'web',
      answeredAt: '2026-11-30T12:00:00.000Z',
      automatic: false,
    });
    const before = Date.now();
    const now = inbox.request(request('a2'), signal, 'run');
    expect(() => inbox.answer('a2', { approved: true, answeredAt: 'not a time' }, 'web')).toThrow(
      expect.objectContaining({ code: 'approval-answer-invalid' }),
    );
    expect(inbox.requests.map((r) => r.id)).toEqual(['a2']);
    inbox.answer('a2', { approved: true }, 'web');
    expect(Date.parse((await now).answeredAt)).toBeGreaterThanOrEqual(before - 1);
  });

  test('an answer to a withdrawn request is refused as withdrawn; sources hear of the withdrawal', async () => {
    const { told, listener } = recording();
    const inbox = new ApprovalInbox(listener);
    const settled: string[] = [];
    inbox.connect({
      name: 'bot',
      settled: (r, result) => settled.push(`${r.id} ${result.status}`),
    });
    const controller = new AbortController();
    const asked = inbox.request(request('a1'), controller.signal, 'run');
    controller.abort(new Error('stop'));
    await expect(asked).rejects.toMatchObject({ code: 'run-aborted' });
    expect(inbox.answer('a1', { approved: true }, 'bot')).toMatchObject({
      status: 'withdrawn',
      reason: 'the run was aborted',
    });
    expect(settled).toEqual(['a1 withdrawn']);
    expect(told).toEqual(['requested a1', 'withdrawn a1']);
  });

  test('two sources answering the same request at once: one is applied, the other is told it was answered', async () => {
    const { answers, listener } = recording();
    const inbox = new ApprovalInbox(listener);
    const results: Record<string, string> = {};
    // both answer as soon as they hear of the request, in the same turn of the event loop
    const eager = (name: string, approved: boolean): ApprovalSource => ({
      name,
      requested: (r, box: SourceInbox) => {
        void Promise.resolve().then(() => {
          results[name] = box.answer(r.key!, { approved, answeredBy: name }).status;
        });
      },
    });
    inbox.connect(eager('slack', true));
    inbox.connect(eager('teams', false));
    const answer = await inbox.request(request('a1', 'k1'), new AbortController().signal, 'run');
    await Promise.resolve();
    expect(results).toEqual({ slack: 'applied', teams: 'answered' });
    expect(answer).toMatchObject({ approved: true, source: 'slack', answeredBy: 'slack' });
    expect(answers).toHaveLength(1);
  });

  test('a policy decides automatically; one that names who answered records a person', async () => {
    const { listener } = recording();
    const signal = new AbortController().signal;
    const automatic = new ApprovalInbox(listener, { policy: () => true });
    expect(await automatic.request(request('a1'), signal, 'run')).toMatchObject({
      approved: true,
      automatic: true,
      source: 'policy',
    });
    const person = new ApprovalInbox(listener, {
      policy: async () => ({ approved: false, reason: 'no', answeredBy: 'ana', source: 'chat' }),
    });
    expect(await person.request(request('a2'), signal, 'run')).toMatchObject({
      approved: false,
      automatic: false,
      source: 'chat',
      answeredBy: 'ana',
    });
  });

  test('sources hear only of the requests a policy left to a person; a throwing source is a warning', async () => {
    const { listener } = recording();
    const heard: string[] = [];
    const inbox = new ApprovalInbox(listener, {
      policy: (r) => (r.id === 'a1' ? true : undefined),
    });
    inbox.connect({ name: 'bot', requested: (r) => heard.push(r.id) });
    inbox.connect({
      name: 'broken',
      requested: () => {
        throw new Error('bot down');
      },
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const signal = new AbortController().signal;
    await inbox.request(request('a1'), signal, 'run');
    const second = inbox.request(request('a2'), signal, 'run');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['a2']);
    inbox.answer('a2', { approved: true }, 'bot');
    await second;
    process.off('warning', onWarning);
    expect(warnings).toEqual(['june: the approval source "broken" threw in requested: bot down']);
  });

  test('close() disconnects every source once', async () => {
    const { listener } = recording();
    const inbox = new ApprovalInbox(listener);
    let disconnected = 0;
    inbox.connect({ name: 'bot', connect: () => async () => void disconnected++ });
    await inbox.close();
    await inbox.close();
    expect(disconnected).toBe(1);
  });

  test('holds a call answered while another request of its turn is open, also one not asked yet', async () => {
    const { listener } = recording();
    const inbox = new ApprovalInbox(listener);
    const signal = new AbortController().signal;
    inbox.turn(['r/go#0.0', 'r/go#0.1']);
    const first = inbox.request(request('a1', 'r/go#0.0'), signal, 'run');
    inbox.answer('a1', { approved: true }, 'policy', true);
    await first;
    // the other request of the turn was not even asked: the answered call is held
    expect(inbox.held).toEqual([{ request: request('a1', 'r/go#0.0'), approved: true }]);
    const second = inbox.request(request('a2', 'r/go#0.1'), signal, 'run');
    expect(inbox.held).toHaveLength(1);
    inbox.answer('r/go#0.1', { approved: false }, 'studio');
    await second;
    expect(inbox.held).toEqual([]);
    // a request of a turn of its own is never held
    const alone = inbox.request(request('a3', 'r/go#1.0'), signal, 'run');
    inbox.answer('a3', { approved: true }, 'studio');
    await alone;
    expect(inbox.held).toEqual([]);
  });

  test('a source that connects asynchronously is disconnected with what its promise gave', async () => {
    const { listener } = recording();
    const inbox = new ApprovalInbox(listener);
    const events: string[] = [];
    const disconnect = inbox.connect({
      name: 'bot',
      connect: async () => {
        events.push('connected');
        return () => void events.push('disconnected');
      },
    });
    // its promise settles after connect returned
    await new Promise((resolve) => setImmediate(resolve));
    await disconnect();
    expect(events).toEqual(['connected', 'disconnected']);
  });
});
