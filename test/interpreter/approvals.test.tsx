import { tool } from 'ai';
import {
  Agent,
  JuneError,
  RequireApproval,
  Step,
  Tool,
  run,
  type ApprovalRequest,
  type RunEvent,
  type RunHandle,
} from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel, toolResults } from '../helpers/mock-stream-model.js';

/** A tool that records its calls and needs approval. */
function deployTool(calls: string[]) {
  return tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      calls.push(env);
      return `deployed to ${env}`;
    },
  });
}

/** Waits for the next `count` approval requests of a run. */
async function nextRequests(handle: RunHandle, count = 1): Promise<ApprovalRequest[]> {
  const requests: ApprovalRequest[] = [];
  for await (const event of handle.events) {
    if (event.type === 'approval-request') requests.push(event.request);
    if (requests.length === count) return requests;
  }
  throw new Error(`the run ended after ${requests.length} of ${count} approval requests`);
}

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('approvals', () => {
  test('a request event carries { id, tool, input, step }; approving runs the tool and the loop goes on', async () => {
    const calls: string[] = [];
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'staging' } }] },
      { text: 'Deployed.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy to staging" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    expect(request).toEqual({
      id: expect.any(String),
      tool: 'deploy',
      input: { env: 'staging' },
      step: 'release',
      toolCallId: 'c1',
      key: `${handle.runId}/release#c1`,
    });
    expect(handle.pendingApprovals).toEqual([request]);
    expect(calls).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);

    handle.approve(request!.id);
    expect(handle.pendingApprovals).toEqual([]);
    const { output, trace } = await handle.result;
    expect(output).toBe('Deployed.');
    expect(calls).toEqual(['staging']);
    expect(toolResults(model.doStreamCalls[1]!.prompt)).toEqual([
      expect.objectContaining({
        toolCallId: 'c1',
        output: { type: 'text', value: 'deployed to staging' },
      }),
    ]);

    const events = await collect(handle.events);
    expect(events.find((event) => event.type === 'approval-response')).toEqual({
      type: 'approval-response',
      runId: handle.runId,
      id: request!.id,
      approved: true,
      automatic: false,
      source: 'handle',
      answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      nodeId: expect.any(String),
      parentId: expect.any(String),
      at: expect.any(Number),
    });
    const toolNode = trace.root.children[0]!.children[0]!.children.find(
      (node) => node.kind === 'tool',
    )!;
    expect(toolNode).toMatchObject({
      name: 'deploy',
      status: 'succeeded',
      approval: { id: request!.id, status: 'approved' },
      output: 'deployed to staging',
    });
    expect(toolNode.approval).not.toHaveProperty('automatic');
  });

  test('<RequireApproval> around a declaration makes its tool wait too', async () => {
    const calls: string[] = [];
    const plain = tool({
      inputSchema: z.object({ env: z.string() }),
      execute: async ({ env }) => (calls.push(env), 'ok'),
    });
    const handle = run(
      <Agent
        model={streamModel([
          { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] },
          { text: 'done' },
        ])}
      >
        <RequireApproval>
          <Tool name="deploy" value={plain} />
        </RequireApproval>
        <Step id="release" prompt="go" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    expect(request).toMatchObject({ tool: 'deploy', input: { env: 'prod' } });
    expect(calls).toEqual([]);
    handle.approve(request!.id);
    await handle.result;
    expect(calls).toEqual(['prod']);
  });

  test('a denial with a reason: the tool does not run and the model’s next prompt holds the denial and the reason', async () => {
    const calls: string[] = [];
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] },
      { text: 'OK, not deploying.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy to prod" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    handle.deny(request!.id, 'prod is frozen this week');
    const { output, trace } = await handle.result;

    expect(output).toBe('OK, not deploying.');
    expect(calls).toEqual([]);
    expect(model.doStreamCalls[1]!.prompt.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'deploy',
          output: {
            type: 'execution-denied',
            reason: 'The tool call was denied, so it did not run. Reason: prod is frozen this week',
          },
        },
      ],
    });
    const events = await collect(handle.events);
    expect(events.find((event) => event.type === 'approval-response')).toEqual({
      type: 'approval-response',
      runId: handle.runId,
      id: request!.id,
      approved: false,
      reason: 'prod is frozen this week',
      automatic: false,
      source: 'handle',
      answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      nodeId: expect.any(String),
      parentId: expect.any(String),
      at: expect.any(Number),
    });
    const toolNode = trace.root.children[0]!.children[0]!.children.find(
      (node) => node.kind === 'tool',
    )!;
    expect(toolNode).toMatchObject({
      status: 'denied',
      approval: { status: 'denied', reason: 'prod is frozen this week' },
    });
  });

  test('several requests pending at once, answered in reverse order: the loop goes on only when all are answered', async () => {
    const calls: string[] = [];
    const model = streamModel([
      {
        toolCalls: [
          { id: 'c1', name: 'deploy', input: { env: 'staging' } },
          { id: 'c2', name: 'deploy', input: { env: 'prod' } },
          { id: 'c3', name: 'deploy', input: { env: 'eu' } },
        ],
      },
      { text: 'Two deployed, one refused.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy everywhere" />
      </Agent>,
    );
    const requests = await nextRequests(handle, 3);
    expect(requests.map((request) => request.input)).toEqual([
      { env: 'staging' },
      { env: 'prod' },
      { env: 'eu' },
    ]);
    expect(handle.pendingApprovals.map((request) => request.id)).toEqual(
      requests.map((request) => request.id),
    );

    handle.approve(requests[2]!.id);
    handle.deny(requests[1]!.id, 'not prod');
    // one still pending: after a turn of the event loop, nothing ran and the model was not called
    await new Promise((resolve) => setImmediate(resolve));
    expect(handle.pendingApprovals.map((request) => request.id)).toEqual([requests[0]!.id]);
    expect(calls).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);

    handle.approve(requests[0]!.id);
    const { output } = await handle.result;
    expect(output).toBe('Two deployed, one refused.');
    expect(calls.sort()).toEqual(['eu', 'staging']);
    expect(model.doStreamCalls).toHaveLength(2);
    const results = toolResults(model.doStreamCalls[1]!.prompt);
    expect(Object.fromEntries(results.map((part) => [part.toolCallId, part.output]))).toEqual({
      c1: { type: 'text', value: 'deployed to staging' },
      c2: {
        type: 'execution-denied',
        reason: 'The tool call was denied, so it did not run. Reason: not prod',
      },
      c3: { type: 'text', value: 'deployed to eu' },
    });
  });

  test('an approved tool that throws: the model sees the error in its next prompt', async () => {
    const failing = tool({
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: async ({ env }): Promise<string> => {
        throw new Error(`${env} is unreachable`);
      },
    });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] },
      { text: 'Deploy failed.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={failing} />
        <Step id="release" prompt="Deploy" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    handle.approve(request!.id);
    const { output, trace } = await handle.result;

    expect(output).toBe('Deploy failed.');
    expect(toolResults(model.doStreamCalls[1]!.prompt)).toEqual([
      expect.objectContaining({
        toolCallId: 'c1',
        output: { type: 'error-text', value: 'prod is unreachable' },
      }),
    ]);
    const events = await collect(handle.events);
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({
      toolCallId: 'c1',
      error: { message: 'prod is unreachable' },
    });
    const toolNode = trace.root.children[0]!.children[0]!.children.find(
      (node) => node.kind === 'tool',
    )!;
    expect(toolNode).toMatchObject({
      status: 'failed',
      error: { message: 'prod is unreachable' },
      approval: { status: 'approved' },
    });
  });

  test('approve or deny of an unknown id throws approval-unknown and changes nothing', async () => {
    const calls: string[] = [];
    const handle = run(
      <Agent
        model={streamModel([
          { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'staging' } }] },
          { text: 'done' },
        ])}
      >
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    for (const answer of [() => handle.approve('nope'), () => handle.deny('nope', 'no')]) {
      let error: unknown;
      try {
        answer();
      } catch (caught) {
        error = caught;
      }
      expect(JuneError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'approval-unknown' });
      expect((error as Error).message).toMatch(/^june: no approval request "nope" is pending/);
      expect((error as Error).message).toContain(request!.id);
    }
    expect(handle.pendingApprovals).toEqual([request]);
    expect(calls).toEqual([]);

    handle.approve(request!.id);
    await handle.result;
    // an id already answered is unknown too
    expect(() => handle.approve(request!.id)).toThrow(
      expect.objectContaining({ code: 'approval-unknown' }),
    );
    expect(calls).toEqual(['staging']);
  });

  test('an onApproval policy answers; the trace and event record it as automatic', async () => {
    const calls: string[] = [];
    const seen: ApprovalRequest[] = [];
    const model = streamModel([
      {
        toolCalls: [
          { id: 'c1', name: 'deploy', input: { env: 'staging' } },
          { id: 'c2', name: 'deploy', input: { env: 'prod' } },
        ],
      },
      { text: 'done' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy" />
      </Agent>,
      {
        onApproval: async (request) => {
          seen.push(request);
          return (request.input as { env: string }).env === 'staging'
            ? true
            : { approved: false, reason: 'policy: no prod' };
        },
      },
    );
    const { trace } = await handle.result;
    expect(seen.map((request) => request.step)).toEqual(['release', 'release']);
    expect(calls).toEqual(['staging']);
    const tools = trace.root.children[0]!.children[0]!.children.filter(
      (node) => node.kind === 'tool',
    );
    expect(tools.map((node) => node.approval)).toEqual([
      {
        id: seen[0]!.id,
        key: seen[0]!.key,
        status: 'approved',
        automatic: true,
        source: 'policy',
        answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      {
        id: seen[1]!.id,
        key: seen[1]!.key,
        status: 'denied',
        reason: 'policy: no prod',
        automatic: true,
        source: 'policy',
        answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const responses = (await collect(handle.events)).filter(
      (event) => event.type === 'approval-response',
    );
    expect(responses.map((event) => event.automatic)).toEqual([true, true]);
    expect(toolResults(model.doStreamCalls[1]!.prompt).map((part) => part.output.type)).toEqual([
      'text',
      'execution-denied',
    ]);
  });

  test('a policy returning undefined leaves the request to the handle', async () => {
    const calls: string[] = [];
    let asked = 0;
    const handle = run(
      <Agent
        model={streamModel([
          { toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] },
          { text: 'done' },
        ])}
      >
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy" />
      </Agent>,
      { onApproval: () => (asked++, undefined) },
    );
    const [request] = await nextRequests(handle);
    // let the policy's answer (undefined) come back, then check it decided nothing
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toBe(1);
    expect(handle.pendingApprovals).toEqual([request]);
    expect(calls).toEqual([]);
    handle.approve(request!.id);
    const { trace } = await handle.result;
    expect(calls).toEqual(['prod']);
    expect(
      trace.root.children[0]!.children[0]!.children.find((node) => node.kind === 'tool')!.approval,
    ).toEqual({
      id: request!.id,
      key: request!.key,
      status: 'approved',
      source: 'handle',
      answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  test('a policy that throws fails the run with approval-policy-failed', async () => {
    const calls: string[] = [];
    const handle = run(
      <Agent
        model={streamModel([{ toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] }])}
      >
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy" />
      </Agent>,
      {
        onApproval: () => {
          throw new Error('policy store offline');
        },
      },
    );
    const error = await handle.result.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'approval-policy-failed' });
    expect((error as Error).message).toContain('policy store offline');
    expect(calls).toEqual([]);
    expect(handle.pendingApprovals).toEqual([]);
    expect(handle.trace().status).toBe('failed');
  });

  test('a request from a composite tool’s child run: its step path is prefixed, its events carry the child run’s id', async () => {
    const calls: string[] = [];
    const outer = streamModel([
      { toolCalls: [{ id: 'outer-call', name: 'release', input: { env: 'staging' } }] },
      { text: 'Released.' },
    ]);
    const inner = streamModel([
      { toolCalls: [{ id: 'inner-call', name: 'deploy', input: { env: 'staging' } }] },
      { text: 'Deployed.' },
    ]);
    const handle = run(
      <Agent model={outer}>
        <Tool
          name="release"
          description="Release to an environment"
          input={z.object({ env: z.string() })}
        >
          {({ env }: { env: string }) => (
            <Agent model={inner}>
              <Tool name="deploy" value={deployTool(calls)} />
              <Step id="ship" prompt={`Ship to ${env}`} />
            </Agent>
          )}
        </Tool>
        <Step id="main" prompt="Release" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    expect(request).toMatchObject({
      tool: 'deploy',
      step: 'release:ship',
      input: { env: 'staging' },
    });
    handle.deny(request!.id, 'not today');
    const { output } = await handle.result;
    expect(output).toBe('Released.');
    expect(calls).toEqual([]);

    const events = await collect(handle.events);
    const childRunId = events.find(
      (event) => event.type === 'run-start' && event.parentToolCallId === 'outer-call',
    )!.runId;
    expect(childRunId).not.toBe(handle.runId);
    const approvalEvents = events.filter((event) => event.type.startsWith('approval-'));
    expect(approvalEvents.map((event) => [event.type, event.runId])).toEqual([
      ['approval-request', childRunId],
      ['approval-response', childRunId],
    ]);
    expect(
      events.find((event) => event.type === 'step-start' && event.step === 'release:ship')?.runId,
    ).toBe(childRunId);
  });

  test('abort while waiting for approval: the request is withdrawn, the result rejects with run-aborted, the trace is aborted', async () => {
    const calls: string[] = [];
    const handle = run(
      <Agent
        model={streamModel([{ toolCalls: [{ id: 'c1', name: 'deploy', input: { env: 'prod' } }] }])}
      >
        <Tool name="deploy" value={deployTool(calls)} />
        <Step id="release" prompt="Deploy" />
      </Agent>,
    );
    const [request] = await nextRequests(handle);
    handle.abort('user pressed Ctrl-C');

    const error = await handle.result.catch((caught: unknown) => caught);
    expect(JuneError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'run-aborted',
      message: 'june: the run was aborted: user pressed Ctrl-C',
    });
    expect(handle.pendingApprovals).toEqual([]);
    expect(calls).toEqual([]);
    expect(() => handle.approve(request!.id)).toThrow(
      expect.objectContaining({ code: 'approval-unknown' }),
    );

    const events = await collect(handle.events);
    expect(events.find((event) => event.type === 'approval-withdraw')).toEqual({
      type: 'approval-withdraw',
      runId: handle.runId,
      id: request!.id,
      reason: 'the run was aborted',
      nodeId: expect.any(String),
      parentId: expect.any(String),
      at: expect.any(Number),
    });
    expect(events.some((event) => event.type === 'approval-response')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run-finish', status: 'aborted' });

    const trace = (error as { trace: ReturnType<RunHandle['trace']> }).trace;
    expect(trace.status).toBe('aborted');
    expect(handle.trace().status).toBe('aborted');
    const toolNode = trace.root.children[0]!.children[0]!.children.find(
      (node) => node.kind === 'tool',
    )!;
    expect(toolNode).toMatchObject({
      status: 'aborted',
      approval: { id: request!.id, status: 'withdrawn' },
    });
  });
});
