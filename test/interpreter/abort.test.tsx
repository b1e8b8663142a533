import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, JuneError, Step, Tool, run, type RunEvent, type Trace, type TraceNode } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { hangingModel, streamModel } from '../helpers/mock-stream-model.js';

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

async function waitFor(events: AsyncIterable<RunEvent>, type: RunEvent['type']): Promise<RunEvent> {
  for await (const event of events) if (event.type === type) return event;
  throw new Error(`the run ended without a ${type} event`);
}

/** A slow tool that honours its abort signal: a timer cleared on abort, cleanup in `finally`. */
function slowTool() {
  const state = {
    started: undefined as unknown as Promise<void>,
    timerCleared: false,
    cleanedUp: false,
  };
  let markStarted!: () => void;
  state.started = new Promise<void>((resolve) => (markStarted = resolve));
  const value = tool({
    inputSchema: z.object({}),
    execute: async (_input, { abortSignal }) => {
      markStarted();
      try {
        return await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => resolve('finished'), 60_000);
          abortSignal?.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              state.timerCleared = true;
              reject(abortSignal.reason);
            },
            { once: true },
          );
        });
      } finally {
        // cleanup that takes a turn of the event loop, like closing a handle
        for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
        state.cleanedUp = true;
      }
    },
  });
  return { value, state };
}

describe('abort', () => {
  test('mid-step, during a streaming model call: the call sees the abort and the run settles as aborted', async () => {
    const model = hangingModel([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Thinking' },
    ]);
    const handle = run(
      <Agent model={model} maxRetries={0}>
        <Step id="think" prompt="Think hard" />
        <Step id="never" prompt="unreachable" />
      </Agent>,
    );
    await waitFor(handle.events, 'text-delta');
    handle.abort('changed my mind');

    const error = await handle.result.catch((caught: unknown) => caught);
    expect(JuneError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'run-aborted',
      message: 'june: the run was aborted: changed my mind',
    });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);

    const trace = (error as { trace: Trace }).trace;
    expect(trace.status).toBe('aborted');
    expect(
      allNodes(trace.root).filter((node) => node.status === 'running' || node.status === 'waiting'),
    ).toEqual([]);
    expect(allNodes(trace.root).map((node) => [node.kind, node.status])).toEqual([
      ['run', 'aborted'],
      ['agent', 'aborted'],
      ['step', 'aborted'],
      ['model', 'aborted'],
    ]);

    const events: RunEvent[] = [];
    for await (const event of handle.events) events.push(event);
    expect(events.filter((event) => event.type === 'step-start')).toHaveLength(1);
    expect(events.find((event) => event.type === 'step-finish')).toMatchObject({
      step: 'think',
      status: 'aborted',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run-finish', status: 'aborted' });
  });

  test('mid-step, during a slow tool execution: the tool’s cleanup runs before result settles, and its timer is cleared', async () => {
    const { value, state } = slowTool();
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'slow', input: {} }] },
      { text: 'unreachable' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="slow" value={value} />
        <Step id="work" prompt="Do the slow thing" />
      </Agent>,
    );
    await state.started;
    handle.abort();

    let cleanedUpWhenSettled: boolean | undefined;
    const error = await handle.result.catch((caught: unknown) => {
      cleanedUpWhenSettled = state.cleanedUp;
      return caught;
    });
    expect(error).toMatchObject({
      code: 'run-aborted',
      message: expect.stringMatching(/^june: the run was aborted/),
    });
    expect(cleanedUpWhenSettled).toBe(true);
    expect(state.timerCleared).toBe(true);
    expect(model.doStreamCalls).toHaveLength(1);

    const trace = handle.trace();
    expect(trace.status).toBe('aborted');
    const nodes = allNodes(trace.root);
    expect(nodes.filter((node) => node.status === 'running' || node.status === 'waiting')).toEqual(
      [],
    );
    expect(nodes.find((node) => node.kind === 'tool')).toMatchObject({
      name: 'slow',
      status: 'aborted',
    });
  });

  test('the signal option aborts the run like handle.abort()', async () => {
    const { value, state } = slowTool();
    const controller = new AbortController();
    const handle = run(
      <Agent model={streamModel([{ toolCalls: [{ id: 'c1', name: 'slow', input: {} }] }])}>
        <Tool name="slow" value={value} />
        <Step id="work" prompt="go" />
      </Agent>,
      { signal: controller.signal },
    );
    await state.started;
    controller.abort(new Error('shutting down'));
    await expect(handle.result).rejects.toMatchObject({
      code: 'run-aborted',
      message: 'june: the run was aborted: shutting down',
    });
    expect(state.cleanedUp).toBe(true);
    expect(handle.trace().status).toBe('aborted');
  });

  test('a signal aborted before the run starts: no model call, result rejects with run-aborted', async () => {
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <Agent model={model}>
        <Step id="s" prompt="?" />
      </Agent>,
      { signal: AbortSignal.abort('too late') },
    );
    await expect(handle.result).rejects.toMatchObject({
      code: 'run-aborted',
      message: 'june: the run was aborted: too late',
    });
    expect(model.doStreamCalls).toHaveLength(0);
    expect(handle.trace().status).toBe('aborted');
  });

  test('an abort while an async component renders (before the first step) stops the run with no model call', async () => {
    let rendering!: () => void;
    const started = new Promise<void>((resolve) => (rendering = resolve));
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    async function Slow() {
      rendering();
      await gate;
      return <Step id="s" prompt="?" />;
    }
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <Agent model={model}>
        <Slow />
      </Agent>,
    );
    await started;
    handle.abort();
    finish();
    await expect(handle.result).rejects.toMatchObject({ code: 'run-aborted' });
    expect(model.doStreamCalls).toHaveLength(0);
    const trace = handle.trace();
    expect(trace.status).toBe('aborted');
    expect(allNodes(trace.root).filter((node) => node.status === 'running')).toEqual([]);
  });

  test('abort after the run finished changes nothing', async () => {
    const handle = run(
      <Agent model={streamModel([{ text: 'done' }])}>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    const result = await handle.result;
    handle.abort();
    expect(result.output).toBe('done');
    expect(handle.trace().status).toBe('succeeded');
  });
});

describe('abort with a model that ignores its abort signal', () => {
  test('the run still settles as aborted, whether the model hangs mid-stream or never answers', async () => {
    const midStream = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'never ends' });
          },
        }),
      }),
    });
    const first = run(
      <Agent model={midStream}>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    await waitFor(first.events, 'text-delta');
    first.abort();
    await expect(first.result).rejects.toMatchObject({ code: 'run-aborted' });
    expect(first.trace().status).toBe('aborted');

    const silent = new MockLanguageModelV3({ doStream: () => new Promise(() => {}) });
    const second = run(
      <Agent model={silent}>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    await waitFor(second.events, 'step-start');
    for (let turn = 0; turn < 100 && silent.doStreamCalls.length === 0; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(silent.doStreamCalls).toHaveLength(1);
    second.abort();
    await expect(second.result).rejects.toMatchObject({ code: 'run-aborted' });
    expect(allNodes(second.trace().root).filter((node) => node.status === 'running')).toEqual([]);
  });
});
