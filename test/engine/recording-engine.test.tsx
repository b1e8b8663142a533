// A second implementation of the durable engine, in memory, that records every durable call:
// it drives whole runs (tool calls, a composite child run, an approval answered from outside
// the run, a resume) with nothing of June's journal, so the interpreter needs the engine
// interface and nothing else.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalDecision } from '../../src/approvals/approval-request.js';
import { Agent, Catch, Step, Tool } from '../../src/components/index.js';
import type {
  ApprovalAnswer,
  ApprovalQuestion,
  DurableEngine,
  DurableEngineFactory,
  DurablePlace,
  DurableRunStatus,
  ModelAnswer,
  ModelCallAt,
  ToolCallAt,
} from '../../src/engine/index.js';
import type { RunLogEvent } from '../../src/events/run-event.js';
import { runWorkflow, type RunHandle } from '../../src/interpreter/index.js';
import { scriptedModel } from '../../src/testing/scripted-model.js';
import type { ScriptTurn } from '../../src/testing/script-format.js';
import type { TraceNode } from '../../src/trace/trace-node.js';

/** What the engine keeps across processes (a database would). */
interface Store {
  models: Map<string, { requestHash: string; answer: ModelAnswer }>;
  tools: Map<string, { output: unknown } | { error: unknown }>;
  requests: Set<string>;
  answers: Map<string, ApprovalDecision>;
}

const newStore = (): Store => ({
  models: new Map(),
  tools: new Map(),
  requests: new Set(),
  answers: new Map(),
});

const at = (place: DurablePlace) => [...(place.calls ?? []), place.step].join('/');

/** An engine that keeps its records in `store` and logs every durable call it is handed. */
class RecordingEngine implements DurableEngine {
  failure: unknown = undefined;
  readonly log: string[] = [];
  readonly published: RunLogEvent[] = [];
  /** Approval requests waiting for an answer from outside, by call. */
  readonly #inbox = new Map<string, (decision: ApprovalDecision) => void>();
  /** Calls whose approval waits for an answer, and who waits to hear of them. */
  readonly #waiting: string[] = [];
  readonly #watchers: Array<(call: string) => void> = [];

  constructor(
    readonly runId: string,
    private readonly store: Store,
  ) {}

  get decidesApprovals(): boolean {
    return this.store.requests.size > 0;
  }

  async modelCall(call: ModelCallAt, work: () => Promise<ModelAnswer>): Promise<ModelAnswer> {
    const key = `${at(call.place)} #${call.index}`;
    const recorded = this.store.models.get(key);
    if (recorded) {
      expect(recorded.requestHash).toBe(call.requestHash);
      this.log.push(`model ${key} replayed`);
      return recorded.answer;
    }
    this.log.push(`model ${key} made`);
    const answer = await work();
    this.store.models.set(key, { requestHash: call.requestHash, answer });
    return answer;
  }

  toolCall(call: ToolCallAt, work: () => unknown): unknown {
    const key = `${at(call.place)} ${call.call}`;
    const recorded = this.store.tools.get(key);
    if (recorded) {
      this.log.push(`tool ${key} ${call.tool} replayed`);
      return 'error' in recorded
        ? Promise.reject(recorded.error)
        : Promise.resolve(recorded.output);
    }
    this.log.push(`tool ${key} ${call.tool} ran`);
    return Promise.resolve(work()).then(
      (output) => (this.store.tools.set(key, { output }), output),
      (error: unknown) => {
        if (!call.abortSignal?.aborted) this.store.tools.set(key, { error });
        throw error;
      },
    );
  }

  async needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean> {
    const key = `${at(call.place)} ${call.call}`;
    if (this.store.requests.has(key)) return true;
    if (this.store.tools.has(key)) return false;
    return (await decide()) === true;
  }

