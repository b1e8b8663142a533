import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool, type ModelMessage } from 'ai';
import {
  Agent,
  deleteThread,
  fileJournalStore,
  JuneError,
  listThread,
  listThreads,
  memoryJournalStore,
  run,
  Step,
  Tool,
  type JournalStore,
} from 'june';
import { scriptedModel } from 'june/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A thread continues one agent's conversation across runs: each run of the thread starts
// from the conversation the thread's last run left, one run of a thread runs at a time, and
// a thread is listed in order and deleted, in the file store and the memory store alike.

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const stores: Record<string, () => { store: JournalStore; dir?: string }> = {
  file: () => {
    const dir = mkdtempSync(join(tmpdir(), 'june-threads-'));
    folders.push(dir);
    return { store: fileJournalStore({ dir }), dir };
  },
  memory: () => ({ store: memoryJournalStore() }),
};

function replies(...texts: string[]) {
  return scriptedModel(
    {
      $comment: 'Test fixture: one reply per run',
      steps: { reply: texts.map((text) => ({ text })) },
    },
    { name: 'support' },
  );
}

type Model = ReturnType<typeof replies>;

function Support({
  model,
  message,
  messages,
}: {
  model: Model;
  message: string;
  messages?: ModelMessage[];
}) {
  return (
    <Agent
      name="support"
      model={model}
      instructions="Answer briefly."
      {...(messages ? { messages } : {})}
    >
      <Step id="reply" prompt={message} />
    </Agent>
  );
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });
const system = { role: 'system', content: 'Answer briefly.' };

/** The prompt a model call got, its messages as the provider sees them, without provider options. */
function promptOf(model: Model, call: number) {
  return model.calls[call]!.prompt.map((message) => ({
    role: message.role,
    content: Array.isArray(message.content)
      ? message.content.map((part) =>
          part.type === 'text' ? { type: 'text', text: part.text } : part,
        )
      : message.content,
  }));
}

