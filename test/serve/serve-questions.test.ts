// Questions and secrets over MCP: a served workflow's <Question>s reach the caller as
// elicitation forms (a choice as one field, a nested answer as JSON text checked by the full
// schema, asked again when it does not fit), and redacted secrets never reach the client.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import QuestionShip from '../../examples/questions/ship.js';
import { serveWorkflows, type ServedMcp, type ServeOptions } from '../../src/serve/index.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { tempProject } from '../cli/cli-harness.js';
import Ship, { props } from './fixtures/ship.js';

const TOKEN = 'alice-token-0123456789';
let project: ReturnType<typeof tempProject>;
let served: ServedMcp | undefined;
const clients: Client[] = [];

beforeEach(() => {
  project = tempProject();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await served?.close();
  project.remove();
});

async function serveAndConnect(
  options: Omit<ServeOptions, 'tokens' | 'dir'>,
  elicit: (params: ElicitRequest['params']) => ElicitResult,
): Promise<Client> {
  served = await serveWorkflows({
    ...options,
    dir: join(project.dir, '.june', 'runs'),
    tokens: { alice: TOKEN },
  });
  const client = new Client({ name: 'agent', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.url), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
  clients.push(client);
  return client;
}

const toolNodes = (trace: Trace): TraceNode[] =>
  [trace.root].flatMap(function walk(node: TraceNode): TraceNode[] {
    return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(walk)];
  });

it('asks questions as forms: a choice as one field, a nested answer as JSON text checked by its whole schema', async () => {
  const forms: ElicitRequest['params'][] = [];
  const client = await serveAndConnect(
    {
      workflows: { ship: QuestionShip },
      script: {
        steps: {
          ship: [
            {
              toolCalls: [
                { tool: 'ask_env', input: {} },
                { tool: 'ask_notes', input: { question: 'Title and highlights?' } },
              ],
            },
            {
              toolCalls: [
                { tool: 'deploy', input: { version: '1.2.0', env: 'prod', title: 'Faster' } },
              ],
            },
            { text: 'shipped 1.2.0' },
          ],
        },
      },
    },
    (params) => {
      forms.push(params);
      const answer = (
        params as {
          requestedSchema: { properties: Record<string, { title?: string; enum?: string[] }> };
        }
      ).requestedSchema.properties.answer!;
      if (answer.enum) return { action: 'accept', content: { answer: 'prod' } };
      // the first answer misses a field of the nested schema; the second fits
      const tries = forms.filter((form) => form.message.includes('Title and highlights?')).length;
      return {
        action: 'accept',
        content: {
          answer:
            tries === 1
              ? JSON.stringify({ title: 'Faster' })
              : JSON.stringify({ title: 'Faster', highlights: ['cache'] }),
        },
      };
    },
  );
  const result = await client.callTool({ name: 'ship', arguments: {} });
  expect(result.structuredContent).toEqual({ result: 'shipped 1.2.0' });

  const env = forms.find((form) => form.message === 'Where should 1.2.0 go?')!;
  expect((env as { requestedSchema: unknown }).requestedSchema).toEqual({
    type: 'object',
    properties: { answer: { type: 'string', enum: ['staging', 'prod'] } },
    required: ['answer'],
  });
  const notes = forms.filter((form) => form.message.includes('Title and highlights?'));
  expect(notes).toHaveLength(2);
  expect((notes[0] as { requestedSchema: unknown }).requestedSchema).toMatchObject({
    properties: { answer: { type: 'string', title: 'Answer (JSON)' } },
  });
  // asked again with the run's own reason
  expect(notes[1]!.message).toMatch(/^june: .*highlights/);

  const trace = await served!.host.result(result._meta!['june/run-id'] as string);
  const [askEnv, askNotes] = toolNodes(trace);
  expect(askEnv?.approval).toMatchObject({
    status: 'responded',
    output: 'prod',
    source: 'mcp',
    answeredBy: 'alice',
  });
  expect(askNotes?.approval).toMatchObject({
    status: 'responded',
    output: { title: 'Faster', highlights: ['cache'] },
    source: 'mcp',
  });
});

it('keeps redacted secrets out of what the client is sent: the form, its defaults and the result', async () => {
  const secret = 'sk-live-very-secret-value';
  const sent: string[] = [];
  const forms: string[] = [];
  const client = await serveAndConnect(
    {
      workflows: { ship: { component: Ship, props } },
      runOptions: { redact: { values: [secret] } },
      script: {
        steps: {
          ship: [
            { toolCalls: [{ tool: 'ship', input: { env: 'prod', note: `key ${secret}` } }] },
            { text: `shipped with ${secret}` },
          ],
        },
      },
    },
    (params) => {
      sent.push(JSON.stringify(params));
      forms.push(JSON.stringify(params));
      return { action: 'accept', content: { approve: true } };
    },
  );
  const log = join(project.dir, 'ship.log');
  const result = await client.callTool(
    { name: 'ship', arguments: { version: '1.0', log } },
    undefined,
    {
      onprogress: (progress) => sent.push(JSON.stringify(progress)),
    },
  );
  sent.push(JSON.stringify(result));
  expect(sent.join('\n')).not.toContain(secret);
  expect(JSON.stringify(result)).toContain('[redacted]');
  // an input with a secret redacted out is approved as the model gave it, never edited
  expect(forms).toHaveLength(1);
  expect(JSON.parse(forms[0]!).requestedSchema.properties).toEqual({
    approve: expect.objectContaining({ type: 'boolean' }),
    reason: expect.objectContaining({ type: 'string' }),
  });
  const trace = await served!.host.result(result._meta!['june/run-id'] as string);
  expect(toolNodes(trace)[0]?.approval).toMatchObject({ status: 'approved', source: 'mcp' });
  expect(toolNodes(trace)[0]?.approval?.input).toBeUndefined();
});
