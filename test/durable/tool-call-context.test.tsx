import { AsyncLocalStorage } from 'node:async_hooks';
import { tool } from 'ai';
import { Agent, Step, Tool, run, toolCallContext } from 'june';
import { scriptedModel } from 'june/testing';
import { HOLD_LINGER_MS } from '../../src/engine/tool-call-context.js';
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

/** Whether a promise made now carries async-context fields (async hooks are on in the process). */
const hooksOn = () => Object.getOwnPropertySymbols(Promise.resolve()).length > 0;

/**
 * Whether an `AsyncLocalStorage` in use costs every promise of the process async hooks: on
 * Node 20 and 22 it does; Node 24 runs it on AsyncContextFrame, where promises carry nothing
 * whatever storage is in use. Probed once, before any run.
 */
const storageUsesHooks = (() => {
  const storage = new AsyncLocalStorage<number>();
  const carried = storage.run(1, hooksOn);
  storage.disable();
  return carried;
})();

describe('toolCallContext() in a tool execution', () => {
  test('gives each of two parallel calls its own context, after awaits too; after the run nothing in the process pays for it', async () => {
    const seen: Record<string, string[]> = {};
    const slow = tool({
      description: 'Waits, then reads its call',
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        const keys = [toolCallContext()!.key];
        await new Promise((resolve) => setImmediate(resolve));
        keys.push(toolCallContext()!.key);
        await Promise.resolve();
        keys.push(toolCallContext()!.key);
        seen[name] = keys;
        return name;
      },
    });
    const model = streamModel([
      {
        toolCalls: [
          { id: 'a', name: 'slow', input: { name: 'a' } },
          { id: 'b', name: 'slow', input: { name: 'b' } },
        ],
      },
      { text: 'Both done.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="slow" value={slow} />
        <Step id="go" prompt="Call slow twice." />
      </Agent>,
    );
    await handle.result;

    expect(seen.a).toEqual(Array(3).fill(`${handle.runId}/go#a.0`));
    expect(seen.b).toEqual(Array(3).fill(`${handle.runId}/go#b.0`));
    expect(toolCallContext()).toBeUndefined();
    // on Node 20 a context storage in use makes every promise of the process carry ids
    expect(hooksOn()).toBe(false);
  });

  test('a composite tool has its call while its body renders; the child run runs without it, and its tools have their own', async () => {
    const seen: Record<string, unknown> = {};
    const inner = tool({
      description: 'Reads its call',
      inputSchema: z.object({}),
      execute: async () => {
        await Promise.resolve();
        seen.inner = toolCallContext()?.key;
        return 'ok';
      },
    });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'helper', input: { task: 'x' } }] },
      { toolCalls: [{ id: 'i1', name: 'inner', input: {} }] },
      { text: 'Inner done.' },
      { text: 'All done.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="helper" description="Do a task" input={z.object({ task: z.string() })}>
          {async ({ task }: { task: string }) => {
            await Promise.resolve();
            seen.render = toolCallContext()?.key;
            return (
              <Agent model={model}>
                <Tool name="inner" value={inner} />
                <Step
                  id="work"
                  prompt={() => {
                    seen.child = toolCallContext();
                    seen.hooks = hooksOn();
                    return `Do ${task}.`;
                  }}
                />
              </Agent>
            );
          }}
        </Tool>
        <Step id="go" prompt="Delegate." />
      </Agent>,
    );
    await handle.result;

    expect(seen.render).toBe(`${handle.runId}/go#c1.0`);
    expect(seen.child).toBeUndefined();
    // no tool call is running while the child run's step starts: promises skip async hooks
    expect(seen.hooks).toBe(false);
    expect(seen.inner).toBe(`${handle.runId}/go#c1.0/work#i1.0`);
    expect(hooksOn()).toBe(false);
  });

  test('in batch mode each call still has its own context; the storage stays on through the run and turns off after the linger', async () => {
    const keys: string[] = [];
    const note = tool({
      description: 'Reads its call',
      inputSchema: z.object({}),
      execute: async () => {
        await Promise.resolve();
        keys.push(toolCallContext()!.key);
        return 'ok';
      },
    });
    const model = scriptedModel({
      steps: {
        go: [
          { toolCalls: [{ tool: 'note', input: {} }] },
          { toolCalls: [{ tool: 'note', input: {} }] },
          { text: 'Noted twice.' },
        ],
      },
    });
    const handle = run(
      <Agent model={model}>
        <Tool name="note" value={note} />
        <Step id="go" prompt="Note twice." />
      </Agent>,
      { stream: false },
    );
    await handle.result;

    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((key) => key.startsWith(`${handle.runId}/go#`))).toBe(true);
    if (storageUsesHooks) {
      // held for the run (no turn on and off per call), then let go HOLD_LINGER_MS after it
      expect(hooksOn()).toBe(true);
      await vi.waitFor(() => expect(hooksOn()).toBe(false), { timeout: HOLD_LINGER_MS * 5 });
    } else {
      // the storage costs promises nothing: none carries async-context fields, ever
      expect(hooksOn()).toBe(false);
    }
  });
});