  async approval(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    const key = `${at(question.place)} ${question.call}`;
    const recorded = this.store.answers.get(key);
    if (recorded) {
      this.log.push(`approval ${key} ${question.tool} replayed`);
      return question.replay(recorded);
    }
    this.store.requests.add(key);
    this.log.push(`approval ${key} ${question.tool} asked`);
    // an answer may come from outside the process (see send) or from the run handle
    this.#inbox.set(key, (decision) => question.answer(decision));
    const asked = question.ask();
    const watcher = this.#watchers.shift();
    if (watcher) watcher(key);
    else this.#waiting.push(key);
    const answer = await asked.finally(() => this.#inbox.delete(key));
    this.store.answers.set(key, answer);
    return answer;
  }

  publish(event: RunLogEvent): void {
    this.published.push(event);
  }

  async finish(status: DurableRunStatus): Promise<void> {
    this.log.push(`finish ${status}`);
  }

  /** Resolves with the call of the next approval request that waits for an answer. */
  waiting(): Promise<string> {
    const call = this.#waiting.shift();
    return call !== undefined
      ? Promise.resolve(call)
      : new Promise((resolve) => this.#watchers.push(resolve));
  }

  /** Delivers an answer from outside the run (another process, a queue) to the waiting request `call`. */
  send(call: string, decision: ApprovalDecision): void {
    const deliver = this.#inbox.get(call);
    if (!deliver) throw new Error(`no approval request waits at ${call}`);
    deliver(decision);
  }
}

/** A factory that makes each run's engine over `store`; `made(n)` resolves with the n-th engine it makes. */
function recordingEngines(
  store: Store,
): DurableEngineFactory & { made(n: number): Promise<RecordingEngine> } {
  const engines: RecordingEngine[] = [];
  const watchers = new Map<number, (engine: RecordingEngine) => void>();
  const factory = async ({ runId }: { runId: string }) => {
    const engine = new RecordingEngine(runId, store);
    engines.push(engine);
    watchers.get(engines.length - 1)?.(engine);
    return engine;
  };
  const made = (n: number) =>
    engines[n]
      ? Promise.resolve(engines[n])
      : new Promise<RecordingEngine>((resolve) => watchers.set(n, resolve));
  return Object.assign(factory, { made });
}

/**
 * A model answering by step path and turn (the assistant messages since the last user
 * message, plus one), keeping no state between calls: a new copy answers a resumed run as
 * the first would have. `calls` lists `step#turn` of each call it answered.
 */
function turnModel(steps: Record<string, ScriptTurn[]>): LanguageModelV4 & { calls: string[] } {
  const calls: string[] = [];
  const answer = (options: LanguageModelV4CallOptions) => {
    const step = (options.providerOptions?.june as { step?: string } | undefined)?.step ?? '';
    const lastUser = options.prompt.map((message) => message.role).lastIndexOf('user');
    const turn =
      options.prompt.slice(lastUser + 1).filter((message) => message.role === 'assistant').length +
      1;
    calls.push(`${step}#${turn}`);
    const scripted = steps[step]?.[turn - 1];
    if (!scripted) throw new Error(`turnModel: no turn ${turn} for step "${step}"`);
    return scriptedModel({ $comment: 'one turn', steps: { [step]: [scripted] } }, { name: 't' });
  };
  return {
    specificationVersion: 'v4',
    provider: 'test',
    modelId: 'turns',
    supportedUrls: {},
    calls,
    doGenerate: (options) => answer(options).doGenerate(options),
    doStream: (options) => answer(options).doStream(options),
  };
}

const turns: Record<string, ScriptTurn[]> = {
  plan: [
    { toolCalls: [{ id: 'c1', tool: 'lookup', input: { version: '1.2' } }] },
    { toolCalls: [{ id: 'c2', tool: 'ship', input: { env: 'prod' } }] },
    { toolCalls: [{ id: 'c3', tool: 'deploy', input: { env: 'prod' } }] },
    { text: 'Released 1.2.' },
  ],
  'ship:go': [
    { toolCalls: [{ id: 'c4', tool: 'check', input: { env: 'prod' } }] },
    { text: 'Shipped to prod.' },
  ],
};

function releaseTools() {
  const ran: string[] = [];
  const counted = (name: string, needsApproval = false) =>
    tool({
      inputSchema: z.object({ version: z.string().optional(), env: z.string().optional() }),
      needsApproval,
      execute: async (input) => {
        ran.push(name);
        return `${name} ${input.version ?? input.env} ok`;
      },
    });
  return {
    ran,
    lookup: counted('lookup'),
    check: counted('check'),
    deploy: counted('deploy', true),
  };
}

/** plan calls lookup, then the composite tool ship (whose step go calls check), then deploy (needs approval). */
function Release({
  model,
  tools,
}: {
  model: LanguageModelV4;
  tools: ReturnType<typeof releaseTools>;
}) {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={tools.lookup} />
      <Tool name="deploy" value={tools.deploy} />
      <Tool name="ship" description="Ship" input={z.object({ env: z.string() })}>
        {({ env }) => (
          <Agent model={model}>
            <Tool name="check" value={tools.check} />
            <Step id="go" prompt={`Ship to ${env}`} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt="Release 1.2" />
    </Agent>
  );
}

const firstRun = [
  'model plan #0 made',
  'tool plan plan#0.0 lookup ran',
  'model plan #1 made',
  'tool plan plan#1.0 ship ran',
  'model plan#1.0/ship:go #0 made',
  'tool plan#1.0/ship:go go#0.0 check ran',
  'model plan#1.0/ship:go #1 made',
  'model plan #2 made',
  'approval plan plan#2.0 deploy asked',
];

function deployNode(trace: TraceNode): TraceNode | undefined {
  if (trace.kind === 'tool' && trace.name === 'deploy') return trace;
  for (const child of trace.children) {
    const found = deployNode(child);
    if (found) return found;
  }
  return undefined;
}

/** The run's whole log (what an engine is published), as a follower in this process reads it. */
async function events(handle: RunHandle): Promise<RunLogEvent[]> {
  const seen: RunLogEvent[] = [];
  for await (const event of handle.log) seen.push(event);
  return seen;
}

describe('an in-memory engine that records every durable call', () => {
  it('drives a whole run: model and tool calls, a composite child run, an approval answered from outside', async () => {
    const engines = recordingEngines(newStore());
    const tools = releaseTools();
    const handle = runWorkflow(<Release model={turnModel(turns)} tools={tools} />, {
      engine: engines,
    });
    const seen = events(handle);
    const engine = await engines.made(0);
    const call = await engine.waiting();
    expect(handle.pendingApprovals.map((request) => request.tool)).toEqual(['deploy']);
    engine.send(call, { approved: true });

    const result = await handle.result;
    expect(result.output).toBe('Released 1.2.');
    expect(engine.log).toEqual([
      ...firstRun,
      'tool plan plan#2.0 deploy ran',
      'model plan #3 made',
      'finish succeeded',
    ]);
    expect(tools.ran).toEqual(['lookup', 'check', 'deploy']);
    // answered as a person would answer: approved, not automatic
    expect(deployNode(result.trace.root)?.approval).toMatchObject({ status: 'approved' });
    expect(deployNode(result.trace.root)?.approval?.automatic).toBeUndefined();
    // the engine was handed every event, in order
    expect(engine.published).toEqual(await seen);
  });

  it('resumes a run from its records: nothing that finished runs again, the pending approval is asked again', async () => {
    const store = newStore();
    const engines = recordingEngines(store);
    const tools = releaseTools();
    const first = runWorkflow(<Release model={turnModel(turns)} tools={tools} />, {
      engine: engines,
    });
    await (await engines.made(0)).waiting();
    first.abort('the process stops');
    await expect(first.result).rejects.toMatchObject({ code: 'run-aborted' });
    expect((await engines.made(0)).log).toEqual([...firstRun, 'finish aborted']);

    const model = turnModel(turns);
    const second = runWorkflow(<Release model={model} tools={tools} />, {
      engine: engines,
      runId: first.runId,
    });
    const engine = await engines.made(1);
    expect(engine.runId).toBe(first.runId);
    engine.send(await engine.waiting(), { approved: true });
    const result = await second.result;

    expect(result.output).toBe('Released 1.2.');
    expect(engine.log).toEqual([
      'model plan #0 replayed',
      'tool plan plan#0.0 lookup replayed',
      'model plan #1 replayed',
      // a finished composite call is one recorded tool call: its child run does not run again
      'tool plan plan#1.0 ship replayed',
      'model plan #2 replayed',
      'approval plan plan#2.0 deploy asked',
      'tool plan plan#2.0 deploy ran',
      'model plan #3 made',
      'finish succeeded',
    ]);
    expect(model.calls).toEqual(['plan#4']);
    expect(tools.ran).toEqual(['lookup', 'check', 'deploy']);
    // the recorded child run's usage still counts: the same total as a run that never stopped
    const whole = runWorkflow(<Release model={turnModel(turns)} tools={releaseTools()} />, {
      onApproval: () => true,
    });
    expect(result.usage).toEqual((await whole.result).usage);
  });

  it('a recorded approval answer is given again, as automatic and replayed', async () => {
    const store = newStore();
    const engines = recordingEngines(store);
    const tools = releaseTools();
    const first = runWorkflow(<Release model={turnModel(turns)} tools={tools} />, {
      engine: engines,
      onApproval: () => ({ approved: false, reason: 'not today' }),
    });
    expect((await first.result).output).toBe('Released 1.2.');
    const again = await runWorkflow(<Release model={turnModel(turns)} tools={tools} />, {
      engine: engines,
      runId: first.runId,
    }).result;
    expect((await engines.made(1)).log).toContain('approval plan plan#2.0 deploy replayed');
    expect(deployNode(again.trace.root)?.approval).toMatchObject({
      status: 'denied',
      reason: 'not today',
      automatic: true,
      replayed: true,
    });
    expect(tools.ran).toEqual(['lookup', 'check']);
  });
});

describe('a failed model call, through an engine that stores what work resolves with', () => {
  it('is recorded like an answer: a resumed <Catch> fails it again and retries from the next record', async () => {
    const store = newStore();
    const engines = recordingEngines(store);
    const ran: string[] = [];
    const deploy = tool({
      description: 'Deploy to an environment',
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: async ({ env }) => (ran.push(env), `deployed to ${env}`),
    });
    const flow = (model: LanguageModelV4) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Catch retries={1}>
          <Step id="plan" prompt="Plan the release" />
        </Catch>
        <Step id="ship" prompt="Ship it" />
      </Agent>
    );
    const all = (node: TraceNode): TraceNode[] => [node, ...node.children.flatMap(all)];
    const catchNodes = (root: TraceNode) =>
      all(root)
        .filter((node) => node.kind === 'catch')
        .map((node) => `${node.name} ${node.status} ${node.error?.code ?? ''}`.trim());
    const first = runWorkflow(
      flow(
        scriptedModel({
          steps: {
            plan: [{ error: 'the provider is overloaded' }, { text: 'the plan' }],
            ship: [{ toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] }],
          },
        }),
      ),
      { engine: engines },
    );
    await (await engines.made(0)).waiting();
    const before = catchNodes(first.trace().root);
    first.abort('the process stops');
    await expect(first.result).rejects.toMatchObject({ code: 'run-aborted' });
    expect(before).toEqual(['attempt 1 failed scripted-model-error', 'attempt 2 succeeded']);

    const model = scriptedModel({ steps: { ship: [{ text: 'shipped' }] } });
    const second = runWorkflow(flow(model), { engine: engines, runId: first.runId });
    const engine = await engines.made(1);
    engine.send(await engine.waiting(), { approved: true });
    const result = await second.result;

    expect(engine.log.filter((line) => line.startsWith('model'))).toEqual([
      'model plan #0 replayed',
      'model plan #1 replayed',
      'model ship #0 replayed',
      'model ship #1 made',
    ]);
    expect(model.calls.map((call) => call.step)).toEqual(['ship']);
    expect(catchNodes(result.trace.root)).toEqual(before);
    expect(ran).toEqual(['prod']);
  });
});

describe('the interpreter', () => {
  it('imports nothing from the journal: its whole module graph stays outside src/journal', () => {
    const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const target = resolve(dirname(file), spec!.replace(/\.js$/, ''));
        for (const ext of ['.ts', '.tsx', '/index.ts']) {
          try {
            readFileSync(target + ext);
            visit(target + ext);
            break;
          } catch {
            continue;
          }
        }
      }
    };
    visit(join(src, 'interpreter/index.ts'));
    const modules = [...seen].map((file) => relative(src, file));
    expect(modules).toContain('engine/durable-engine.ts');
    expect(modules.filter((file) => file.startsWith('journal/'))).toEqual([]);
  });
});
