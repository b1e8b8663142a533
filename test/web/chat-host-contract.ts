// The chat handler's cases over a run host, in Hono's style: one suite, run against every
// host a chat's runs may live on (memory and a runs folder run here: host-chat.test.tsx;
// a database with a worker: dbos-chat.test.tsx). The page's first message starts a run of
// the shop (test/web/fixtures/dbos-shop.tsx), its approval answer reaches the run through
// the host, the tool runs once, and the response streams the run's events as the host
// follows them. Bad answers are 4xx, whichever host it is.
import type { RunHost } from '../../src/host/run-host.js';
import { runState } from '../../src/host/run-state.js';
import type { Trace } from '../../src/trace/trace-node.js';
import type { ChatHandler, JuneUIMessage } from 'june/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';

/** A host to test the chat handler on, and what reads the shop's side effects. */
export interface ChatRig {
  host: RunHost;
  /** The chat handler under test, over `host`, for the workflow `shop`. */
  handler: ChatHandler;
  /** Another handler over the same host (another server process). */
  otherHandler(): ChatHandler;
  /** The refunds the shop made, a line each. */
  refunds(): string;
  /** The last message of each model call's prompt, a line of JSON each. */
  prompts(): string;
  close(): Promise<void>;
}

/** The run's state as its trace on the host shows it. */
async function stateOf(host: RunHost, runId: string) {
  const found = await host.readTrace(runId);
  return 'text' in found ? runState(JSON.parse(found.text) as Trace) : undefined;
}

