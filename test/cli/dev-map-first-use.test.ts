import { describe, expect, it } from 'vitest';
import { DevCatalog } from '../../src/cli/dev-catalog.js';
import { findWorkflows } from '../../src/cli/find-workflows.js';
import { previewProps } from '../../src/workflows/preview-props.js';
import { sampleInput } from '../../src/workflows/sample-input.js';
import { startJune, tempProject } from './cli-harness.js';

// `june dev`'s map of workflows written the way the docs show them: a chat workflow whose
// component reads `chat` with no default (as `june/web`'s chat handler always passes one), and
// a workflow whose own code throws while it renders, shown with the message `june run` prints.

const support = `import { tool } from 'ai';
import { Agent, RequireApproval, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { ChatTurns, type ChatInput } from 'june/web';
import { z } from 'zod';

export const props = z.object({ chat: z.object({ messages: z.array(z.string()) }) });

const refund = tool({
  description: 'Refund an order',
  inputSchema: z.object({ order: z.string() }),
  execute: async ({ order }) => 'Refunded ' + order,
});

export default function Support({ chat }: { chat: ChatInput }) {
  return (
    <Agent name="support" model={openai('gpt-5-mini')} messages={chat.history}>
      <RequireApproval>
        <Tool name="refund" value={refund} />
      </RequireApproval>
      <ChatTurns chat={chat} />
    </Agent>
  );
}
`;

const throwing = `import { Agent } from 'june';
import { openai } from 'june/sdk/openai';

export default function Throwing({ options }: { options?: { region: string } }) {
  const region = options!.region;
  return <Agent name={region} model={openai('gpt-5-mini')} />;
}
`;

async function catalogOf(files: Record<string, string>) {
  const project = tempProject();
  for (const [name, text] of Object.entries(files)) project.write(name, text);
  const catalog = new DevCatalog(project.dir, await findWorkflows(project.dir), [project.dir]);
  await catalog.loadAll();
  return { project, catalog };
}

describe("june dev's map of workflows as the docs write them", () => {
  it('draws a chat workflow for an empty conversation when the props give none', async () => {
    const { project, catalog } = await catalogOf({ 'support.tsx': support });
    try {
      const entry = catalog.list().find((found) => found.id === 'support.tsx')!;
      expect(entry.error).toBeUndefined();
      expect(entry.status).toBe('ready');
      expect(entry.takesMessages).toBe(true);
      expect(entry.props).toEqual({});
      expect(
        entry.map?.agents.map((agent) => [
          agent.path,
          agent.tools.map((tool) => [tool.name, tool.needsApproval]),
        ]),
      ).toEqual([['support', [['refund', true]]]]);
      // a conversation given in the page's props is the one drawn
      const given = await catalog.resolve('support.tsx', { chat: { messages: ['hi'] } });
      expect(given?.status).toBe('ready');
      expect(given?.props).toEqual({ chat: { messages: ['hi'] } });
    } finally {
      project.remove();
    }
  });

  it("shows a component's own error as `june run` prints it: its line in the .tsx file, from the project", async () => {
    // the built command, in the project's folder, as a user starts it (source maps as in use)
    const project = tempProject();
    try {
      project.write('flows/throwing.tsx', throwing);
      const running = startJune(['dev', '--port', '0'], project.dir);
      const deadline = Date.now() + 30_000;
      while (!running.output().stdout.includes('June dev:') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(running.output().stdout)?.[1];
      expect(url, running.output().stderr).toBeDefined();
      const entry = await (await fetch(`${url}api/workflows/flows%2Fthrowing.tsx`)).json();
      expect(entry.status).toBe('broken');
      expect(entry.error).toEqual({
        code: 'workflow-failed',
        message:
          "june: the workflow failed: Cannot read properties of undefined (reading 'region') (at flows/throwing.tsx:5:27)",
        declaration: 'flows/throwing.tsx:5',
      });
      // the same file, with the props it needs, resolves
      const props = encodeURIComponent(JSON.stringify({ options: { region: 'eu' } }));
      const fixed = await (
        await fetch(`${url}api/workflows/flows%2Fthrowing.tsx?props=${props}`)
      ).json();
      expect(fixed.status).toBe('ready');
      expect(fixed.map.agents.map((agent: { path: string }) => agent.path)).toEqual(['eu']);
      process.kill(running.pid, 'SIGINT');
      expect((await running.done).code).toBe(0);
    } finally {
      project.remove();
    }
  }, 60_000);
});

describe('previewProps', () => {
  const chatSchema = { type: 'object', properties: { chat: {} } };

  it('adds an empty conversation only for a workflow that takes `chat` and got none', () => {
    expect(previewProps({}, chatSchema)).toEqual({ chat: { messages: [], history: [] } });
    expect(previewProps({ limit: 2 }, chatSchema)).toEqual({
      limit: 2,
      chat: { messages: [], history: [] },
    });
    const given = { chat: { messages: ['hello'] } };
    expect(previewProps(given, chatSchema)).toBe(given);
    expect(previewProps({}, { type: 'object', properties: { env: {} } })).toEqual({});
    expect(previewProps({}, undefined)).toEqual({});
  });
});

describe("sampleInput for the tool dialog's template", () => {
  it('gives every property of the outermost object with `properties: all`, each a value that fits', () => {
    const schema = {
      type: 'object',
      properties: {
        env: { type: 'string', enum: ['staging', 'prod'] },
        dir: { type: 'string', default: '.' },
        count: { type: 'integer', minimum: 1 },
        note: { type: 'string' },
        nested: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'number' } },
          required: ['b'],
        },
      },
      required: ['env'],
    };
    expect(sampleInput(schema, { properties: 'all' })).toEqual({
      env: 'staging',
      dir: '.',
      count: 1,
      note: '',
      nested: { b: 0 },
    });
    expect(sampleInput(schema)).toEqual({ env: 'staging' });
    expect(sampleInput({}, { properties: 'all' })).toEqual({});
  });
});
