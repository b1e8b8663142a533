// Ten POSTs of a new chat's first message at once, over HTTP, to one chat server or to two
// (processes of their own over one runs folder): one chat id is one run, so one request
// starts it (one model call, one 200) and the other nine are refused with 409
// `chat-run-busy`, as a follow-up sent while the run goes on is. The same message once the
// run has ended is that run again: its answer, and no model call.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../dbos/support.js';
import {
  chatOnceProject,
  firstMessage,
  postAtOnce,
  postChat,
  refusals,
  startChatServer,
  type ChatServer,
} from './chat-servers.js';
import { readMessage, textOf } from './support.js';

const started: Array<{ stop(): Promise<void> } | { remove(): void }> = [];
afterEach(async () => {
  for (const thing of started.splice(0).reverse())
    await ('stop' in thing ? thing.stop() : thing.remove());
});

async function servers(count: number) {
  const project = chatOnceProject();
  started.push(project);
  const env = { ...project.env, CHAT_RUNS: join(project.dir, '.june', 'runs') };
  const list: ChatServer[] = [];
  for (let i = 0; i < count; i++) {
    const server = await startChatServer(project.dir, env);
    started.push(server);
    list.push(server);
  }
  return { project, servers: list };
}

describe('a new chat’s first message sent ten times at once', () => {
  for (const count of [1, 2]) {
    it(`to ${count} server${count > 1 ? 's over one runs folder' : ''}: one run, one model call, one 200 and nine 409 chat-run-busy`, async () => {
      const { project, servers: list } = await servers(count);
      const body = firstMessage('chat-ten');
      const responses = await postAtOnce(list, body, 10);

      expect(responses.map((response) => response.status).sort()).toEqual([
        200, 409, 409, 409, 409, 409, 409, 409, 409, 409,
      ]);
      const refused = await refusals(responses);
      const owner = list[responses.findIndex((response) => response.status === 200) % count]!;
      for (const error of refused) {
        expect(error.code).toBe('chat-run-busy');
        // the server that runs it names no process; another one names the process that does
        expect(error.message).toMatch(
          new RegExp(
            `^june: run chat-ten-1 is busy(: process ${owner.pid} on host .+ since \\d{4}-| with another request)`,
          ),
        );
      }
      // the one run calls the model once, and holds it until every request was answered
      await waitFor(() => project.calls().length > 0, 30_000, 'the model call');
      project.open();
      const message = await readMessage(responses.find((response) => response.status === 200)!);
      expect(message.metadata).toEqual({ runId: 'chat-ten-1', waiting: false });
      expect(textOf(message)).toEqual(['Hello, how can I help?']);
      expect(project.calls()).toHaveLength(1);
      expect(project.calls()[0]).toMatch(new RegExp(`^${owner.pid} .*Hello`));

      // sent again once the run ended, to any server: that run's answer, from its journal
      for (const server of list) {
        const again = await readMessage(await postChat(server, body));
        expect(again.metadata).toEqual({ runId: 'chat-ten-1', waiting: false });
        expect(textOf(again)).toEqual(['Hello, how can I help?']);
      }
      expect(project.calls()).toHaveLength(1);
    });
  }
});
