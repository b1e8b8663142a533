// A new chat's first message POSTed ten times at once to two chat servers (processes of their
// own) over runs on a DBOS worker: the run of that message is `<chatId>-1`, and DBOS's
// uniqueness of workflow ids decides which request queued it. That one streams the run (one
// model call, on the worker); the other nine get 409 `chat-run-busy` while it is queued or
// running. Sent again once the run ended, the message is that run again: no model call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatOnceProject,
  firstMessage,
  postAtOnce,
  postChat,
  refusals,
  startChatServer,
  type ChatServer,
} from '../web/chat-servers.js';
import { readMessage, textOf } from '../web/support.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('a new chat’s first message sent ten times at once, over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof chatOnceProject>;
  let worker: WorkerProcess;
  const servers: ChatServer[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    project = chatOnceProject();
    const database = pg.url('june_chat_once');
    worker = await startWorker(project.dir, database, 'chat-once-worker', {
      files: ['chat-once.tsx'],
      env: project.env,
    });
    const env = { CHAT_DATABASE: database, CHAT_WORKFLOW: 'chat-once' };
    for (let i = 0; i < 2; i++) servers.push(await startChatServer(project.dir, env));
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => {});
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('to two servers: one run, one model call, one 200 and nine 409 chat-run-busy', async () => {
    const body = firstMessage('chat-ten');
    const responses = await postAtOnce(servers, body, 10);

    expect(responses.map((response) => response.status).sort()).toEqual([
      200, 409, 409, 409, 409, 409, 409, 409, 409, 409,
    ]);
    for (const error of await refusals(responses)) {
      expect(error.code).toBe('chat-run-busy');
      expect(error.message).toBe(
        'june: run chat-ten-1 is busy with another request; send this one when its stream ended.',
      );
    }
    await waitFor(() => project.calls().length > 0, 30_000, 'the model call');
    project.open();
    const message = await readMessage(responses.find((response) => response.status === 200)!);
    expect(message.metadata).toEqual({ runId: 'chat-ten-1', waiting: false });
    expect(textOf(message)).toEqual(['Hello, how can I help?']);
    expect(project.calls()).toHaveLength(1);
    expect(project.calls()[0]).toMatch(new RegExp(`^${worker.running.pid} .*Hello`));

    // sent again once the run ended, to either server: that run's answer, no model call
    for (const server of servers) {
      const again = await readMessage(await postChat(server, body));
      expect(again.metadata).toEqual({ runId: 'chat-ten-1', waiting: false });
      expect(textOf(again)).toEqual(['Hello, how can I help?']);
    }
    expect(project.calls()).toHaveLength(1);
  });
});
