import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import {
  Agent,
  JuneError,
  Namespace,
  Step,
  defineMCPServer,
  defineToolSource,
  run,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { toolResults } from '../helpers/mock-stream-model.js';

const script = fileURLToPath(new URL('../fixtures/mcp/dotted-names-server.mjs', import.meta.url));
const dotted = (extra: Record<string, unknown> = {}, args: string[] = []) =>
  defineMCPServer({ name: 'Dotted', command: process.execPath, args: [script, ...args], ...extra });

function agentNode(root: TraceNode): TraceNode {
  return root.children.find((node) => node.kind === 'agent')!;
}

describe('tool names from a tool source', () => {
  test('an MCP server exposing "search" and "files.read": both work, "files.read" as files_read, and the server gets its own name', async () => {
    const Dotted = dotted();
    const model = scriptedModel({
      steps: {
        s: [
          {
            toolCalls: [
              { tool: 'files_read', input: { path: 'a.md' } },
              { tool: 'search', input: { query: 'june' } },
            ],
          },
          { text: 'Read.' },
        ],
      },
    });
    const { trace } = await run(
      <Agent model={model}>
        <Dotted />
        <Step id="s" prompt="Read a.md" />
      </Agent>,
    ).result;
    expect(
      toolResults(model.calls[1]!.prompt).map((part) => [
        part.toolName,
        JSON.stringify(part.output),
      ]),
    ).toEqual([
      ['files_read', expect.stringContaining('files.read got a.md')],
      ['search', expect.stringContaining('found june')],
    ]);
    expect(agentNode(trace.root).capabilities).toEqual([
      { name: 'search', source: '<Dotted>' },
      { name: 'files_read', source: '<Dotted>', original: 'files.read' },
    ]);
  });

  test('pick and rename choose which tools an agent gets and under which name; namespaces still apply', async () => {
    const Dotted = dotted({ pick: ['files.read'], rename: { 'files.read': 'read_file' } });
    const model = scriptedModel({
      steps: {
        s: [
          { toolCalls: [{ tool: 'notes_read_file', input: { path: 'b.md' } }] },
          { text: 'Read.' },
        ],
      },
    });
    const { trace } = await run(
      <Agent model={model}>
        <Namespace name="notes">
          <Dotted />
        </Namespace>
        <Step id="s" prompt="Read b.md" />
      </Agent>,
    ).result;
    expect(JSON.stringify(toolResults(model.calls[1]!.prompt)[0]!.output)).toContain(
      'files.read got b.md',
    );
    expect(agentNode(trace.root).capabilities).toEqual([
      {
        name: 'notes_read_file',
        source: '<Dotted> in <Namespace name="notes">',
        original: 'files.read',
      },
    ]);
  });

  test('two names that map to one fail as a capability-collision naming both originals', async () => {
    const Dotted = dotted({}, ['--collide']);
    const error = await run(
      <Agent model={scriptedModel({ steps: {} })}>
        <Dotted />
        <Step id="s" prompt="Read" />
      </Agent>,
    ).result.catch((caught: unknown) => caught);
    expect(JuneError.isInstance(error) && error.code).toBe('capability-collision');
    expect((error as Error).message).toMatch(
      /^june: two capabilities of <Agent>.* expose the tool name "files_read": <Dotted> \(its tool "files\.read"[^)]*\) and <Dotted> \(its tool "files\/read"[^)]*\)\. /,
    );
  });

  test('a pick or rename of a tool the source does not have fails, listing what it has', async () => {
    const Source = defineToolSource({
      name: 'Notes',
      pick: ['serch'],
      connect: async () => ({
        tools: { search: tool({ inputSchema: z.object({}), execute: async () => 'x' }) },
      }),
    });
    const error = await run(
      <Agent model={scriptedModel({ steps: {} })}>
        <Source />
        <Step id="s" prompt="Go" />
      </Agent>,
    ).result.catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'tool-source-invalid',
      message:
        'june: <Notes> has no tool named "serch" (named in its pick or rename); it has "search".',
    });
  });

  test('a rename to a name a model cannot call fails at once', () => {
    expect(() =>
      defineToolSource({
        name: 'Notes',
        rename: { search: 'find.it' },
        connect: async () => ({ tools: {} }),
      }),
    ).toThrow(
      'june: defineToolSource({ name: "Notes" }) renames "search" to "find.it"; tool names are letters, digits, "_" and "-", 1 to 64 characters.',
    );
  });
});
