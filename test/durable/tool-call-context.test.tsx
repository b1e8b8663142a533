import { tool } from 'ai';
import { Agent, Step, Tool, run, toolCallContext } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

/** Whether a promise made now carries async-context fields (async hooks are on in the process). */
const hooksOn = () => Object.getOwnPropertySymbols(Promise.resolve()).length > 0;

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
});
