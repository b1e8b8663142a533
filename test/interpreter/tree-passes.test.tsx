// A run is built from services made once from its options; the static check a run makes of
// its tree (and of each composite call's workflow) and inspect() are walks of their own that
// make none of them: no abort controller, no approval inbox, no event stream.
import { tool } from 'ai';
import { Agent, Catch, run, Step, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { CheckPass } from '../../src/interpreter/check-pass.js';
import { evaluate } from '../../src/interpreter/evaluate.js';
import { InspectPass } from '../../src/interpreter/inspect-pass.js';
import { createRunServices, type RunServices } from '../../src/interpreter/run-services.js';
import { createRunFrame } from '../../src/interpreter/run-state.js';
import type { JuneElement, JuneNode } from '../../src/elements/element.js';

const made = vi.hoisted(() => ({ inboxes: 0, streams: 0 }));

vi.mock('../../src/approvals/approval-inbox.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/approvals/approval-inbox.js')>();
  class CountedInbox extends original.ApprovalInbox {
    constructor(...args: ConstructorParameters<typeof original.ApprovalInbox>) {
      super(...args);
      made.inboxes++;
    }
  }
  return { ...original, ApprovalInbox: CountedInbox };
});

vi.mock('../../src/events/event-stream.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/events/event-stream.js')>();
  class CountedStream<T> extends original.EventStream<T> {
    constructor(...args: ConstructorParameters<typeof original.EventStream<T>>) {
      super(...args);
      made.streams++;
    }
  }
  return { ...original, EventStream: CountedStream };
});

/** Counts the abort controllers made while `work` runs. */
async function countControllers(work: () => Promise<void>): Promise<number> {
  const Original = globalThis.AbortController;
  let count = 0;
  vi.stubGlobal(
    'AbortController',
    class extends Original {
      constructor() {
        super();
        count++;
      }
    },
  );
  try {
    await work();
  } finally {
    vi.unstubAllGlobals();
  }
  return count;
}

const lookup = tool({
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }) => `value of ${key}`,
});

const model = scriptedModel(
  {
    $comment: 'Test fixture: scripted turns for test/interpreter/tree-passes',
    steps: {
      ask: [
        {
          toolCalls: [
            { tool: 'research', input: { topic: 'a' } },
            { tool: 'research', input: { topic: 'b' } },
          ],
        },
        { text: 'done' },
      ],
      'research:dig': [{ text: 'dug a' }, { text: 'dug b' }],
    },
  },
  { name: 'scripted' },
);

function Helper({ id }: { id: string }) {
  return <Step id={id} prompt="Help" />;
}

/** A tree with a component, a composite tool, a `<Catch>` and a nested agent. */
function Workflow() {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={lookup} />
      <Tool name="research" input={z.object({ topic: z.string() })}>
        {({ topic }) => (
          <Agent model={model}>
            <Step id="dig" prompt={`Dig into ${topic}`} />
          </Agent>
        )}
      </Tool>
      <Step id="ask" prompt="Ask" />
    </Agent>
  );
}

function CheckedTree() {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={lookup} />
      <Catch retries={2}>
        <Helper id="first" />
      </Catch>
      <Agent model={model} name="inner">
        <Step id="second" prompt="Go on" />
      </Agent>
    </Agent>
  );
}

describe('the static check', () => {
  it('walks a tree without an abort controller, an approval inbox or an event stream', async () => {
    const renders = new Map<JuneElement, JuneNode>();
    const signal = AbortSignal.timeout(60_000);
    const before = { ...made };
    const controllers = await countControllers(async () => {
      const pass = new CheckPass({ renders, rendering: new Set() });
      const frame = createRunFrame({ pass, runId: 'check', prefix: [], signal });
      await evaluate(<CheckedTree />, { run: frame, parentId: frame.nodeId });
    });
    expect(controllers).toBe(0);
    expect(made).toEqual(before);
    // the components it rendered are kept for the run, which renders each once
    expect([...renders.keys()].map((element) => (element.type as { name: string }).name)).toEqual([
      'CheckedTree',
      'Helper',
    ]);
  });

  it('has no services in its type, nor does inspect()', () => {
    expectTypeOf<CheckPass['services']>().toEqualTypeOf<undefined>();
    expectTypeOf<InspectPass['services']>().toEqualTypeOf<undefined>();
    expectTypeOf<CheckPass>().not.toHaveProperty('log');
    expectTypeOf<CheckPass>().not.toHaveProperty('abort');
    expectTypeOf<CheckPass>().not.toHaveProperty('approvals');
  });

  it('of a run and of each composite call makes one approval inbox and one log for the whole run', async () => {
    const before = { ...made };
    const result = await run(<Workflow />).result;
    expect(result.steps).toMatchObject({ ask: 'done' });
    // two composite calls, so three static checks (the tree and each call's workflow): one run
    expect(made.inboxes - before.inboxes).toBe(1);
    expect(made.streams - before.streams).toBe(1);
  });
});

describe("a run's services", () => {
  it('are few, built once and never assigned to', () => {
    const services: RunServices = createRunServices({ runId: 'r1' });
    expect(Object.keys(services).length).toBeLessThan(10);
    expect(Object.isFrozen(services)).toBe(true);
    expect(Object.isFrozen(services.settings)).toBe(true);
    expect(() => {
      (services as { log: unknown }).log = undefined;
    }).toThrow(TypeError);
    expect(services.childRunId()).toBe('r1.1');
    expect(services.childRunId()).toBe('r1.2');
  });
});
