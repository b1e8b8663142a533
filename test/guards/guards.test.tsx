import { tool } from 'ai';
import {
  Agent,
  defineAgent,
  Guard,
  JuneError,
  run,
  Step,
  Tool,
  type GuardSubject,
  type RunEvent,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A deploy tool that counts how often it really ran. */
function deployTool() {
  const ran: string[] = [];
  const deploy = tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
    execute: async ({ env }) => {
      ran.push(env);
      return `deployed to ${env}`;
    },
  });
  return { deploy, ran };
}

/** No deploys to prod: `prod` decides what happens to one. */
function noProd(prod: 'reject' | 'trip' | 'escalate') {
  return ({ kind, input }: GuardSubject) =>
    kind === 'tool-input' && (input as { env?: string }).env === 'prod'
      ? { action: prod, reason: 'prod deploys need a release window' }
      : 'allow';
}

function shipScript() {
  return scriptedModel({
    steps: {
      ship: [
        { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
        { text: 'Could not deploy to prod.' },
      ],
    },
  });
}

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function find(node: TraceNode, match: (node: TraceNode) => boolean): TraceNode | undefined {
  if (match(node)) return node;
  for (const child of node.children) {
    const found = find(child, match);
    if (found) return found;
  }
  return undefined;
}

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch', stream: false },
])('<Guard> on tool calls ($mode)', ({ stream }) => {
  it('a rejected call never runs and the model reads the reason as its result', async () => {
    const { deploy, ran } = deployTool();
    const model = shipScript();
    const handle = run(
      <Guard name="no-prod" check={noProd('reject')}>
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <Step id="ship" prompt="Deploy to prod" />
        </Agent>
      </Guard>,
      { stream },
    );
    const result = await handle.result;
    expect(ran).toEqual([]);
    expect(result.output).toBe('Could not deploy to prod.');
    const call = find(result.trace.root, (node) => node.kind === 'tool')!;
    expect(call.output).toBe(
      'june: the guard "no-prod" rejected this call: prod deploys need a release window',
    );
    expect(call.guards).toEqual([
      {
        guard: 'no-prod',
        declaration: '<Guard name="no-prod">',
        check: 'tool-input',
        action: 'reject',
        reason: 'prod deploys need a release window',
      },
    ]);
    model.assertAllTurnsUsed();
  });

  it('a tripped guard fails the run with its declaration, and the tool never runs', async () => {
    const { deploy, ran } = deployTool();
    const handle = run(
      <Agent model={shipScript()}>
        <Tool name="deploy" value={deploy} />
        <Guard name="no-prod" check={noProd('trip')}>
          <Step id="ship" prompt="Deploy to prod" />
        </Guard>
      </Agent>,
      { stream },
    );
    const error = await handle.result.catch((e: unknown) => e);
    expect(JuneError.isInstance(error) && error.code).toBe('guard-tripped');
    expect((error as Error).message).toMatch(
      /^june: the guard "no-prod" \(<Guard name="no-prod">.*\) tripped on the call of "deploy" in step "ship": prod deploys need a release window\./,
    );
    expect(ran).toEqual([]);
    expect(handle.trace().status).toBe('failed');
  });

  it('an escalated call waits for a person (a catch-all onApproval does not answer it) and runs once approved', async () => {
    const { deploy, ran } = deployTool();
    const policy: string[] = [];
    const handle = run(
      <Guard name="no-prod" check={noProd('escalate')}>
        <Agent model={shipScript()}>
          <Tool name="deploy" value={deploy} />
          <Step id="ship" prompt="Deploy to prod" />
        </Agent>
      </Guard>,
      {
        stream,
        onApproval: (request) => {
          policy.push(request.tool);
          return true;
        },
      },
    );
    const events = collect(handle.events);
    const request = await new Promise<RunEvent & { type: 'approval-request' }>((resolve) => {
      void (async () => {
        for await (const event of handle.events)
          if (event.type === 'approval-request') return resolve(event);
      })();
    });
    expect(request.request.guard).toEqual({
      name: 'no-prod',
      declaration: '<Guard name="no-prod">',
      reason: 'prod deploys need a release window',
    });
    expect(handle.pendingApprovals.map((r) => r.tool)).toEqual(['deploy']);
    expect(ran).toEqual([]);
    expect(policy).toEqual([]);
    handle.approve(request.request.id, { answeredBy: 'ana' });
    const result = await handle.result;
    expect(ran).toEqual(['prod']);
    const call = find(result.trace.root, (node) => node.kind === 'tool')!;
    expect(call.approval).toMatchObject({
      status: 'approved',
      answeredBy: 'ana',
      guard: { name: 'no-prod', reason: 'prod deploys need a release window' },
    });
    expect(call.guards?.map((d) => d.action)).toEqual(['escalate']);
    const decisions = (await events).flatMap((e) =>
      e.type === 'guard-decision' ? [[e.check, e.action]] : [],
    );
    expect(decisions).toEqual([
      ['tool-input', 'escalate'],
      ['output', 'allow'],
    ]);
  });

  it("guardEscalations: 'on-approval' lets the policy answer an escalation", async () => {
    const { deploy, ran } = deployTool();
    const result = await run(
      <Guard name="no-prod" check={noProd('escalate')}>
        <Agent model={shipScript()}>
          <Tool name="deploy" value={deploy} />
          <Step id="ship" prompt="Deploy to prod" />
        </Agent>
      </Guard>,
      { stream, onApproval: () => true, guardEscalations: 'on-approval' },
    ).result;
    expect(ran).toEqual(['prod']);
    expect(result.output).toBe('Could not deploy to prod.');
  });

  it('nested guards all apply, outer first; an allowed call keeps the approval <RequireApproval> would add', async () => {
    const { deploy, ran } = deployTool();
    const order: string[] = [];
    const logged = (name: string) => () => {
      order.push(name);
      return 'allow' as const;
    };
    const result = await run(
      <Guard name="outer" check={logged('outer')}>
        <Guard name="inner" check={logged('inner')}>
          <Agent
            model={scriptedModel({
              steps: {
                ship: [
                  { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
                  { text: 'Deployed.' },
                ],
              },
            })}
          >
            <Tool name="deploy" value={{ ...deploy, needsApproval: true }} />
            <Step id="ship" prompt="Deploy to staging" />
          </Agent>
        </Guard>
      </Guard>,
      { stream, onApproval: () => true },
    ).result;
    expect(order).toEqual(['outer', 'inner', 'outer', 'inner']); // the tool call, then the step's output
    expect(ran).toEqual(['staging']);
    const call = find(result.trace.root, (node) => node.kind === 'tool')!;
    expect(call.approval?.status).toBe('approved');
    expect(call.guards?.map((d) => d.guard)).toEqual(['outer', 'inner']);
  });

  it('covers a nested defineAgent: its own tool calls are checked in its child run', async () => {
    const { deploy, ran } = deployTool();
    const Deployer = defineAgent({
      name: 'deployer',
      description: 'Deploys',
      input: z.object({ env: z.string() }),
      model: scriptedModel({
        steps: {
          'deployer:answer': [
            { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
            { text: 'The guard refused prod.' },
          ],
        },
      }),
      prompt: ({ env }) => `Deploy to ${env}`,
      capabilities: () => <Tool name="deploy" value={deploy} />,
    });
    const result = await run(
      <Guard name="no-prod" check={noProd('reject')} on={['tool-input']}>
        <Agent
          model={scriptedModel({
            steps: {
              release: [
                { toolCalls: [{ tool: 'deployer', input: { env: 'live' } }] },
                { text: 'Done.' },
              ],
            },
          })}
        >
          <Deployer />
          <Step id="release" prompt="Release" />
        </Agent>
      </Guard>,
      { stream },
    ).result;
    expect(ran).toEqual([]);
    const call = find(result.trace.root, (node) => node.kind === 'tool')!;
    const child = (call.output as { trace: { root: TraceNode } }).trace;
    const inner = find(child.root, (node) => node.kind === 'tool' && node.name === 'deploy')!;
    expect(inner.output).toBe(
      'june: the guard "no-prod" rejected this call: prod deploys need a release window',
    );
    expect(inner.guards?.[0]).toMatchObject({ guard: 'no-prod', action: 'reject' });
  });
});
