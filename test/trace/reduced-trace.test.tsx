// The trace is the reduction of the run's log: for the examples, for workflows the tests use
// (retries, fallbacks, failures, denials, nested waits, aborts, abandoned work, redaction,
// batch mode) and for random trees, the trace `applyEvent` builds from the log equals the
// run's own trace at every approval request (where the run waits) and at the end, also
// from `handle.log` after a JSON round trip, as a follower in another process would get it.
import { stepCountIs, tool } from 'ai';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import fc from 'fast-check';
import {
  Agent,
  applyEvent,
  Catch,
  defineAgent,
  liveTrace,
  run,
  Step,
  Tool,
  type ApprovalRequest,
  type JuneElement,
  type RunConsumer,
  type RunHandle,
  type RunLogEvent,
  type RunOptions,
  type Trace,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import Article from '../../examples/article.js';
import Bundles from '../../examples/capabilities/bundles.js';
import Compaction from '../../examples/compaction.js';
import Inherit from '../../examples/capabilities/inherit.js';
import Scope from '../../examples/capabilities/scope.js';
import ToolsProp from '../../examples/capabilities/tools-prop.js';
import Wrappers from '../../examples/capabilities/wrappers.js';
import Ship from '../../examples/questions/ship.js';
import Release from '../../examples/release.js';
import Report from '../../examples/report.js';
import Review from '../../examples/parallel.js';
import { agentArb, buildAgent } from '../capabilities/random-trees.js';
import { streamModel, type MockScript, type MockTurn } from '../helpers/mock-stream-model.js';

function reduce(events: readonly RunLogEvent[]): Trace | undefined {
  const live = liveTrace();
  for (const event of events) applyEvent(live, event);
  return live.trace;
}

const plain = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

type Answer = (request: ApprovalRequest, handle: RunHandle, index: number) => void;
const approveAll: Answer = (request, handle) => handle.approve(request.id);

/**
 * Runs `element` with a consumer that keeps the log; at each approval request compares the
 * log's reduction so far with `handle.trace()`, and at the end with the run's trace.
 * Returns how many times the run waited and how it ended.
 */
async function checkReduced(
  element: JuneElement,
  options: RunOptions = {},
  answer: Answer = approveAll,
): Promise<{ waits: number; status: string }> {
  const log: RunLogEvent[] = [];
  const atWaits: Array<[Trace | undefined, Trace]> = [];
  let handle: RunHandle | undefined;
  const consumer: RunConsumer = {
    event: (event) => {
      log.push(event);
      if (event.type === 'approval-request') atWaits.push([reduce(log), handle!.trace()]);
    },
  };
  handle = run(element, { ...options, consumers: [consumer] });
  const started = handle;
  const followed = (async () => {
    const events: RunLogEvent[] = [];
    for await (const event of started.log) events.push(event);
    return events;
  })();
  let asked = 0;
  for await (const event of started.events)
    if (event.type === 'approval-request') answer(event.request, started, asked++);
  const final = await started.result.then(
    (result) => result.trace,
    (error: { trace: Trace }) => error.trace,
  );
  expect(reduce(log)).toEqual(final);
  for (const [reduced, trace] of atWaits) expect(reduced).toEqual(trace);
  expect(reduce(plain(await followed))).toEqual(plain(final));
  return { waits: atWaits.length, status: final.status };
}

const examples: Array<[string, () => JuneElement, string]> = [
  ['release.tsx', () => <Release />, 'examples/release.script.json'],
  ['report.tsx', () => <Report />, 'examples/report.script.json'],
  ['article.tsx', () => <Article />, 'examples/article.script.json'],
  ['capabilities/bundles.tsx', () => <Bundles />, 'examples/capabilities/bundles.script.json'],
  ['capabilities/inherit.tsx', () => <Inherit />, 'examples/capabilities/inherit.script.json'],
  ['capabilities/scope.tsx', () => <Scope />, 'examples/capabilities/scope.script.json'],
  [
    'capabilities/tools-prop.tsx',
    () => <ToolsProp />,
    'examples/capabilities/tools-prop.script.json',
  ],
  ['capabilities/wrappers.tsx', () => <Wrappers />, 'examples/capabilities/wrappers.script.json'],
  ['compaction.tsx', () => <Compaction />, 'examples/compaction.script.json'],
  ['parallel.tsx', () => <Review />, 'examples/parallel.script.json'],
];

describe('the trace reduced from the log equals the run’s trace', () => {
  it.each(examples)('examples/%s, from its script', async (_name, element, script) => {
    const { status } = await checkReduced(element(), { model: scriptedModel(script) });
    expect(status).toBe('succeeded');
  });

  it('release.tsx in batch mode, with a redacted value, its deploy waiting then approved', async () => {
    const { waits } = await checkReduced(<Release />, {
      model: scriptedModel('examples/release.script.json'),
      stream: false,
      redact: { values: ['staging'] },
    });
    expect(waits).toBe(1);
  });

  it('questions/ship.tsx: two questions answered with values, a choice and a form', async () => {
    const { waits, status } = await checkReduced(
      <Ship />,
      { model: scriptedModel('examples/questions/ship.script.json') },
      (request, handle) =>
        handle.respond(
          request.id,
          request.tool === 'ask_env'
            ? 'staging'
            : { title: 'Faster builds', highlights: ['cached modules', '--dry-run'] },
        ),
    );
    expect({ waits, status }).toEqual({ waits: 2, status: 'succeeded' });
  });

  it('a denied call, a tool that throws, a <Catch> that retries then falls back', async () => {
    const deploy = tool({
      inputSchema: z.object({}),
      needsApproval: true,
      execute: async () => 'deployed',
    });
    const broken = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('disk full');
      },
    });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'deploy', input: {} }] },
      { toolCalls: [{ id: 'c2', name: 'broken', input: {} }] },
      { text: 'gave up' },
      { error: new Error('provider down') },
      { error: new Error('provider down again') },
      { text: 'fallback done' },
    ]);
    const { waits, status } = await checkReduced(
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Tool name="broken" value={broken} />
        <Step id="ship" prompt="ship" />
        <Catch retries={1} fallback={() => <Step id="plan-b" prompt="plan b" />}>
          <Step id="flaky" prompt="again" />
        </Catch>
      </Agent>,
      {},
      (request, handle) => handle.deny(request.id, 'not today'),
    );
    expect([waits, status]).toEqual([1, 'succeeded']);
  });

  it('a defined agent two levels down waits for approval, twice in parallel', async () => {
    const deploy = tool({
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: async ({ env }) => `deployed to ${env}`,
    });
    const inner = answering((options, index) =>
      lastIsTool(options)
        ? { text: 'done' }
        : { toolCalls: [{ id: `d${index}`, name: 'deploy', input: { env: 'staging' } }] },
    );
    const input = z.object({ task: z.string() });
    const Deployer = defineAgent({
      name: 'deployer',
      model: inner,
      input,
      prompt: ({ task }) => task,
      capabilities: () => <Tool name="deploy" value={deploy} />,
    });
    const Writer = defineAgent({
      name: 'writer',
      input,
      prompt: ({ task }) => task,
      model: answering((options) =>
        lastIsTool(options)
          ? { text: 'written' }
          : { toolCalls: [{ id: 'w1', name: 'deployer', input: { task: 'go' } }] },
      ),
      capabilities: () => <Deployer />,
    });
    const outer = streamModel([
      {
        toolCalls: [
          { id: 'o1', name: 'writer', input: { task: 'one' } },
          { id: 'o2', name: 'writer', input: { task: 'two' } },
        ],
      },
      { text: 'both done' },
    ]);
    const { waits, status } = await checkReduced(
      <Agent model={outer}>
        <Writer />
        <Step id="main" prompt="write twice" />
      </Agent>,
      {},
      (request, handle, index) =>
        index === 0 ? handle.approve(request.id) : handle.deny(request.id),
    );
    expect([waits, status]).toEqual([2, 'succeeded']);
  });

  it('a run aborted while it waits, and one whose stopWhen ends on an approval turn', async () => {
    const deploy = tool({
      inputSchema: z.object({}),
      needsApproval: true,
      execute: async () => 'ok',
    });
    const calls: MockTurn = { toolCalls: [{ id: 'c1', name: 'deploy', input: {} }] };
    const aborted = await checkReduced(
      <Agent model={streamModel([calls])}>
        <Tool name="deploy" value={deploy} />
        <Step id="ship" prompt="ship" />
      </Agent>,
      {},
      (_request, handle) => handle.abort('changed my mind'),
    );
    expect(aborted).toEqual({ waits: 1, status: 'aborted' });
    const limited = await checkReduced(
      <Agent model={streamModel([calls])} stopWhen={stepCountIs(1)}>
        <Tool name="deploy" value={deploy} />
        <Step id="ship" prompt="ship" />
      </Agent>,
    );
    expect(limited).toEqual({ waits: 0, status: 'succeeded' });
  });

  it('work that ignores its abort is abandoned after the grace period', async () => {
    let abort = () => {};
    const stuck = tool({
      inputSchema: z.object({}),
      execute: () => {
        abort();
        return new Promise<string>(() => {});
      },
    });
    const element = (
      <Agent model={streamModel([{ toolCalls: [{ id: 'c1', name: 'stuck', input: {} }] }])}>
        <Tool name="stuck" value={stuck} />
        <Step id="wait" prompt="wait" />
      </Agent>
    );
    const log: RunLogEvent[] = [];
    const handle = run(element, { abortGraceMs: 0, consumers: [{ event: (e) => log.push(e) }] });
    abort = () => handle.abort('stop');
    const error = (await handle.result.catch((caught: unknown) => caught)) as { trace: Trace };
    expect(error.trace.status).toBe('aborted');
    expect(reduce(log)).toEqual(error.trace);
  });

  it('failures before a start: a prompt function that throws, capabilities that collide', async () => {
    const model = streamModel([{ text: 'x' }]);
    const prompt = await checkReduced(
      <Agent model={model}>
        <Step
          id="s"
          prompt={() => {
            throw new Error('no prompt');
          }}
        />
      </Agent>,
    );
    expect(prompt.status).toBe('failed');
    const lookup = tool({ inputSchema: z.object({}), execute: async () => 'x' });
    const collide = await checkReduced(
      <Agent model={streamModel([{ text: 'x' }])}>
        <Tool name="lookup" value={lookup} />
        <Tool name="lookup" value={lookup} />
        <Step id="s" prompt="?" />
      </Agent>,
    );
    expect(collide.status).toBe('failed');
  });

  it('random trees of agents, tools, wrappers, bundles and steps, each tool called once', async () => {
    await fc.assert(
      fc.asyncProperty(agentArb(2, true), fc.boolean(), async (spec, approve) => {
        const model = answering((options) => {
          const first = options.tools?.[0];
          return lastIsTool(options) || !first
            ? { text: 'done' }
            : { toolCalls: [{ id: 'c1', name: first.name, input: {} }] };
        });
        const element = buildAgent(spec, { next: 0, grants: new Map() }) as JuneElement;
        await checkReduced(element, { model }, (request, handle) =>
          approve ? handle.approve(request.id) : handle.deny(request.id),
        );
      }),
      { numRuns: 40 },
    );
  });
});

/** A model that answers every call with `turn` (of the call and its 0-based index). */
function answering(turn: Extract<MockScript, (...args: never[]) => unknown>) {
  return streamModel(Array.from({ length: 100 }, () => turn));
}

/** Whether the model's last message is a tool's answer (so this turn ends the step). */
function lastIsTool(options: LanguageModelV4CallOptions): boolean {
  return options.prompt.at(-1)?.role === 'tool';
}