describe.each(Object.keys(stores))('threads in the %s store', (kind) => {
  for (const stream of [true, false]) {
    it(`a thread of three runs: the third run's model gets the first two runs' conversation (${stream ? 'streaming' : 'batch'})`, async () => {
      const { store } = stores[kind]!();
      const model = replies('Order A-1 shipped.', 'It arrives Friday.', 'You are welcome.');
      const ids: string[] = [];
      for (const message of ['Where is A-1?', 'When does it arrive?', 'Thanks!']) {
        const handle = run(<Support model={model} message={message} />, {
          journal: store,
          thread: 'ana',
          stream,
        });
        ids.push(handle.runId);
        await handle.result;
      }

      expect(promptOf(model, 2)).toEqual([
        system,
        user('Where is A-1?'),
        assistant('Order A-1 shipped.'),
        user('When does it arrive?'),
        assistant('It arrives Friday.'),
        user('Thanks!'),
      ]);
      expect(promptOf(model, 0)).toEqual([system, user('Where is A-1?')]);
      const listed = await listThread(store, 'ana');
      expect(listed.map((entry) => [entry.runId, entry.order])).toEqual([
        [ids[0], 1],
        [ids[1], 2],
        [ids[2], 3],
      ]);
      expect(await listThreads(store)).toEqual(['ana']);
      // each run's header says where it stands in its thread
      const [header] = await store.read(ids[2]!);
      expect(header).toMatchObject({ type: 'journal', thread: { id: 'ana', order: 3 } });
      model.assertAllTurnsUsed();
    });
  }

  it("a replay of a thread run starts from the thread's history: no model call, and the thread keeps its runs", async () => {
    const { store } = stores[kind]!();
    const model = replies('Order A-1 shipped.', 'It arrives Friday.');
    const ids: string[] = [];
    for (const message of ['Where is A-1?', 'When does it arrive?']) {
      const handle = run(<Support model={model} message={message} />, {
        journal: store,
        thread: 'ana',
      });
      ids.push(handle.runId);
      await handle.result;
    }
    const none = replies('never used');
    const replayed = run(<Support model={none} message="When does it arrive?" />, {
      journal: store,
      replay: await store.read(ids[1]!),
    });
    expect((await replayed.result).output).toBe('It arrives Friday.');
    expect(none.calls).toHaveLength(0);
    expect((await listThread(store, 'ana')).map((entry) => entry.runId)).toEqual(ids);
  });

  it("a messages prop comes after the thread's history, before the run's own turn", async () => {
    const { store } = stores[kind]!();
    const model = replies('Hello Ana.', 'Noted: you prefer email.');
    await run(<Support model={model} message="Hi, I am Ana." />, { journal: store, thread: 't1' })
      .result;
    const note: ModelMessage[] = [{ role: 'user', content: 'Note: Ana prefers email.' }];
    await run(<Support model={model} message="How will you reach me?" messages={note} />, {
      journal: store,
      thread: 't1',
    }).result;

    expect(promptOf(model, 1)).toEqual([
      system,
      user('Hi, I am Ana.'),
      assistant('Hello Ana.'),
      user('Note: Ana prefers email.'),
      user('How will you reach me?'),
    ]);
  });

  it('threads are apart: a run of another thread starts from its own conversation', async () => {
    const { store } = stores[kind]!();
    const model = replies('Hi Ana.', 'Hi Ben.');
    await run(<Support model={model} message="I am Ana." />, { journal: store, thread: 'ana' })
      .result;
    await run(<Support model={model} message="I am Ben." />, { journal: store, thread: 'ben' })
      .result;
    expect(promptOf(model, 1)).toEqual([system, user('I am Ben.')]);
    expect(await listThreads(store)).toEqual(['ana', 'ben']);
  });

  it('two runs of one thread at once: the second fails with thread-busy naming the first, or waits for it', async () => {
    const { store } = stores[kind]!();
    const model = scriptedModel(
      {
        $comment: 'Test fixture: a refund waits for approval, then two replies',
        steps: {
          reply: [
            { toolCalls: [{ tool: 'refund', input: { order: 'A-1' } }] },
            { text: 'Refunded A-1.' },
            { text: 'You got A-1 refunded.' },
          ],
        },
      },
      { name: 'support' },
    );
    const refund = tool({
      inputSchema: z.object({ order: z.string() }),
      needsApproval: true,
      execute: async ({ order }) => `refunded ${order}`,
    });
    const Refunds = ({ message }: { message: string }) => (
      <Agent name="support" model={model} instructions="Answer briefly.">
        <Tool name="refund" value={refund} />
        <Step id="reply" prompt={message} />
      </Agent>
    );
    const first = run(<Refunds message="Refund A-1." />, { journal: store, thread: 'ana' });
    for await (const event of first.events) if (event.type === 'approval-request') break;

    const second = run(<Refunds message="What did you do?" />, { journal: store, thread: 'ana' });
    const refused = await second.result.catch((error: unknown) => error);
    expect(JuneError.isInstance(refused) && refused.code).toBe('thread-busy');
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^june: thread ana is busy: run ${first.runId} of it is running in process ${process.pid}`,
      ),
    );
    expect(await listThread(store, 'ana')).toHaveLength(1);
    const deleting = await deleteThread(store, 'ana').catch((error: unknown) => error);
    expect(JuneError.isInstance(deleting) && deleting.code).toBe('thread-busy');

    // with waitForOwner, the third waits until the first ended, then goes on from its conversation
    const third = run(<Refunds message="What did you do?" />, {
      journal: store,
      thread: 'ana',
      waitForOwner: true,
    });
    first.approve(first.pendingApprovals[0]!.id);
    await first.result;
    await third.result;
    const last = model.calls.at(-1)!.prompt;
    expect(last.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect((await listThread(store, 'ana')).map((entry) => [entry.runId, entry.order])).toEqual([
      [first.runId, 1],
      [third.runId, 2],
    ]);
  });

  it('a run refused while the thread is held without a run (as deleting it holds it) is told which process holds it, not of a run', async () => {
    const { store } = stores[kind]!();
    // deleteThread holds the thread this way while it deletes
    const held = await store.threadLease!('ana', '');
    const refused = await run(<Support model={replies('Hi.')} message="Hi." />, {
      journal: store,
      thread: 'ana',
    }).result.catch((error: unknown) => error);
    await held.release();

    expect(JuneError.isInstance(refused) && refused.code).toBe('thread-busy');
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^june: thread ana is busy: process ${process.pid} on host .+ holds it without a run of it, as deleting the thread does \\(june threads delete\\); try again once it lets go; a new run waits for it with june run --wait-for-owner`,
      ),
    );
    expect((refused as Error).message).not.toContain('Wait for that run');
  });

  it('deleting a thread removes its runs and index; the next run of that id starts a new conversation', async () => {
    const { store, dir } = stores[kind]!();
    const model = replies('Hello Ana.', 'Hello again.', 'Hello, who are you?');
    const a = run(<Support model={model} message="I am Ana." />, { journal: store, thread: 'ana' });
    await a.result;
    const b = run(<Support model={model} message="Still me." />, { journal: store, thread: 'ana' });
    await b.result;

    const deleted = await deleteThread(store, 'ana');
    expect(deleted.map((entry) => entry.runId)).toEqual([a.runId, b.runId]);
    expect(await listThread(store, 'ana')).toEqual([]);
    expect(await listThreads(store)).toEqual([]);
    expect(await store.read(a.runId)).toEqual([]);
    expect(await store.list()).toEqual([]);
    if (dir) expect(existsSync(join(dir, a.runId))).toBe(false);

    await run(<Support model={model} message="Hi." />, { journal: store, thread: 'ana' }).result;
    expect(promptOf(model, 2)).toEqual([system, user('Hi.')]);
    expect((await listThread(store, 'ana')).map((entry) => entry.order)).toEqual([1]);
  });
});

