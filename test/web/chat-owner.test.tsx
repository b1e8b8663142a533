import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { Agent, fileJournalStore, memoryJournalStore, Tool, type JournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, toolPart, userMessage } from './support.js';

// Two chat servers (two chatHandler instances, each with its own store object, as two
// processes behind a load balancer would have) over one journal folder: when the approval
// reaches both at once, one continues the run and the other is refused with 409. The refund
// tool waits for a gate, so the run that got the answer holds the run while the other asks.

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A shop whose refunds wait for approval, then for `hold`; `refunds` counts the refunds made. */
function shop(hold: Promise<void>) {
  const refunds: string[] = [];
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => {
      refunds.push(order);
      await hold;
      return `refunded ${order}`;
    },
  });
  // each server has its own model; a script answers by turn, so each starts from its first
  const serve = (journal: JournalStore) => {
    const model = scriptedModel({
      $comment: 'Test fixture: test/web/chat-owner.test.tsx',
      steps: {
        'turn-1': [
          { text: 'Checking A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
          { text: 'A1 is refunded.' },
        ],
      },
    });
    function Shop({ chat }: { chat: ChatInput }) {
      return (
        <Agent model={model}>
          <Tool name="refund" value={refund} />
          <ChatTurns chat={chat} />
        </Agent>
      );
    }
    return chatHandler({ workflow: Shop, journal });
  };
  return { refunds, serve };
}

describe('chatHandler: one run, two servers', () => {
  const cases: Array<[string, () => [JournalStore, JournalStore]]> = [
    [
      'file',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'june-chat-owner-'));
        folders.push(dir);
        return [fileJournalStore({ dir }), fileJournalStore({ dir })];
      },
    ],
    [
      'memory',
      () => {
        const store = memoryJournalStore();
        return [store, store];
      },
    ],
  ];
  for (const [name, stores] of cases) {
    it(`an approval sent to both at once (${name} store): one continues the run, the other gets 409; the tool runs once`, async () => {
      const hold = gate();
      const { refunds, serve } = shop(hold.promise);
      const [one, two] = stores();
      const first = serve(one);
      const second = serve(two);
      const user = userMessage('u1', 'Refund A1');
      const asked = await readMessage(await post(first, { id: 'chat1', messages: [user] }));
      expect(asked.metadata).toMatchObject({ waiting: true });
      const approval = { id: 'chat1', messages: [user, answered(asked, 'tool-refund', true)] };

      const responses = await Promise.all([post(first, approval), post(second, approval)]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const refused = responses.find((response) => response.status === 409)!;
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('chat-run-busy');
      expect(error.message).toMatch(
        new RegExp(
          `^june: run ${asked.metadata!.runId} is busy: process ${process.pid} on host .+ since \\d{4}-`,
        ),
      );
      hold.open();
      const continued = responses.find((response) => response.status === 200)!;
      const done = await readMessage(continued, approval.messages[1]);
      expect(toolPart(done, 'tool-refund')).toMatchObject({ state: 'output-available' });
      expect(refunds).toEqual(['A1']);

      // the same answer once more, to either server: answered already
      for (const server of [first, second]) {
        const again = await post(server, approval);
        expect(again.status).toBe(409);
        expect(((await again.json()) as { error: { code: string } }).error.code).toBe(
          'approval-answered',
        );
      }
      expect(refunds).toEqual(['A1']);
    });
  }
});
