// The model door (src/models/): a model of every provider specification ai@7 runs (v4, v3,
// v2) goes through every path of a run (streaming, batch, a journal, a resume, a replay, a
// composite tool); a model of another specification, or a value that is not a model, fails
// before the first model call, and never runs unjournaled.
import { tool } from 'ai';
import { Agent, JuneError, run, Step, Tool, type RunEvent, memoryJournalStore } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { specModel, toolThenText, type Spec, type TurnOf } from './spec-models.js';

// the AI SDK warns once per process that a v2 model runs in its compatibility mode
let warnings: unknown;
beforeAll(() => {
  warnings = globalThis.AI_SDK_LOG_WARNINGS;
  globalThis.AI_SDK_LOG_WARNINGS = false;
});
afterAll(() => {
  globalThis.AI_SDK_LOG_WARNINGS = warnings as typeof globalThis.AI_SDK_LOG_WARNINGS;
});

const specs: Spec[] = ['v4', 'v3', 'v2'];

function lookupTool(ran: string[]) {
  return tool({
    description: 'Look up a key',
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }) => {
      ran.push(key);
      return `value of ${key}`;
    },
  });
}

function deployTool(ran: string[]) {
  return tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      ran.push(env);
      return `deployed to ${env}`;
    },
  });
}

type Model = ReturnType<typeof specModel>;

function Lookup({ model, ran }: { model: Model; ran: string[] }) {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={lookupTool(ran)} />
      <Step id="ask" prompt="What is the disk?" />
    </Agent>
  );
}

function Deploy({ model, ran }: { model: Model; ran: string[] }) {
  return (
    <Agent model={model}>
      <Tool name="deploy" value={deployTool(ran)} />
      <Step id="ship" prompt="Ship to prod" />
    </Agent>
  );
}

const lookupTurns = toolThenText('lookup', { key: 'disk' }, 'The disk is full.');
const deployTurns = toolThenText('deploy', { env: 'prod' }, 'Shipped.');

/** The text the model read last: the output of the last tool result in its prompt. */
function lastToolOutput(prompt: Array<{ role: string; content: unknown }>): unknown {
  const message = prompt.at(-1) as { role: string; content: Array<{ output?: unknown }> };
  return message.role === 'tool' ? message.content.at(-1)?.output : undefined;
}

describe.each(specs)('a %s model', (spec) => {
  it.each([
    ['streaming', true],
    ['batch', false],
  ])('runs a tool loop (%s): the tool runs and the model reads its result', async (_, stream) => {
    const ran: string[] = [];
    const seen: unknown[] = [];
    const turns: TurnOf = (prompt, step) => {
      seen.push(lastToolOutput(prompt));
      return lookupTurns(prompt, step);
    };
    const model = specModel(spec, turns);
    const result = await run(<Lookup model={model} ran={ran} />, { stream }).result;
    expect(result.output).toBe('The disk is full.');
    expect(ran).toEqual(['disk']);
    expect(seen).toEqual([undefined, { type: 'text', value: 'value of disk' }]);
    expect(model.calls).toEqual(['ask', 'ask']);
    // each model call's usage counts once
    expect(result.usage.totalTokens).toBe(10);
    const modelNodes = result.trace.root.children[0]!.children[0]!.children.filter(
      (node) => node.kind === 'model',
    );
    expect(modelNodes).toHaveLength(2);
  });

  it('is journaled, and its journal replays with no model and no tool run', async () => {
    const store = memoryJournalStore();
    const ran: string[] = [];
    const handle = run(<Lookup model={specModel(spec, lookupTurns)} ran={ran} />, {
      journal: store,
    });
    await handle.result;
    const records = await store.read(handle.runId);
    const answers = records.flatMap((record) =>
      record.type === 'model-call' ? [record.answer] : [],
    );
    // recorded as June's own record, in the specification the model was lifted to
    expect(answers).toEqual([
      expect.objectContaining({ version: 1, spec: 'v4' }),
      expect.objectContaining({ version: 1, spec: 'v4' }),
    ]);

    const replayModel = specModel(spec, lookupTurns);
    const replayed: string[] = [];
    const again = await run(<Lookup model={replayModel} ran={replayed} />, {
      replay: records,
      replayTools: true,
      stream: false,
    }).result;
    expect(again.output).toBe('The disk is full.');
    expect(replayModel.calls).toEqual([]);
    expect(replayed).toEqual([]);
  });

  it('resumes a run that waited for approval: only the call that had not finished is made', async () => {
    const store = memoryJournalStore();
    const ran: string[] = [];
    const first = specModel(spec, deployTurns);
    const handle = run(<Deploy model={first} ran={ran} />, { journal: store });
    for await (const event of handle.events as AsyncIterable<RunEvent>) {
      if (event.type === 'approval-request') break;
    }
    handle.abort('the process stops');
    await handle.result.catch(() => {});
    expect(first.calls).toEqual(['ship']);

    const second = specModel(spec, deployTurns);
    const resumed = await run(<Deploy model={second} ran={ran} />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    }).result;
    expect(resumed.output).toBe('Shipped.');
    expect(second.calls).toEqual(['ship']);
    expect(ran).toEqual(['prod']);
  });

  it('runs as a composite tool’s agent, and calls one', async () => {
    const turns: TurnOf = (prompt, step) =>
      step === 'research:find'
        ? { text: 'Suspense waits for data.' }
        : toolThenText('research', { question: 'Suspense' }, 'Summarized.')(prompt, step);
    const model = specModel(spec, turns);
    const result = await run(
      <Agent model={model}>
        <Tool
          name="research"
          description="Research a question"
          input={z.object({ question: z.string() })}
        >
          {({ question }: { question: string }) => (
            <Agent model={model}>
              <Step id="find" prompt={`Research ${question}`} />
            </Agent>
          )}
        </Tool>
        <Step id="report" prompt="Report on Suspense" />
      </Agent>,
    ).result;
    expect(result.output).toBe('Summarized.');
    expect(model.calls).toEqual(['report', 'research:find', 'report']);
  });
});

describe('a model June cannot run', () => {
  const unknownSpec = {
    specificationVersion: 'v9',
    provider: 'future',
    modelId: 'next',
    supportedUrls: {},
    calls: 0,
    doGenerate: async () => {
      unknownSpec.calls++;
      throw new Error('never called');
    },
    doStream: async () => {
      unknownSpec.calls++;
      throw new Error('never called');
    },
  };

  it.each([
    ['without a journal', {}],
    ['with a journal', { journal: memoryJournalStore() }],
  ])(
    'of an unknown specification fails before its first call (%s), naming the spec and what to install',
    async (_, options) => {
      const error = await run(
        <Agent model={unknownSpec as never} name="writer">
          <Step id="write" prompt="Write" />
        </Agent>,
        options,
      ).result.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(JuneError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'model-spec-unsupported', blame: 'workflow' });
      expect((error as Error).message).toMatch(
        /^june: the model of <Agent name="writer">.* \(the model "next" of "future"\) implements the provider specification "v9"; this June runs models of the specifications v4, v3, v2 .*npm install @ai-sdk\/openai@4/,
      );
      expect(unknownSpec.calls).toBe(0);
    },
  );

  it('that is not a model at all fails with model-invalid before anything runs', async () => {
    const error = await run(
      <Agent model={{ specificationVersion: 'v4', modelId: 'half' } as never}>
        <Step id="write" prompt="Write" />
      </Agent>,
    ).result.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: 'model-invalid', blame: 'workflow' });
    expect((error as Error).message).toContain(
      'is an object of specificationVersion "v4" without doGenerate and doStream, not a language model',
    );
  });
});
