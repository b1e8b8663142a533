import { tool } from 'ai';
import {
  Agent,
  DEFAULT_ABORT_GRACE_MS,
  JuneError,
  Step,
  Tool,
  run,
  type RunEvent,
  type Trace,
  type TraceNode,
} from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

function allNodes(root: TraceNode): TraceNode[] {
  const nodes: TraceNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.push(node);
    stack.push(...node.children);
  }
  return nodes;
}

/** A tool whose execute never settles and never looks at its abort signal. */
function stuckTool() {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const value = tool({
    inputSchema: z.object({}),
    execute: () => {
      markStarted();
      return new Promise<string>(() => {});
    },
  });
  return { value, started };
}

describe('abort grace period', () => {
  test('a tool that ignores its signal and never settles: the run settles as aborted after abortGraceMs, naming the tool', async () => {
    const { value, started } = stuckTool();
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'stuck', input: {} }] },
      { text: 'unreachable' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="stuck" value={value} />
        <Step id="work" prompt="Do it" />
      </Agent>,
      { abortGraceMs: 20 },
    );
    const events: RunEvent[] = [];
    const reading = (async () => {
      for await (const event of handle.events) events.push(event);
    })();
    await started;
    handle.abort('stop now');

    const error = await handle.result.catch((caught: unknown) => caught);
    expect(JuneError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'run-aborted',
      unstopped: ['the tool "stuck" in step "work"'],
      message:
        'june: the run was aborted: stop now; 20 ms after the abort the tool "stuck" in step "work" had not stopped and was abandoned (make tools and components end when their abort signal fires, or raise abortGraceMs)',
    });

    const trace = (error as { trace: Trace }).trace;
    expect(trace.status).toBe('aborted');
    expect(trace.root.error).toMatchObject({
      code: 'run-aborted',
      message: expect.stringContaining('the tool "stuck" in step "work" had not stopped'),
    });
    expect(
      allNodes(trace.root).filter((node) => !node.endedAt || node.status === 'running'),
    ).toEqual([]);
    expect(allNodes(trace.root).find((node) => node.kind === 'tool')).toMatchObject({
      name: 'stuck',
      status: 'aborted',
      error: {
        code: 'run-aborted',
        message:
          'june: the run was aborted: this had not stopped 20 ms after the abort; the run settled without it',
      },
    });
    expect(handle.trace().status).toBe('aborted');

    await reading; // the event stream ends too
    expect(events.at(-1)).toMatchObject({
      type: 'run-finish',
      runId: handle.runId,
      status: 'aborted',
      error: { code: 'run-aborted' },
    });
  });

  test('an async component that never returns: the run settles as aborted and names the component', async () => {
    let rendering!: () => void;
    const started = new Promise<void>((resolve) => (rendering = resolve));
    function Forever(): Promise<null> {
      rendering();
      return new Promise(() => {});
    }
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <Agent model={model}>
        <Forever />
      </Agent>,
      { abortGraceMs: 0 },
    );
    await started;
    handle.abort();
    const error = await handle.result.catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'run-aborted',
      unstopped: [expect.stringMatching(/^the component <Forever>/)],
    });
    expect(model.doStreamCalls).toHaveLength(0);
    const trace = handle.trace();
    expect(trace.status).toBe('aborted');
    expect(allNodes(trace.root).filter((node) => !node.endedAt)).toEqual([]);
  });

  test('work that stops in time is waited for, as before: nothing is named as abandoned', async () => {
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const polite = tool({
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          markStarted();
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
        }),
    });
    const handle = run(
      <Agent model={streamModel([{ toolCalls: [{ id: 'c1', name: 'polite', input: {} }] }])}>
        <Tool name="polite" value={polite} />
        <Step id="work" prompt="go" />
      </Agent>,
    );
    await started;
    handle.abort('enough');
    await expect(handle.result).rejects.toMatchObject({
      code: 'run-aborted',
      unstopped: [],
      message: 'june: the run was aborted: enough',
    });
  });

  test('the default grace is 5000 ms; a bad abortGraceMs fails at once', () => {
    expect(DEFAULT_ABORT_GRACE_MS).toBe(5000);
    const workflow = (
      <Agent model={streamModel([])}>
        <Step id="s" prompt="?" />
      </Agent>
    );
    for (const bad of [-1, Number.NaN, Infinity, '100'] as unknown as number[]) {
      expect(() => run(workflow, { abortGraceMs: bad })).toThrow(
        expect.objectContaining({ code: 'run-abort-grace-invalid' }),
      );
    }
  });
});