/** The chat cases every host passes; `makeRig` opens the host (and what it runs on). */
export function chatHostContract(name: string, makeRig: () => Promise<ChatRig>): void {
  describe(`chatHandler over a run host: ${name}`, () => {
    let rig: ChatRig;
    beforeAll(async () => {
      rig = await makeRig();
    }, 120_000);
    afterAll(async () => {
      await rig?.close();
    });

    it('queues the run, sends the approval through the database, streams the rest once', async () => {
      const user = userMessage('u1', 'Refund A1');
      const first = await readMessage(await post(rig.handler, { id: 'web1', messages: [user] }));
      expect(first.metadata).toMatchObject({ waiting: true });
      const runId = first.metadata!.runId;
      expect(textOf(first)).toEqual(['Checking order A1.']);
      expect(toolPart(first, 'tool-refund')).toMatchObject({
        state: 'approval-requested',
        input: { order: 'A1' },
      });
      expect(rig.refunds()).toBe('');
      expect(await stateOf(rig.host, runId)).toBe('waiting');
      // a reloaded page reconnects, here through another server process: the same message again
      const reconnect = () =>
        rig.otherHandler()(new Request('http://127.0.0.1/api/chat/web1/stream'));
      const again = await readMessage(await reconnect());
      expect(again.id).toBe(first.id);
      expect(again.parts).toEqual(first.parts);

      const approved = answered(first, 'tool-refund', true);
      const second = await readMessage(
        await post(rig.handler, { id: 'web1', messages: [user, approved] }),
        approved,
      );
      expect(second.metadata).toEqual({ runId, waiting: false });
      expect(toolPart(second, 'tool-refund')).toMatchObject({
        state: 'output-available',
        output: 'refunded A1',
      });
      expect(textOf(second)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
      // the agent's part, shown running while the run waited, ends with the run
      const agents = second.parts.flatMap((part) =>
        part.type === 'data-june-agent' ? [part.data.status] : [],
      );
      expect(agents).toEqual(['succeeded']);
      expect(rig.refunds()).toBe('A1\n');
      // the run ended (its last event may be out before the host marks it done: wait for that)
      await rig.host.result(runId);
      expect((await reconnect()).status).toBe(204);

      // the same answer again, a run that does not exist, a request the run never made
      const twice = await post(rig.handler, { id: 'web1', messages: [user, approved] });
      expect(twice.status).toBe(409);
      expect(await twice.json()).toMatchObject({ error: { code: 'approval-answered' } });
      const other = { ...approved, metadata: { runId: 'no-such-run', waiting: true } };
      const gone = await post(rig.handler, { id: 'web1', messages: [user, other] });
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ error: { code: 'chat-run-missing' } });
      const stranger = JSON.parse(JSON.stringify(approved).replaceAll('turn-1#0.0', 'turn-1#9.9'));
      const unknown = await post(rig.handler, { id: 'web1', messages: [user, stranger] });
      expect(unknown.status).toBe(409);
      expect(await unknown.json()).toMatchObject({ error: { code: 'approval-unknown' } });
      expect(rig.refunds()).toBe('A1\n');
    });

    it("an image attached to the message reaches the worker's model as a file part", async () => {
      // a 1x1 PNG
      const png =
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
      const user: JuneUIMessage = {
        id: 'u1',
        role: 'user',
        parts: [
          { type: 'text', text: 'Refund A1, see the receipt' },
          { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${png}` },
        ],
      };
      const first = await readMessage(await post(rig.handler, { id: 'pic', messages: [user] }));
      const runId = first.metadata!.runId;
      const approved = answered(first, 'tool-refund', true);
      await readMessage(
        await post(rig.handler, { id: 'pic', messages: [user, approved] }),
        approved,
      );
      const trace = await rig.host.result(runId);
      expect(trace.root.status).toBe('succeeded');
      // the model's first call of the run got the text and the image
      const prompts = rig
        .prompts()
        .split('\n')
        .filter((line) => line.includes('Refund A1, see the receipt'))
        .map((line) => JSON.parse(line) as { role: string; content: Array<Record<string, any>> });
      expect(prompts.length).toBeGreaterThan(0);
      const [text, file] = prompts[0]!.content;
      expect(text).toMatchObject({ type: 'text', text: 'Refund A1, see the receipt' });
      expect(file).toMatchObject({ type: 'file', mediaType: 'image/png', data: { type: 'data' } });
      const data = file!.data.data as string | Record<string, number>;
      const bytes =
        typeof data === 'string' ? Buffer.from(data, 'base64') : Buffer.from(Object.values(data));
      expect(bytes.toString('base64')).toBe(png);
    });

    it('a request carrying 300 messages queues one run that runs its new turn only', async () => {
      const before = rig.refunds();
      const conversation = Array.from({ length: 299 }, (_, i) => [
        userMessage(`q${i}`, `Question ${i}`),
        { id: `a${i}`, role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'ok' }] },
      ]).flat();
      const messages = [...conversation, userMessage('q299', 'Refund A1')];
      const first = await readMessage(await post(rig.handler, { id: 'long', messages }));
      expect(first.metadata).toEqual({ runId: 'long-300', waiting: true });
      const approved = answered(first, 'tool-refund', true);
      const done = await readMessage(
        await post(rig.handler, { id: 'long', messages: [...messages, approved] }),
        approved,
      );
      // one turn: the script has no second one, so a run of 300 turns would have failed
      expect(textOf(done)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
      expect(done.parts.filter((part) => part.type === 'data-june-step')).toHaveLength(1);
      expect((await rig.host.result('long-300')).status).toBe('succeeded');
      expect(rig.refunds()).toBe(`${before}A1\n`);
    });

    it('a chat reaches only its own runs, also when another chat id starts with its id', async () => {
      const before = rig.refunds();
      const user = userMessage('u1', 'Refund A1');
      const mine = await readMessage(await post(rig.handler, { id: 'web2', messages: [user] }));
      const theirs = await readMessage(await post(rig.handler, { id: 'web2-b', messages: [user] }));
      expect(mine.metadata).toEqual({ runId: 'web2-1', waiting: true });
      expect(theirs.metadata).toEqual({ runId: 'web2-b-1', waiting: true });

      // the newer run of chat web2-b is not chat web2's to stream again
      const again = await readMessage(
        await rig.handler(new Request('http://127.0.0.1/api/chat/web2/stream')),
      );
      expect(again.metadata).toMatchObject({ runId: 'web2-1' });

      // chat web2-b can neither answer web2's request nor deny it with a new message
      const approved = answered(mine, 'tool-refund', true);
      for (const messages of [
        [user, approved],
        [user, mine, userMessage('u2', 'Never mind')],
      ]) {
        const refused = await post(rig.handler, { id: 'web2-b', messages });
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({
          error: { code: 'chat-run-foreign', message: expect.stringMatching(/^june: run web2-1 /) },
        });
      }
      expect((await rig.host.decisions('web2-1')).waiting).toHaveLength(1);

      // each owner answers its own run
      const denied = answered(theirs, 'tool-refund', false, 'not now');
      await readMessage(
        await post(rig.handler, { id: 'web2-b', messages: [user, denied] }),
        denied,
      );
      const done = await readMessage(
        await post(rig.handler, { id: 'web2', messages: [user, approved] }),
        approved,
      );
      expect(textOf(done).at(-1)).toBe('Done: A1 is refunded.');
      expect(rig.refunds()).toBe(`${before}A1\n`);
    });
  });
}
