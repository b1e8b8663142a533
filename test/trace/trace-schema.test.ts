import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { childTraceOf } from '../../src/host/child-trace.js';
import { traceProblem } from '../../src/host/trace-problem.js';
import type { TraceNode } from '../../src/trace/index.js';
import { TRACE_VERSIONS, traceNodeSchema, traceSchema } from '../../src/trace/trace-schema.js';
import { recordRelease, recordResearch } from '../fixtures/studio/workflows.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Every node of a trace, child runs of composite tool calls included. */
function nodesOf(root: TraceNode): TraceNode[] {
  const found: TraceNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    found.push(node);
    stack.push(...node.children);
    const child = childTraceOf(node);
    if (child) stack.push(child.root);
  }
  return found;
}

describe('the trace schema: one description of the trace file', () => {
  test.each([
    ['Release (tools, approvals, a denial)', recordRelease],
    ['Research (a composite tool with a child run)', recordResearch],
  ])('a trace June writes passes it, every node too: %s', async (_name, record) => {
    const dir = await mkdtemp(join(tmpdir(), 'june-trace-schema-'));
    dirs.push(dir);
    const trace = JSON.parse(JSON.stringify(await record(dir))) as { root: TraceNode };
    expect(traceSchema.safeParse(trace).success).toBe(true);
    const nodes = nodesOf(trace.root);
    expect(nodes.length).toBeGreaterThan(3);
    for (const node of nodes) expect(traceNodeSchema.safeParse(node).error).toBeUndefined();
    expect(traceProblem(trace)).toBeUndefined();
  });

  test('the versions it reads are listed, and another is refused naming them', () => {
    expect(TRACE_VERSIONS).toEqual([1]);
    const trace = {
      version: 2,
      runId: 'r',
      status: 'succeeded',
      startedAt: '2026-11-30T00:00:00.000Z',
      root: {},
    };
    expect(traceSchema.safeParse(trace).success).toBe(false);
    expect(traceProblem(trace)).toBe('version is 2; Studio reads version 1 traces');
  });

  test("Studio's problems name the JSON path and what is allowed, from the schema's messages", () => {
    const node = (fields: object) => ({
      id: 'n1',
      kind: 'run',
      name: 'x',
      status: 'succeeded',
      startedAt: '2026-11-30T00:00:00.000Z',
      children: [],
      ...fields,
    });
    const trace = (root: unknown, fields: object = {}) => ({
      version: 1,
      runId: 'r',
      status: 'succeeded',
      startedAt: '2026-11-30T00:00:00.000Z',
      root,
      ...fields,
    });
    expect(traceProblem(trace(node({}), { runId: 7 }))).toBe('runId is 7, not a string');
    expect(traceProblem(trace(node({}), { startedAt: undefined }))).toBe(
      'startedAt is missing, not an ISO 8601 string',
    );
    expect(traceProblem(trace('x'))).toBe('root is a string of 1 characters, not a trace node');
    expect(traceProblem(trace(undefined))).toBe('root is missing, not a trace node');
    expect(traceProblem(trace(node({ children: [node({ kind: 'loop' })] })))).toBe(
      'root.children[0].kind is a string of 4 characters; expected one of run, agent, step, model, tool, catch, parallel, branch',
    );
    expect(traceProblem(trace(node({ children: {} })))).toBe(
      'root.children is an object, not an array',
    );
  });
});
