import type {
  LanguageModelV4,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { calcPrice } from '@pydantic/genai-prices';
import {
  Agent,
  callCost,
  JuneError,
  memoryJournalStore,
  modelPrice,
  run,
  subtreeCost,
  type JournalRecord,
  type ModelPrices,
  type TraceNode,
} from 'june';
import { scriptedModel, type ModelScript } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { Plan } from '../fixtures/costs/plan.js';
import { modelNodes } from '../helpers/trace-nodes.js';

/** Usage with every part a provider may report: 10,000 in (4,000 of them cache reads), 2,000 out (500 reasoning). */
const detailedUsage = {
  inputTokens: 10_000,
  inputTokenDetails: { noCacheTokens: 6_000, cacheReadTokens: 4_000, cacheWriteTokens: undefined },
  outputTokens: 2_000,
  outputTokenDetails: { textTokens: 1_500, reasoningTokens: 500 },
  totalTokens: 12_000,
};

describe('the price of a model', () => {
  it("comes from the catalog shipped with June for a known model: the catalog's own numbers", () => {
    const price = modelPrice({ provider: 'openai.responses', modelId: 'gpt-5-mini' });
    const catalog = calcPrice({ input_tokens: 1, output_tokens: 1 }, 'gpt-5-mini', {
      providerId: 'openai',
    })!;
    expect(price).toMatchObject({ source: 'catalog', provider: 'openai', model: 'gpt-5-mini' });
    expect(price!.rates).toEqual(JSON.parse(JSON.stringify(catalog.model_price)));
    // the catalog's own arithmetic: cache reads at their rate, the rest of the input at its own
    const expected = calcPrice(
      { input_tokens: 10_000, cache_read_tokens: 4_000, output_tokens: 2_000 },
      'gpt-5-mini',
      { providerId: 'openai' },
    )!.total_price;
    expect(callCost(detailedUsage, price)).toBeCloseTo(expected, 12);
    expect(callCost(detailedUsage, price)).toBeCloseTo(0.0056, 12);
  });

  it('finds models of other providers and of the gateway by the AI SDK ids', () => {
    expect(
      modelPrice({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' }),
    ).toMatchObject({
      provider: 'anthropic',
    });
    expect(
      modelPrice({
        provider: 'amazon-bedrock',
        modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      }),
    ).toMatchObject({
      provider: 'aws',
    });
    expect(modelPrice({ provider: 'gateway', modelId: 'openai/gpt-5-mini' })).toMatchObject({
      provider: 'openai',
      model: 'gpt-5-mini',
    });
  });

  it('has none for a model nobody priced (a scripted model, a local model): its cost is unknown, not 0', () => {
    expect(modelPrice({ provider: 'june.scripted', modelId: 'release' })).toBeUndefined();
    expect(modelPrice({ provider: 'openai.chat', modelId: 'Qwen/Qwen3-8B' })).toBeUndefined();
    expect(callCost(detailedUsage, undefined)).toBeUndefined();
  });

  it("is the run's own when it gives one, by provider and model or by model id, before the catalog's", () => {
    const prices: ModelPrices = {
      'openai:gpt-5-mini': { inputPerMTok: 1, outputPerMTok: 10 },
      'june:release': {
        inputPerMTok: 2,
        outputPerMTok: 20,
        cacheReadPerMTok: 0.5,
        reasoningPerMTok: 40,
      },
    };
    const own = modelPrice({ provider: 'openai.responses', modelId: 'gpt-5-mini' }, prices);
    expect(own).toEqual({
      source: 'prices',
      model: 'openai:gpt-5-mini',
      rates: { input_mtok: 1, output_mtok: 10 },
    });
    // cache reads and reasoning without a rate of their own cost what the input and output cost
    expect(callCost(detailedUsage, own)).toBeCloseTo(10_000 * 1e-6 + 2_000 * 10e-6, 12);
    const scripted = modelPrice({ provider: 'june.scripted', modelId: 'release' }, prices);
    expect(callCost(detailedUsage, scripted)).toBeCloseTo(
      6_000 * 2e-6 + 4_000 * 0.5e-6 + 1_500 * 20e-6 + 500 * 40e-6,
      12,
    );
    expect(
      modelPrice(
        { provider: 'any', modelId: 'gpt-5-mini' },
        { 'gpt-5-mini': { inputPerMTok: 3, outputPerMTok: 3 } },
      ),
    ).toMatchObject({ rates: { input_mtok: 3 } });
  });

  it('refuses a run whose prices are not numbers of USD', () => {
    const bad = { 'openai:gpt-5-mini': { inputPerMTok: -1, outputPerMTok: 2 } };
    let thrown: unknown;
    try {
      run(<Agent model={scriptedModel({ steps: {} })} />, { prices: bad });
    } catch (error) {
      thrown = error;
    }
    expect(JuneError.isInstance(thrown) && thrown.code).toBe('prices-invalid');
    expect((thrown as Error).message).toMatch(
      /^june: run\(\)'s prices "openai:gpt-5-mini".inputPerMTok/,
    );
  });
});

/** `inner` under another provider and model id, each call reporting 1,000 of its input tokens as cache reads. */
function priced(
  inner: LanguageModelV4,
  provider: string,
  modelId: string,
): LanguageModelV4 & { calls: number } {
  const withCache = (usage: LanguageModelV4Usage): LanguageModelV4Usage => ({
    ...usage,
    inputTokens: {
      ...usage.inputTokens,
      cacheRead: 1_000,
      noCache: (usage.inputTokens.total ?? 0) - 1_000,
    },
  });
  const model = {
    specificationVersion: 'v4' as const,
    provider,
    modelId,
    supportedUrls: {},
    calls: 0,
    async doGenerate(options: Parameters<LanguageModelV4['doGenerate']>[0]) {
      model.calls++;
      const result = await inner.doGenerate(options);
      return { ...result, usage: withCache(result.usage) };
    },
    async doStream(options: Parameters<LanguageModelV4['doStream']>[0]) {
      model.calls++;
      const result = await inner.doStream(options);
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform: (part, out) =>
              out.enqueue(
                part.type === 'finish' ? { ...part, usage: withCache(part.usage) } : part,
              ),
          }),
        ),
      };
    },
  };
  return model;
}