describe('a resumed run of a thread', () => {
  it('keeps its place: it starts from the same history, holds the thread again, and the next run goes on from it', async () => {
    const store = memoryJournalStore();
    const turns = {
      reply: [
        { text: 'Hello Ana.' },
        { toolCalls: [{ tool: 'refund', input: { order: 'A-1' } }] },
        { text: 'Refunded A-1.' },
        { text: 'You asked for a refund of A-1.' },
      ],
    };
    const refund = tool({
      inputSchema: z.object({ order: z.string() }),
      needsApproval: true,
      execute: async ({ order }) => `refunded ${order}`,
    });
    const Refunds = ({ model, message }: { model: Model; message: string }) => (
      <Agent name="support" model={model} instructions="Answer briefly.">
        <Tool name="refund" value={refund} />
        <Step id="reply" prompt={message} />
      </Agent>
    );
    const first = scriptedModel({ $comment: 'Test fixture: a thread resumed', steps: turns });
    await run(<Refunds model={first} message="Hi, I am Ana." />, { journal: store, thread: 'ana' })
      .result;
    const waiting = run(<Refunds model={first} message="Refund A-1." />, {
      journal: store,
      thread: 'ana',
    });
    for await (const event of waiting.events) if (event.type === 'approval-request') break;
    waiting.abort('stopped while it waited');
    await waiting.result.catch(() => {});

    // another process takes it up: its first model call is answered from the journal, so
    // its request (history included) must be the one recorded
    const again = scriptedModel({
      $comment: 'Test fixture: the resumed run and the next one',
      steps: { reply: turns.reply.slice(2) },
    });
    const resumed = run(<Refunds model={again} message="Refund A-1." />, {
      journal: store,
      resume: waiting.runId,
      onApproval: () => true,
    });
    // once its agent started, the resumed run holds the thread (it took it when it opened)
    for await (const event of resumed.events) if (event.type === 'agent-start') break;
    const busy = await run(<Refunds model={again} message="And?" />, {
      journal: store,
      thread: 'ana',
    }).result.catch((error: unknown) => error);
    const { output } = await resumed.result;
    expect(output).toBe('Refunded A-1.');
    // a run of the thread while the resumed one held it
    expect(JuneError.isInstance(busy) && busy.code).toBe('thread-busy');

    await run(<Refunds model={again} message="What did I ask?" />, {
      journal: store,
      thread: 'ana',
    }).result;
    const last = again.calls.at(-1)!.prompt;
    expect(JSON.stringify(last)).toContain('Refund A-1.');
    expect(JSON.stringify(last)).toContain('Refunded A-1.');
    // the refused run left nothing in the thread
    expect((await listThread(store, 'ana')).map((entry) => entry.order)).toEqual([1, 2, 3]);
  });
});

describe('thread options', () => {
  it('threadAgent names the agent whose conversation the thread continues', async () => {
    const store = memoryJournalStore();
    const model = scriptedModel({
      $comment: 'Test fixture: two agents, the second one threaded',
      steps: {
        triage: [{ text: 'billing' }, { text: 'billing' }],
        reply: [{ text: 'Your invoice is attached.' }, { text: 'It was invoice 7.' }],
      },
    });
    const Desk = ({ message }: { message: string }) => (
      <>
        <Agent name="triage" model={model}>
          <Step id="triage" prompt={`Classify: ${message}`} />
        </Agent>
        <Agent name="support" model={model}>
          <Step id="reply" prompt={message} />
        </Agent>
      </>
    );
    for (const message of ['Send my invoice.', 'Which invoice was it?'])
      await run(<Desk message={message} />, {
        journal: store,
        thread: 'ana',
        threadAgent: 'support',
      }).result;
    const [triage, reply] = [model.calls[2]!, model.calls[3]!];
    expect(triage.prompt.map((message) => message.role)).toEqual(['user']);
    expect(reply.prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('a thread needs a journal store', () => {
    const model = replies('x');
    const refused = (() => {
      try {
        run(<Support model={model} message="Hi" />, { thread: 'ana' });
      } catch (error) {
        return error;
      }
    })();
    expect(JuneError.isInstance(refused) && refused.code).toBe('run-thread-invalid');
  });

  it('a thread id that is no file name fails with thread-id-invalid', async () => {
    const model = replies('x');
    const refused = await run(<Support model={model} message="Hi" />, {
      journal: memoryJournalStore(),
      thread: '../etc',
    }).result.catch((error: unknown) => error);
    expect(JuneError.isInstance(refused) && refused.code).toBe('thread-id-invalid');
  });
});
