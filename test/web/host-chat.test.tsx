// The chat handler's host cases (chat-host-contract.ts) with the runs in this process: on a
// host in memory, and on a runs folder run here (its journals, traces and answers files in
// the folder). The same cases pass with the runs on a DBOS worker (dbos-chat.test.tsx).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatHandler } from 'june/web';
import { localRunHost } from '../../src/host/local-run-host.js';
import { memoryRunHost } from '../../src/host/memory-run-host.js';
import type { RunHost } from '../../src/host/run-host.js';
import { tempProject } from '../cli/cli-harness.js';
import { describe, expect, it } from 'vitest';
import { chatHostContract, type ChatRig } from './chat-host-contract.js';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';
import Shop from './fixtures/dbos-shop.js';

/** A rig over `open`'s host, with the shop's side-effect files in a new project (read from this process's environment). */
async function rig(open: (dir: string) => Promise<RunHost> | RunHost): Promise<ChatRig> {
  const project = tempProject();
  const file = (name: string) => {
    writeFileSync(join(project.dir, name), '');
    return join(project.dir, name);
  };
  process.env.SHOP_REFUNDS = file('refunds.log');
  process.env.SHOP_PROMPTS = file('prompts.log');
  const host = await open(project.dir);
  return {
    host,
    handler: chatHandler({ host, workflow: 'shop' }),
    otherHandler: () => chatHandler({ host, workflow: 'shop' }),
    refunds: () => readFileSync(process.env.SHOP_REFUNDS!, 'utf8'),
    prompts: () => readFileSync(process.env.SHOP_PROMPTS!, 'utf8'),
    close: async () => {
      await host.close();
      project.remove();
    },
  };
}

chatHostContract('memory', () => rig(() => memoryRunHost({ workflows: { shop: Shop } })));
chatHostContract('a runs folder run here', () =>
  rig((dir) => localRunHost({ dir: join(dir, '.june', 'runs'), workflows: { shop: Shop } })),
);

describe('chatHandler over a runs folder run here, across a server restart', () => {
  it('the page answers a run whose server stopped: a new server resumes it from its journal, the tool runs once', async () => {
    const project = tempProject();
    const dir = join(project.dir, '.june', 'runs');
    process.env.SHOP_REFUNDS = join(project.dir, 'refunds.log');
    process.env.SHOP_PROMPTS = join(project.dir, 'prompts.log');
    writeFileSync(process.env.SHOP_REFUNDS, '');
    writeFileSync(process.env.SHOP_PROMPTS, '');
    try {
      const before = await localRunHost({ dir, workflows: { shop: Shop } });
      const user = userMessage('u1', 'Refund A1');
      const first = await readMessage(
        await post(chatHandler({ host: before, workflow: 'shop' }), { id: 'c1', messages: [user] }),
      );
      expect(first.metadata).toEqual({ runId: 'c1-1', waiting: true });
      await before.close(); // the server stops: its run is aborted, its journal kept

      const after = await localRunHost({ dir, workflows: { shop: Shop } });
      const approved = answered(first, 'tool-refund', true);
      const done = await readMessage(
        await post(chatHandler({ host: after, workflow: 'shop' }), {
          id: 'c1',
          messages: [user, approved],
        }),
        approved,
      );
      expect(textOf(done)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
      expect(toolPart(done, 'tool-refund')).toMatchObject({
        state: 'output-available',
        output: 'refunded A1',
      });
      const trace = await after.result('c1-1');
      expect(trace.status).toBe('succeeded');
      expect(readFileSync(process.env.SHOP_REFUNDS, 'utf8')).toBe('A1\n');
      await after.close();
    } finally {
      project.remove();
    }
  });
});