const script: ModelScript = {
  steps: {
    plan: [
      {
        toolCalls: [{ tool: 'research', input: { topic: 'prices' } }],
        usage: { inputTokens: 5_000, outputTokens: 300 },
      },
      { text: 'Planned.', usage: { inputTokens: 6_000, outputTokens: 200 } },
    ],
    'research:dig': [{ text: 'Found it.', usage: { inputTokens: 2_000, outputTokens: 100 } }],
  },
};

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch', stream: false },
])('the cost of a run ($mode)', ({ stream }) => {
  const gpt = () => priced(scriptedModel(script), 'openai.responses', 'gpt-5-mini');
  const rates = modelPrice({ provider: 'openai.responses', modelId: 'gpt-5-mini' })!.rates;
  const catalogCost = (input: number, output: number) =>
    (input - 1_000) * (rates.input_mtok as number) * 1e-6 +
    1_000 * (rates.cache_read_mtok as number) * 1e-6 +
    output * (rates.output_mtok as number) * 1e-6;

  it("prices each model call from the catalog, and the nodes' costs add up to the run's through the child run", async () => {
    const result = await run(<Plan model={gpt()} />, { stream }).result;
    const calls = modelNodes(result.trace.root);
    expect(calls.map((call) => call.costUsd)).toEqual(
      expect.arrayContaining([
        expect.closeTo(catalogCost(5_000, 300), 12),
        expect.closeTo(catalogCost(6_000, 200), 12),
        expect.closeTo(catalogCost(2_000, 100), 12),
      ]),
    );
    expect(calls[0]!.price).toMatchObject({
      source: 'catalog',
      provider: 'openai',
      model: 'gpt-5-mini',
    });
    const total = subtreeCost(result.trace.root);
    expect(total).toEqual({
      usd: expect.closeTo(sum(calls.map((call) => call.costUsd!)), 12),
      tokens: 5_300 + 6_200 + 2_100,
      calls: 3,
      unpriced: 0,
    });
    // level by level: the run is its agent, the agent its step, the step its calls and the child run
    const agent = result.trace.root.children[0]!;
    const step = agent.children[0]!;
    expect(subtreeCost(agent).usd).toBeCloseTo(total.usd!, 12);
    const parts = step.children.map((child) => subtreeCost(child).usd ?? 0);
    expect(sum(parts)).toBeCloseTo(subtreeCost(step).usd!, 12);
    const tool = step.children.find((child) => child.kind === 'tool')!;
    expect(subtreeCost(tool).usd).toBeCloseTo(catalogCost(2_000, 100), 12);
  });

  it('reports the journaled cost on replay after the price table changed', async () => {
    const store = memoryJournalStore();
    const recordedAt: ModelPrices = { 'openai:gpt-5-mini': { inputPerMTok: 1, outputPerMTok: 10 } };
    const handle = run(<Plan model={gpt()} />, { stream, journal: store, prices: recordedAt });
    const first = await handle.result;
    const recording = await store.read(handle.runId);
    const priceOf = (record: JournalRecord) =>
      record.type === 'model-call' ? record.answer.price : undefined;
    expect(recording.filter((record) => record.type === 'model-call').map(priceOf)).toEqual([
      { source: 'prices', model: 'openai:gpt-5-mini', rates: { input_mtok: 1, output_mtok: 10 } },
      { source: 'prices', model: 'openai:gpt-5-mini', rates: { input_mtok: 1, output_mtok: 10 } },
      { source: 'prices', model: 'openai:gpt-5-mini', rates: { input_mtok: 1, output_mtok: 10 } },
    ]);

    // the table changed since: the run's prices, and with none, the catalog's
    const model = gpt();
    const changed: ModelPrices = { 'openai:gpt-5-mini': { inputPerMTok: 100, outputPerMTok: 100 } };
    const replayed = await run(<Plan model={model} />, {
      stream,
      replay: recording,
      prices: changed,
    }).result;
    const plain = await run(<Plan model={gpt()} />, { stream, replay: recording }).result;
    expect(model.calls).toBe(0);
    const costs = (root: TraceNode) => modelNodes(root).map((call) => call.costUsd);
    expect(costs(replayed.trace.root)).toEqual(costs(first.trace.root));
    expect(costs(plain.trace.root)).toEqual(costs(first.trace.root));
    expect(subtreeCost(replayed.trace.root).usd).toBe(subtreeCost(first.trace.root).usd);
    expect(subtreeCost(first.trace.root).usd).toBeCloseTo((13_000 * 1 + 600 * 10) * 1e-6, 12);
    expect(modelNodes(replayed.trace.root).every((call) => call.replayed)).toBe(true);
  });

  it("replays a journal recorded with the catalog's price at that price, not today's", async () => {
    const store = memoryJournalStore();
    const handle = run(<Plan model={gpt()} />, { stream, journal: store });
    await handle.result;
    // the catalog as it stood when the run was recorded: its price was 10 times today's
    const recording = (await store.read(handle.runId)).map((record) =>
      record.type === 'model-call' && record.answer.price
        ? {
            ...record,
            answer: {
              ...record.answer,
              price: { ...record.answer.price, rates: { input_mtok: 2.5, output_mtok: 20 } },
            },
          }
        : record,
    );
    const replayed = await run(<Plan model={gpt()} />, { stream, replay: recording }).result;
    expect(subtreeCost(replayed.trace.root).usd).toBeCloseTo((13_000 * 2.5 + 600 * 20) * 1e-6, 12);
  });

  it('replays a journal recorded before calls were priced, pricing its calls now', async () => {
    const store = memoryJournalStore();
    const handle = run(<Plan model={gpt()} />, { stream, journal: store });
    const first = await handle.result;
    const recording = (await store.read(handle.runId)).map((record) => {
      if (record.type !== 'model-call') return record;
      const { price: _price, ...answer } = record.answer;
      return { ...record, answer };
    });
    const replayed = await run(<Plan model={gpt()} />, { stream, replay: recording }).result;
    expect(subtreeCost(replayed.trace.root).usd).toBeCloseTo(
      subtreeCost(first.trace.root).usd!,
      12,
    );
  });

  it('leaves the cost of a scripted model unknown, not 0, and counts its calls', async () => {
    const result = await run(<Plan model={scriptedModel(script)} />, { stream }).result;
    expect(modelNodes(result.trace.root).map((call) => call.costUsd)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(subtreeCost(result.trace.root)).toEqual({
      usd: undefined,
      tokens: 13_600,
      calls: 3,
      unpriced: 3,
    });
  });
});
