import { tool, type LanguageModel, type Tool as AiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  Agent,
  JuneError,
  run,
  Step,
  Tool,
  type CompositeToolResult,
  type RunEvent,
  type Trace,
} from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callsAt, findNode, nextEvent, recordEvents, recordingModel } from './support.js';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function Report({
  outer,
  inner,
  slow,
}: {
  outer: LanguageModel;
  inner: LanguageModel;
  slow: AiTool<any, any>;
}) {
  return (
    <Agent model={outer}>
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }) => (
          <Agent model={inner}>
            <Tool name="slow" value={slow} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Research how Suspense works" />
    </Agent>
  );
}

const childTraceOf = (error: unknown): Trace => {
  const trace = (error as { trace: Trace }).trace;
  return (findNode(trace.root, 'tool', 'research').output as Pick<CompositeToolResult, 'trace'>)
    .trace;
};

describe('aborting a run during a composite call', () => {
  it("aborts the child run, waits for its tools' cleanup, and settles both as aborted", async () => {
    const timersBefore = timers();
    const outer = recordingModel({
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'never' },
      ],
    });
    const inner = recordingModel({
      'research:findings': [{ toolCalls: [{ tool: 'slow', input: {} }] }, { text: 'never' }],
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const cleanup = { done: false, childFinishedBefore: false, callSettledBefore: false };
    let events: RunEvent[] = [];
    let snapshot = (): Trace | undefined => undefined;
    const slow = tool({
      inputSchema: z.object({}),
      execute: async (_input, { abortSignal }) => {
        started();
        try {
          await new Promise((_resolve, reject) =>
            abortSignal!.addEventListener('abort', () => reject(abortSignal!.reason), {
              once: true,
            }),
          );
        } finally {
          // Cleanup that takes a while (as killing a process does). The event reader keeps up
          // meanwhile, so a child run that settled without waiting would show here.
          for (let i = 0; i < 25; i++) await turn();
          cleanup.childFinishedBefore = events.some((e) => e.type === 'run-finish');
          // while the call runs, its node's output shows the child run live, still running
          const output = findNode(snapshot()!.root, 'tool', 'research').output as
            { trace?: Trace; output?: unknown } | undefined;
          cleanup.callSettledBefore =
            output === undefined || 'output' in output || output.trace?.status !== 'running';
          cleanup.done = true;
        }
      },
    });

    const handle = run(<Report outer={outer} inner={inner} slow={slow} />);
    const recorded = recordEvents(handle);
    events = recorded.events;
    snapshot = handle.trace;
    await running;
    handle.abort('user stopped');
    const settled = await handle.result.then(
      () => ({ error: undefined, cleanedUp: cleanup.done }),
      (error: unknown) => ({ error, cleanedUp: cleanup.done }),
    );
    await recorded.done;

    expect(JuneError.isInstance(settled.error) && settled.error.code).toBe('run-aborted');
    expect((settled.error as Error).message).toBe('june: the run was aborted: user stopped');
    expect(settled.cleanedUp).toBe(true);
    // Neither run finished, and the research call did not settle, before the cleanup was done.
    expect(cleanup.childFinishedBefore).toBe(false);
    expect(cleanup.callSettledBefore).toBe(false);

    const finishes = events.filter(
      (e): e is Extract<RunEvent, { type: 'run-finish' }> => e.type === 'run-finish',
    );
    expect(finishes.map((e) => [e.runId, e.status])).toEqual([
      [`${handle.runId}.1`, 'aborted'],
      [handle.runId, 'aborted'],
    ]);
    const trace = (settled.error as { trace: Trace }).trace;
    expect(trace.status).toBe('aborted');
    expect(findNode(trace.root, 'tool', 'research').status).toBe('aborted');
    const child = childTraceOf(settled.error);
    expect(child.status).toBe('aborted');
    expect(findNode(child.root, 'step', 'findings').status).toBe('aborted');
    expect(findNode(child.root, 'tool', 'slow').status).toBe('aborted');
    // Nothing ran after the abort, and nothing is left waiting.
    expect(callsAt(inner, 'research:findings')).toHaveLength(1);
    expect(callsAt(outer, 'report')).toHaveLength(1);
    expect(handle.pendingApprovals).toEqual([]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('aborts a model call of the child run in flight', async () => {
    const outer = recordingModel({
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'never' },
      ],
    });
    let calling!: () => void;
    const called = new Promise<void>((resolve) => (calling = resolve));
    const inner = new MockLanguageModelV3({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            calling();
            abortSignal!.addEventListener('abort', () => controller.error(abortSignal!.reason), {
              once: true,
            });
          },
        }),
      }),
    });
    const slow = tool({ inputSchema: z.object({}), execute: async () => 'unused' });
    const handle = run(<Report outer={outer} inner={inner} slow={slow} />);
    await called;
    handle.abort();
    const error = await handle.result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'run-aborted' });
    expect(inner.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
    expect(childTraceOf(error).status).toBe('aborted');
    expect(findNode(childTraceOf(error).root, 'step', 'findings').status).toBe('aborted');
  });

  it('withdraws an approval request the child run is waiting for', async () => {
    const model = recordingModel({
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'never' },
      ],
      'research:findings': [{ toolCalls: [{ tool: 'slow', input: {} }] }, { text: 'never' }],
    });
    const ran: string[] = [];
    const gated = tool({
      inputSchema: z.object({}),
      needsApproval: true,
      execute: async () => void ran.push('slow'),
    });
    const handle = run(<Report outer={model} inner={model} slow={gated} />);
    const { events, done } = recordEvents(handle);
    const { request } = await nextEvent(
      handle,
      (e): e is Extract<RunEvent, { type: 'approval-request' }> => e.type === 'approval-request',
    );
    expect(request.step).toBe('research:findings');
    handle.abort();
    const error = await handle.result.catch((e: unknown) => e);
    await done;
    expect(error).toMatchObject({ code: 'run-aborted' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval-withdraw', id: request.id }),
    );
    expect(handle.pendingApprovals).toEqual([]);
    expect(() => handle.approve(request.id)).toThrow(
      expect.objectContaining({ code: 'approval-unknown' }),
    );
    expect(ran).toEqual([]);
    expect(childTraceOf(error).status).toBe('aborted');
    expect(findNode(childTraceOf(error).root, 'tool', 'slow').approval).toEqual({
      id: request.id,
      key: request.key,
      status: 'withdrawn',
    });
  });

  it("also stops with the run's signal option", async () => {
    const controller = new AbortController();
    const model = recordingModel({
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'never' },
      ],
      'research:findings': [{ toolCalls: [{ tool: 'slow', input: {} }] }, { text: 'never' }],
    });
    const slow = tool({
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) => {
        controller.abort(new Error('deadline'));
        return new Promise((_resolve, reject) =>
          abortSignal!.aborted
            ? reject(abortSignal!.reason)
            : abortSignal!.addEventListener('abort', () => reject(abortSignal!.reason)),
        );
      },
    });
    const error = await run(<Report outer={model} inner={model} slow={slow} />, {
      signal: controller.signal,
    }).result.catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'run-aborted',
      message: 'june: the run was aborted: deadline',
    });
    expect(childTraceOf(error).status).toBe('aborted');
  });
});
