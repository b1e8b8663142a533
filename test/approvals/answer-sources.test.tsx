import { tool } from 'ai';
import {
  Agent,
  Step,
  Tool,
  memoryJournalStore,
  run,
  type ApprovalPolicy,
  type ApprovalSource,
  type RunEvent,
  type RunHandle,
  type Trace,
  type TraceNode,
} from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { chatBotSource, type BotClick } from '../../examples/approval-sources/chat-bot-source.js';
import { streamModel } from '../helpers/mock-stream-model.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A release that deploys once after a person's approval; `ran` counts the deploys. */
function release(options: { onApproval?: ApprovalPolicy; approvalSources?: ApprovalSource[] }) {
  const ran: string[] = [];
  const deploy = tool({
    description: 'Deploy',
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
  const journal = memoryJournalStore();
  const handle = run(
    <Agent model={model}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy" />
    </Agent>,
    { journal, ...options },
  );
  return { handle, ran, journal };
}

/** The answer as the run's events, trace and journal recorded it. */
async function recorded(handle: RunHandle, journal: ReturnType<typeof memoryJournalStore>) {
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const { trace } = await handle.result;
  const response = events.find((event) => event.type === 'approval-response')!;
  const records = await journal.read(handle.runId);
  return {
    event: response as Extract<RunEvent, { type: 'approval-response' }>,
    trace: toolNode(trace).approval!,
    journal: records.find((record) => record.type === 'approval-answer')!,
  };
}

function toolNode(trace: Trace): TraceNode {
  const found: TraceNode[] = [];
  const walk = (node: TraceNode) => {
    if (node.kind === 'tool') found.push(node);
    node.children.forEach(walk);
  };
  walk(trace.root);
  return found[0]!;
}

async function firstRequest(handle: RunHandle) {
  for await (const event of handle.events)
    if (event.type === 'approval-request') return event.request;
  throw new Error('no approval request');
}

describe('answer sources: where, who and when, in events, trace and journal', () => {
  test('the run handle: source "handle", the given answeredBy and time', async () => {
    const { handle, journal } = release({});
    const request = await firstRequest(handle);
    handle.deny(request.id, 'not today', { answeredBy: 'ana', answeredAt: '2026-11-30T12:00:00Z' });
    const { event, trace, journal: record } = await recorded(handle, journal);
    const origin = { source: 'handle', answeredBy: 'ana', answeredAt: '2026-11-30T12:00:00.000Z' };
    expect(event).toMatchObject({
      approved: false,
      reason: 'not today',
      automatic: false,
      ...origin,
    });
    expect(trace).toMatchObject({ status: 'denied', ...origin });
    expect(trace).not.toHaveProperty('automatic');
    expect(record).toMatchObject({ approved: false, automatic: false, ...origin });
  });

  test('onApproval deciding by itself stays automatic, through "policy"', async () => {
    const { handle, journal } = release({ onApproval: () => true });
    const { event, trace, journal: record } = await recorded(handle, journal);
    expect(event).toMatchObject({
      approved: true,
      automatic: true,
      source: 'policy',
      answeredAt: expect.stringMatching(ISO),
    });
    expect(trace).toMatchObject({
      automatic: true,
      source: 'policy',
      answeredAt: event.answeredAt,
    });
    expect(record).toMatchObject({
      automatic: true,
      source: 'policy',
      answeredAt: event.answeredAt,
    });
  });

  test("onApproval passing on a person's answer records that person, not automatic", async () => {
    const { handle, journal } = release({
      onApproval: async () => ({
        approved: true,
        answeredBy: 'U024BE7LH',
        source: 'slack',
        answeredAt: new Date('2026-11-30T12:05:00Z'),
      }),
    });
    const { event, trace, journal: record } = await recorded(handle, journal);
    const origin = {
      source: 'slack',
      answeredBy: 'U024BE7LH',
      answeredAt: '2026-11-30T12:05:00.000Z',
    };
    expect(event).toMatchObject({ approved: true, automatic: false, ...origin });
    expect(trace).toMatchObject({ status: 'approved', ...origin });
    expect(trace).not.toHaveProperty('automatic');
    expect(record).toMatchObject({ automatic: false, ...origin });
  });

  test('a user-written source (the chat bot example) answers as the person who clicked', async () => {
    const bot = fakeBot();
    const { handle, journal, ran } = release({ approvalSources: [chatBotSource(bot)] });
    const [posted] = await bot.posted(1);
    expect(posted!.text).toBe('deploy in step release wants {"env":"prod"}');
    bot.click({ ref: posted!.ref, approved: true, user: 'ana' });
    const { event, trace, journal: record } = await recorded(handle, journal);
    const origin = { source: 'slack', answeredBy: 'ana', answeredAt: expect.stringMatching(ISO) };
    expect(event).toMatchObject({ approved: true, automatic: false, ...origin });
    expect(trace).toMatchObject({ status: 'approved', ...origin });
    expect(record).toMatchObject({ approved: true, automatic: false, ...origin });
    expect(ran).toEqual(['prod']);
    expect(bot.closed).toEqual([[posted!.ref, 'answered through slack']]);
    expect(bot.listening).toBe(false); // disconnected when the run ended
  });

  test('the chat bot example edits a call: a bad edit is told to the person and waits, a good one runs', async () => {
    const bot = fakeBot();
    const { handle, journal, ran } = release({ approvalSources: [chatBotSource(bot)] });
    const [posted] = await bot.posted(1);
    bot.click({ ref: posted!.ref, approved: true, user: 'ana', input: { env: 1 } });
    expect(bot.replies).toEqual([
      [posted!.ref, 'ana', expect.stringMatching(/^june: the edited input for the "deploy" call/)],
    ]);
    expect(handle.pendingApprovals).toHaveLength(1);
    bot.click({ ref: posted!.ref, approved: true, user: 'ana', input: { env: 'staging' } });
    const { trace } = await recorded(handle, journal);
    expect(trace).toMatchObject({ status: 'approved', input: { env: 'staging' }, source: 'slack' });
    expect(ran).toEqual(['staging']);
  });

  test('the chat bot example answers instead of the tool: it never runs', async () => {
    const bot = fakeBot();
    const { handle, journal, ran } = release({ approvalSources: [chatBotSource(bot)] });
    const [posted] = await bot.posted(1);
    bot.click({ ref: posted!.ref, approved: false, user: 'bo', answer: 'deployed by hand' });
    const { trace } = await recorded(handle, journal);
    expect(trace).toMatchObject({
      status: 'responded',
      output: 'deployed by hand',
      answeredBy: 'bo',
    });
    expect(ran).toEqual([]);
  });

  test('answered twice at once, from the bot and the handle: applied once, the tool runs once', async () => {
    const bot = fakeBot();
    const { handle, journal, ran } = release({ approvalSources: [chatBotSource(bot)] });
    const [posted] = await bot.posted(1);
    // the same turn of the event loop: the bot's click, then the handle's denial
    bot.click({ ref: posted!.ref, approved: true, user: 'ana' });
    expect(() => handle.deny(posted!.ref, 'no', { answeredBy: 'bo' })).toThrow(
      /answered already \(approved through slack\)/,
    );
    const { event, journal: record } = await recorded(handle, journal);
    expect(event).toMatchObject({ approved: true, source: 'slack', answeredBy: 'ana' });
    expect(ran).toEqual(['prod']);
    const answers = (await journal.read(handle.runId)).filter((r) => r.type === 'approval-answer');
    expect(answers).toEqual([record]);
  });

  test('a source connected to the handle after the request is told about it', async () => {
    const { handle, journal } = release({});
    const request = await firstRequest(handle);
    handle.connect({
      name: 'pager',
      requested: (r, inbox) =>
        void inbox.answer(r.key!, { approved: false, reason: 'paged out', answeredBy: 'oncall' }),
    });
    const { event } = await recorded(handle, journal);
    expect(event).toMatchObject({
      id: request.id,
      approved: false,
      source: 'pager',
      answeredBy: 'oncall',
    });
  });
});

/** A chat bot in memory: what it posted, clicks to give, and whether anything listens. */
function fakeBot() {
  const posts: Array<{ text: string; ref: string }> = [];
  const closed: Array<[string, string]> = [];
  const replies: Array<[string, string, string]> = [];
  let listener: ((click: BotClick) => void) | undefined;
  const waiters: Array<() => void> = [];
  return {
    closed,
    replies,
    get listening() {
      return listener !== undefined;
    },
    post(text: string, ref: string) {
      posts.push({ text, ref });
      for (const wake of waiters.splice(0)) wake();
    },
    onClick(next: (click: BotClick) => void) {
      listener = next;
      return () => {
        listener = undefined;
      };
    },
    close: (ref: string, note: string) => void closed.push([ref, note]),
    reply: (ref: string, user: string, text: string) => void replies.push([ref, user, text]),
    click: (click: BotClick) => listener?.(click),
    async posted(count: number) {
      while (posts.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return posts;
    },
  };
}
