// A second implementation of the durable engine, in memory, that records every durable call
// (./recording-engine.ts): it drives whole runs (tool calls, a composite child run, an
// approval answered from outside the run, a resume) with nothing of June's journal, so the
// interpreter needs the engine interface and nothing else; and it passes the engine contract.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Catch, Step, Tool } from '../../src/components/index.js';
import type { RunLogEvent } from '../../src/events/run-event.js';
import { runWorkflow, type RunHandle } from '../../src/interpreter/index.js';
import { scriptedModel } from '../../src/testing/scripted-model.js';
import type { ScriptTurn } from '../../src/testing/script-format.js';
import type { TraceNode } from '../../src/trace/trace-node.js';
import { engineContract } from './engine-contract.js';
import { inProcessRig } from './in-process-rig.js';
import { newStore, recordingEngines } from './recording-engine.js';

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

engineContract(
  'the in-memory recording engine',
  inProcessRig(() => {
    const engines = recordingEngines(newStore());
    return { first: engines, resumed: engines };
  }),
);
