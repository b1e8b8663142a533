/**
 * Another agent calling a workflow that `june serve --a2a` serves, with the A2A SDK's own
 * client (`@a2a-js/sdk`): the message starts the run as a task, streamed; the deploy's
 * approval makes the task input-required, and the next message on the task approves it.
 *
 *   npx june serve examples/release.tsx --script examples/release.script.json --a2a
 *   npx tsx examples/serve/call-release-a2a.ts http://127.0.0.1:3400 <the token it printed>
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Role, TaskState, type Message, type Part } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';

/** Runs the served `release` skill once, approving what it asks; the run's output. */
export async function callReleaseOverA2a(
  origin: string,
  token: string,
  log: (line: string) => void = console.log,
): Promise<unknown> {
  // the bearer token on every request, the agent card's too
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  ).createFromUrl(origin);
  // the props as a data part, the skill in the metadata (optional when one is served)
  let ask: Message | undefined = message({}, { skill: 'release' });
  let output: unknown;
  while (ask) {
    const sent = ask;
    ask = undefined;
    for await (const event of stream(client, sent)) {
      const payload = event.payload;
      if (payload?.$case === 'artifactUpdate') output = dataOf(payload.value.artifact?.parts)[0];
      if (payload?.$case !== 'statusUpdate') continue;
      const { state, message: said } = payload.value.status!;
      const text = textOf(said?.parts);
      if (state === TaskState.TASK_STATE_WORKING) log(`progress: ${text}`);
      if (state === TaskState.TASK_STATE_INPUT_REQUIRED) {
        log(`asked: ${text}`);
        // a person (or a policy of this agent) decides; here: approve as the model asked
        ask = message({ approve: true }, undefined, payload.value.taskId, payload.value.contextId);
      }
      if (state === TaskState.TASK_STATE_FAILED) log(`failed: ${text}`);
    }
  }
  log(`result: ${JSON.stringify(output)}`);
  return output;
}

function stream(client: Client, sent: Message) {
  return client.sendMessageStream({
    tenant: '',
    message: sent,
    configuration: undefined,
    metadata: undefined,
  });
}

function message(
  data: unknown,
  metadata?: Record<string, unknown>,
  taskId?: string,
  contextId?: string,
): Message {
  const part: Part = {
    content: { $case: 'data', value: data },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
  return {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts: [part],
    metadata,
    extensions: [],
    referenceTaskIds: [],
    ...(taskId ? { taskId, contextId } : {}),
  } as Message;
}

const dataOf = (parts: Part[] | undefined) =>
  (parts ?? []).flatMap((p) => (p.content?.$case === 'data' ? [p.content.value as unknown] : []));
const textOf = (parts: Part[] | undefined) =>
  (parts ?? []).flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join(' ');

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [origin, token] = process.argv.slice(2);
  if (!origin || !token) {
    console.error('usage: tsx examples/serve/call-release-a2a.ts <origin> <token>');
    process.exit(2);
  }
  await callReleaseOverA2a(origin, token);
}
