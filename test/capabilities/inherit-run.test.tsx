// A real run: a tool the parent wrapped in <RequireApproval> and <Namespace> reaches the
// nested agent through <Inherit> renamed and still waiting for a person.
import { tool } from 'ai';
import {
  Agent,
  Inherit,
  Namespace,
  RequireApproval,
  run,
  Step,
  Tool,
  type RunEvent,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

function deployTool(executed: string[]) {
  return tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
    needsApproval: false,
    execute: async ({ env }) => {
      executed.push(env);
      return `Deployed to ${env}`;
    },
  });
}

function workflow(executed: string[], model: ReturnType<typeof scriptedModel>) {
  return (
    <Agent model={model} name="lead">
      <RequireApproval>
        <Namespace name="ops">
          <Tool name="deploy" value={deployTool(executed)} />
        </Namespace>
      </RequireApproval>
      <Agent model={model} name="shipper">
        <Inherit capabilities={['ops_deploy']} />
        <Step id="ship" prompt="Deploy to staging" />
      </Agent>
    </Agent>
  );
}

function toolNodes(node: TraceNode): TraceNode[] {
  return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(toolNodes)];
}

describe('a granted tool in a run', () => {
  it('arrives namespaced and waits for approval; once approved, it executes', async () => {
    const executed: string[] = [];
    const model = scriptedModel({
      steps: {
        ship: [
          { toolCalls: [{ tool: 'ops_deploy', input: { env: 'staging' } }] },
          { text: 'Deployed.' },
        ],
      },
    });
    const handle = run(workflow(executed, model));
    const seen: RunEvent[] = [];
    for await (const event of handle.events) {
      seen.push(event);
      if (event.type === 'approval-request') {
        expect(event.request).toMatchObject({
          tool: 'ops_deploy',
          step: 'ship',
          input: { env: 'staging' },
        });
        expect(executed).toEqual([]);
        expect(handle.pendingApprovals.map((request) => request.tool)).toEqual(['ops_deploy']);
        handle.approve(event.request.id);
      }
    }
    const result = await handle.result;
    expect(executed).toEqual(['staging']);
    expect(result.steps.ship).toBe('Deployed.');
    expect(
      seen
        .filter((event) => event.type === 'tool-result')
        .map((event) => event.type === 'tool-result' && [event.tool, event.output]),
    ).toEqual([['ops_deploy', 'Deployed to staging']]);
    const calls = toolNodes(result.trace.root);
    expect(calls.map((node) => [node.name, node.status, node.approval?.status])).toEqual([
      ['ops_deploy', 'succeeded', 'approved'],
    ]);
    // The scripted model fails a turn that calls a tool the agent lacks: ops_deploy was offered.
    expect(model.calls.map((call) => call.step)).toEqual(['ship', 'ship']);
    model.assertAllTurnsUsed();
  });

  it('a denied call never executes, and the model sees the denial', async () => {
    const executed: string[] = [];
    const model = scriptedModel({
      steps: {
        ship: [
          { toolCalls: [{ tool: 'ops_deploy', input: { env: 'prod' } }] },
          { text: 'Not deployed.' },
        ],
      },
    });
    const handle = run(workflow(executed, model));
    for await (const event of handle.events) {
      if (event.type === 'approval-request') handle.deny(event.request.id, 'not today');
    }
    const result = await handle.result;
    expect(executed).toEqual([]);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain('not today');
    expect(toolNodes(result.trace.root).map((node) => node.status)).toEqual(['denied']);
  });
});
