// inspect()'s `details`: each tool's declaration and input schema, each agent's declaration,
// for pictures of the scopes (june dev's capability map); without it, the report as before.
import { tool } from 'ai';
import { Agent, Inherit, inspect, Namespace, RequireApproval, Step, Tool } from 'june';
import { jsxDEV } from 'june/jsx-dev-runtime';
import { jsx, jsxs } from 'june/jsx-runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const search = tool({
  description: 'Search',
  inputSchema: z.object({ query: z.string().describe('what to look for') }),
  execute: async ({ query }) => query,
});
const model = {} as never;
const at = (lineNumber: number) => ({ fileName: 'flow.tsx', lineNumber, columnNumber: 5 });

/** The tree as the development runtime makes it: each element knows its line in flow.tsx. */
function Flow() {
  return jsxDEV(
    Agent,
    {
      name: 'outer',
      model,
      children: [
        jsxDEV(
          Namespace,
          {
            name: 'web',
            children: jsxDEV(Tool, { name: 'search', value: search }, undefined, false, at(3)),
          },
          undefined,
          false,
          at(2),
        ),
        jsxDEV(
          RequireApproval,
          { children: jsxDEV(Tool, { name: 'plain', value: search }, undefined, false, at(6)) },
          undefined,
          false,
          at(5),
        ),
        jsxDEV(
          Agent,
          {
            name: 'inner',
            model,
            children: [
              jsxDEV(Inherit, { capabilities: ['web_search'] }, undefined, false, at(9)),
              jsxDEV(Step, { id: 'go', prompt: 'Go' }, undefined, false, at(10)),
            ],
          },
          undefined,
          true,
          at(8),
        ),
      ],
    },
    undefined,
    true,
    at(1),
  );
}

/** The same kind of tree from the automatic runtime ("jsx": "react-jsx"): no element is given a location. */
function AutomaticFlow() {
  return jsxs(Agent, {
    name: 'outer',
    model,
    children: [
      jsx(Tool, { name: 'search', value: search }),
      jsx(Agent, { name: 'inner', model, children: jsx(Inherit, { capabilities: ['search'] }) }),
    ],
  });
}

/** Declarations name this file from the current directory (the repository). */
const thisFile = 'test/interpreter/inspect-details.test.tsx';

describe('inspect() with details', () => {
  it('finds the declarations of elements from the automatic runtime (react-jsx), which passes no location', async () => {
    const report = await inspect(AutomaticFlow, { details: true });
    expect(report.agents).toEqual([
      {
        path: 'outer',
        name: 'outer',
        declaration: `${thisFile}:67:10`,
        tools: [expect.objectContaining({ name: 'search', declaration: `${thisFile}:71:7` })],
      },
      {
        path: 'outer > inner',
        name: 'inner',
        declaration: `${thisFile}:72:7`,
        // an inherited tool's declaration is its <Inherit>'s, as with jsxDEV
        tools: [expect.objectContaining({ name: 'search', declaration: `${thisFile}:72:52` })],
      },
    ]);
  });

  it('leaves elements made outside such an inspect as the automatic runtime makes them: no location', async () => {
    const [detailed, plain] = await Promise.all([
      inspect(AutomaticFlow, { details: true }),
      inspect(AutomaticFlow),
    ]);
    expect(detailed.agents[0]!.declaration).toBe(`${thisFile}:67:10`);
    expect(JSON.stringify(plain)).not.toMatch(/declaration/);
    const element = AutomaticFlow();
    expect(element).not.toHaveProperty('source');
    expect(Object.isFrozen(element)).toBe(true);
  });

  it('gives each tool its declaration and input schema as JSON Schema, and each agent its declaration', async () => {
    const report = await inspect(Flow, { details: true });
    expect(report.agents).toEqual([
      {
        path: 'outer',
        name: 'outer',
        declaration: 'flow.tsx:1:5',
        tools: [
          expect.objectContaining({
            name: 'web_search',
            needsApproval: false,
            declaration: 'flow.tsx:3:5',
            inputSchema: expect.objectContaining({
              type: 'object',
              properties: { query: { type: 'string', description: 'what to look for' } },
              required: ['query'],
            }),
          }),
          expect.objectContaining({
            name: 'plain',
            needsApproval: true,
            declaration: 'flow.tsx:6:5',
          }),
        ],
      },
      {
        path: 'outer > inner',
        name: 'inner',
        declaration: 'flow.tsx:8:5',
        tools: [
          expect.objectContaining({
            name: 'web_search',
            granted: '<Tool name="search"> in <Namespace name="web"> in the enclosing <Agent>',
            declaration: 'flow.tsx:9:5',
            inputSchema: expect.objectContaining({ type: 'object' }),
          }),
        ],
      },
    ]);
  });

  it('adds nothing without it, so snapshots of the report stay as they were', async () => {
    const report = await inspect(Flow);
    expect(JSON.stringify(report)).not.toMatch(/declaration|inputSchema/);
    expect(report.agents[0]!.tools[0]).toEqual({
      name: 'web_search',
      needsApproval: false,
      source: '<Tool name="search"> in <Namespace name="web">',
    });
  });
});
