// Workflows served as an A2A agent (serveWorkflows({ a2a: true })), called by the A2A SDK's
// own client over 127.0.0.1: a message starts a run as a task; its approval or question puts
// the task in input-required, answered by the client's next message or through Studio; the
// result is the task's artifact; a wrong token is refused and tasks/cancel cancels the run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import QuestionShip from '../../examples/questions/ship.js';
import { serveWorkflows, type ServedMcp } from '../../src/serve/index.js';
import type { Studio } from '../../src/studio/index.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { tempProject } from '../cli/cli-harness.js';
import { eventually, openStudio } from '../studio/support.js';
import Ship, { description, props, script } from './fixtures/ship.js';

const TOKEN = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';

describe('june serve --a2a: workflows as an A2A agent', () => {
  let project: ReturnType<typeof tempProject>;
  let served: ServedMcp;
  let log: string;
  let studio: Studio | undefined;

  beforeEach(async () => {
    project = tempProject();
    log = join(project.dir, 'ship.log');
    served = await serveWorkflows({
      dir: join(project.dir, '.june', 'runs'),
      workflows: { ship: { component: Ship, props, description } },
      tokens: { alice: TOKEN, bob: BOB },
      script,
      a2a: true,
    });
  });
  afterEach(async () => {
    await studio?.close();
    studio = undefined;
    await served.close();
    project.remove();
  });

  /** The SDK's client, sending `token` as the bearer token on every request (the card too). */
  async function connect(token: string): Promise<Client> {
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
    return factory.createFromUrl(new URL(served.a2aUrl!).origin);
  }

  const part = (value: unknown): Part => ({
    content: { $case: 'data', value },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  });
  const message = (value: unknown, task?: Task, skill?: string): Message =>
    ({
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      parts: [part(value)],
      ...(task ? { taskId: task.id, contextId: task.contextId } : {}),
      metadata: skill ? { skill } : undefined,
      extensions: [],
      referenceTaskIds: [],
    }) as unknown as Message;
  const send = async (client: Client, value: unknown, task?: Task): Promise<Task> =>
    (await client.sendMessage({
      tenant: '',
      message: message(value, task),
      configuration: undefined,
      metadata: undefined,
    } as never)) as Task;
  const dataParts = (parts: Part[] | undefined) =>
    (parts ?? []).flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : []));
  const texts = (parts: Part[] | undefined) =>
    (parts ?? []).flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []));
  const shipped = () =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const toolNodes = (trace: Trace): TraceNode[] =>
    [trace.root].flatMap(function walk(node: TraceNode): TraceNode[] {
      return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(walk)];
    });

  it('lists each workflow as a skill, its props schema on the card, behind the bearer token', async () => {
    const client = await connect(TOKEN);
    const card = await client.getAgentCard();
    expect(card.skills.map((s) => [s.id, s.description])).toEqual([['ship', description]]);
    const schemas = card.capabilities?.extensions[0]?.params as Record<
      string,
      { required: string[] }
    >;
    expect(schemas.ship?.required).toEqual(['version', 'log']);
    expect(card.supportedInterfaces[0]).toMatchObject({
      url: served.a2aUrl,
      protocolBinding: 'JSONRPC',
    });
  });

  it('refuses a wrong token: no card, no task, nothing runs', async () => {
    await expect(connect('wrong-token-0123456789')).rejects.toThrow();
    const response = await fetch(served.a2aUrl!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'a2a-version': '1.0',
        authorization: 'Bearer wrong-token-0123456789',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: {
            messageId: 'm1',
            role: 'ROLE_USER',
            parts: [{ data: { version: '9.9', log } }],
          },
        },
      }),
    });
    expect(response.status).toBe(401);
    expect((await response.json()).error.message).toMatch(/^june: /);
    expect(await served.host.list()).toEqual([]);
  });

  it('an approval makes the task input-required; the client answers with an edit, the tool runs once, the task completes with the result', async () => {
    const client = await connect(TOKEN);
    const asked = await send(client, { version: '1.2', log });
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const [request] = dataParts(asked.status?.message?.parts) as Record<string, unknown>[];
    expect(request).toMatchObject({ kind: 'approval', tool: 'ship', input: { env: 'prod' } });
    expect(shipped()).toEqual([]);

    // an edit that does not fit the tool's schema: still input-required, with the reason
    const refused = await send(client, { approve: true, input: { env: 'moon' } }, asked);
    expect(refused.id).toBe(asked.id);
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(texts(refused.status?.message?.parts).join('\n')).toMatch(/^june: /);
    expect(shipped()).toEqual([]);

    const done = await send(client, { approve: true, input: { env: 'staging' } }, asked);
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(dataParts(done.artifacts[0]?.parts)).toEqual([{ result: 'release shipped' }]);
    expect(shipped()).toEqual(['1.2 staging']);

    // the task is the run: its id is the run's, the answer audited as the client's through a2a
    const trace = await served.host.result(asked.id);
    expect(toolNodes(trace)[0]?.approval).toMatchObject({
      status: 'approved',
      source: 'a2a',
      answeredBy: 'alice',
      input: { env: 'staging' },
    });
  });

  it("another client neither sees nor answers a client's task", async () => {
    const asked = await send(await connect(TOKEN), { version: '5.0', log });
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const bob = await connect(BOB);
    await expect(bob.getTask({ tenant: '', id: asked.id } as never)).rejects.toThrow(/not found/i);
    await expect(send(bob, { approve: true }, asked)).rejects.toThrow(/not found/i);
    expect(shipped()).toEqual([]);
    expect((await served.host.decisions(asked.id)).waiting).toHaveLength(1);
  });

  it("an answer given in Studio's answer API moves the task on: the client sees it completed", async () => {
    const client = await connect(TOKEN);
    const asked = await send(client, { version: '2.0', log });
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { key } = dataParts(asked.status?.message?.parts)[0] as { key: string };

    studio = await openStudio(join(project.dir, '.june', 'runs'));
    const answered = await fetch(`${studio.url}api/runs/${asked.id}/approvals`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${studio.answerToken}`,
        origin: new URL(studio.url).origin,
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify({ key, approved: true, answeredBy: 'ana' }),
    });
    expect(answered.status).toBe(202);

    const done = await eventually(async () => {
      const task = await client.getTask({ tenant: '', id: asked.id } as never);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      return task;
    }, 20_000);
    expect(dataParts(done.artifacts[0]?.parts)).toEqual([{ result: 'release shipped' }]);
    expect(shipped()).toEqual(['2.0 prod']);
    const trace = await served.host.result(asked.id);
    expect(toolNodes(trace)[0]?.approval).toMatchObject({ status: 'approved', source: 'studio' });
  });

  it('streams progress as status updates; tasks/cancel cancels the run, the tool never runs', async () => {
    const client = await connect(TOKEN);
    const states: number[] = [];
    const said: string[] = [];
    let task: Task | undefined;
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: message({ version: '3.0', log }),
      configuration: undefined,
      metadata: undefined,
    } as never)) {
      const payload = event.payload;
      if (payload?.$case === 'task') task = payload.value;
      if (payload?.$case === 'statusUpdate') {
        states.push(payload.value.status!.state);
        said.push(...texts(payload.value.status?.message?.parts));
      }
    }
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(states).toContain(TaskState.TASK_STATE_WORKING);
    expect(said).toContain('step ship started');

    const canceled = await client.cancelTask({ tenant: '', id: task!.id } as never);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const trace = await served.host.result(task!.id);
    expect(trace.status).toBe('aborted');
    expect(shipped()).toEqual([]);
  });

  it('a question: the task asks it with its schema, a wrong answer is refused, the right one completes it', async () => {
    await served.close();
    served = await serveWorkflows({
      dir: join(project.dir, '.june', 'runs'),
      workflows: { ship: QuestionShip },
      tokens: { alice: TOKEN },
      a2a: true,
      script: {
        steps: {
          ship: [
            { toolCalls: [{ tool: 'ask_env', input: {} }] },
            {
              toolCalls: [{ tool: 'deploy', input: { version: '1.2.0', env: 'prod', title: 'x' } }],
            },
            { text: 'shipped 1.2.0' },
          ],
        },
      },
    });
    const client = await connect(TOKEN);
    const asked = await send(client, {});
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const [question] = dataParts(asked.status?.message?.parts) as Record<string, unknown>[];
    expect(question).toMatchObject({
      kind: 'question',
      prompt: 'Where should 1.2.0 go?',
      answerSchema: { type: 'string', enum: ['staging', 'prod'] },
    });

    const wrong = await send(client, { answer: 'moon' }, asked);
    expect(wrong.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(texts(wrong.status?.message?.parts).join('\n')).toMatch(/^june: /);

    const done = await send(client, { answer: 'prod' }, asked);
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(dataParts(done.artifacts[0]?.parts)).toEqual([{ result: 'shipped 1.2.0' }]);
    const trace = await served.host.result(asked.id);
    expect(toolNodes(trace)[0]?.approval).toMatchObject({
      status: 'responded',
      output: 'prod',
      source: 'a2a',
      answeredBy: 'alice',
    });
  });
});
