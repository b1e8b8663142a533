import { createRequire } from 'node:module';
import type * as GenaiPrices from '@pydantic/genai-prices';
import type { LanguageModelUsage } from 'ai';
import { WorkflowError } from '../errors/june-error.js';
import type { ModelIdentity } from './model-identity.js';

/**
 * A rate of a {@link ModelPrice}: USD per million tokens (per thousand for the catalog's
 * `*_kcount` keys), or tiered as the catalog writes it: `base` until the call's input passes
 * a tier's `start` tokens, then that tier's `price`.
 */
export type PriceRate = number | { base: number; tiers: Array<{ start: number; price: number }> };

/**
 * The price one model call was charged at, as its `model-finish` event, its trace node and
 * its journal record keep it (with the call's answer, `ModelAnswer.price`), so a replay
 * reports the cost the call had when it was made, whatever the catalog says since.
 *
 * - `source`: `catalog` (the price catalog shipped with June, `@pydantic/genai-prices`) or
 *   `prices` (the run's `prices` option);
 * - `provider` and `model`: what was matched: the catalog's provider and model ids
 *   (`openai`, `gpt-5-mini`), or the key of the `prices` option (`model` only);
 * - `rates`: by the catalog's price keys: `input_mtok` (input tokens not read from or written
 *   to a cache), `cache_read_mtok`, `cache_write_mtok`, `output_mtok`, `output_reasoning_mtok`,
 *   `requests_kcount` and the catalog's others, each in USD per million tokens (per thousand
 *   requests for `requests_kcount`).
 *
 * @example
 * ```ts
 * const price: ModelPrice = {
 *   source: 'catalog', provider: 'openai', model: 'gpt-5-mini',
 *   rates: { input_mtok: 0.25, cache_read_mtok: 0.025, output_mtok: 2 },
 * };
 * ```
 */
export interface ModelPrice {
  source: 'catalog' | 'prices';
  provider?: string;
  model?: string;
  rates: Record<string, PriceRate>;
}

/**
 * A price of your own for one model, in **USD per million tokens**: the run's `prices`
 * option. Cache reads and writes are parts of the input and reasoning tokens part of the
 * output, as providers report them; each part left out is charged at the rate of the whole
 * (`cacheReadPerMTok` defaults to `inputPerMTok`, `reasoningPerMTok` to `outputPerMTok`).
 *
 * @example
 * ```ts
 * const price: PriceInput = { inputPerMTok: 0.25, cacheReadPerMTok: 0.025, outputPerMTok: 2 };
 * ```
 */
export interface PriceInput {
  /** USD per million input tokens. */
  inputPerMTok: number;
  /** USD per million output tokens. */
  outputPerMTok: number;
  /** USD per million input tokens read from the provider's cache. @default inputPerMTok */
  cacheReadPerMTok?: number;
  /** USD per million input tokens written to the provider's cache. @default inputPerMTok */
  cacheWritePerMTok?: number;
  /** USD per million reasoning tokens (a part of the output). @default outputPerMTok */
  reasoningPerMTok?: number;
}

/**
 * The run's own prices, which take the place of the catalog's: by model, as
 * `"<provider>:<model id>"` (`openai:gpt-5-mini`, where `openai` matches the AI SDK provider
 * ids `openai.responses` and `openai.chat`; `june:release` prices a scripted model whose
 * script is `release.json`) or the model id alone (`gpt-5-mini`, whatever the provider).
 *
 * @example
 * ```ts
 * const prices: ModelPrices = { 'openai:gpt-5-mini': { inputPerMTok: 0.2, outputPerMTok: 1.6 } };
 * ```
 */
export type ModelPrices = Readonly<Record<string, PriceInput>>;

const RATE_KEYS: Record<keyof PriceInput, string> = {
  inputPerMTok: 'input_mtok',
  outputPerMTok: 'output_mtok',
  cacheReadPerMTok: 'cache_read_mtok',
  cacheWritePerMTok: 'cache_write_mtok',
  reasoningPerMTok: 'output_reasoning_mtok',
};

/**
 * Checks the run's `prices` option: an object of {@link PriceInput}s, each with
 * `inputPerMTok` and `outputPerMTok`, every rate a number, 0 or more.
 *
 * @throws {WorkflowError} `prices-invalid`, naming the key and the field.
 */
export function checkPrices(prices: unknown): ModelPrices | undefined {
  if (prices === undefined) return undefined;
  const invalid = (what: string) =>
    new WorkflowError(
      'prices-invalid',
      `june: run()'s prices ${what}; give { "<provider>:<model id>": { inputPerMTok, outputPerMTok, cacheReadPerMTok?, cacheWritePerMTok?, reasoningPerMTok? } }, in USD per million tokens.`,
    );
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices))
    throw invalid('is not an object');
  for (const [key, price] of Object.entries(prices)) {
    if (typeof price !== 'object' || price === null || Array.isArray(price))
      throw invalid(`"${key}" is not an object`);
    for (const field of ['inputPerMTok', 'outputPerMTok'])
      if (!Object.hasOwn(price, field)) throw invalid(`"${key}" has no ${field}`);
    for (const [field, rate] of Object.entries(price)) {
      if (!Object.hasOwn(RATE_KEYS, field)) throw invalid(`"${key}" has an unknown field ${field}`);
      if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0)
        throw invalid(`"${key}".${field} is not a number of USD, 0 or more`);
    }
  }
  return prices as ModelPrices;
}

let loaded: typeof GenaiPrices | undefined;

/**
 * The price catalog's package, loaded the first time a price is looked up or a cost worked
 * out (its data is large: a run of a scripted model, Studio and `june --help` never load it).
 */
function catalog(): typeof GenaiPrices {
  loaded ??= createRequire(import.meta.url)('@pydantic/genai-prices') as typeof GenaiPrices;
  return loaded;
}

/**
 * The AI SDK provider ids (their first segments) whose models the catalog knows under
 * another provider id.
 */
const CATALOG_PROVIDERS: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  'amazon-bedrock': 'aws',
  azure: 'azure',
  'azure-openai': 'azure',
  mistral: 'mistral',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x-ai',
  cohere: 'cohere',
  perplexity: 'perplexity',
  togetherai: 'together',
  fireworks: 'fireworks',
  cerebras: 'cerebras',
  openrouter: 'openrouter',
  moonshotai: 'moonshotai',
};

/**
 * The price of a model's calls: the run's `prices` entry for it when there is one, else the
 * catalog's (`@pydantic/genai-prices`, shipped with June: no network), else `undefined` (a
 * model nobody priced: a scripted model, a local server's; its calls' cost is unknown, not 0).
 * A model given as a string (the AI SDK's gateway, `openai/gpt-5-mini`) is looked up under
 * the provider its id names.
 *
 * @param at - when the call is made: the catalog's prices that changed on a date, or with
 *   the time of day, are taken as they stood then. @default now
 * @example
 * ```ts
 * modelPrice({ provider: 'openai.responses', modelId: 'gpt-5-mini' })?.rates.input_mtok; // 0.25
 * ```
 */
export function modelPrice(
  identity: ModelIdentity,
  prices?: ModelPrices,
  at: Date = new Date(),
): ModelPrice | undefined {
  const { provider, modelId } = identity;
  if (modelId === undefined) return undefined;
  const own = ownPrice(provider, modelId, prices);
  if (own) return own;
  // a model the catalog does not have is not in it at any time: looked up once per process
  const key = `${provider}\u0000${modelId}`;
  if (unpriced.has(key)) return undefined;
  const found = catalogPrice(provider, modelId, at);
  if (!found && unpriced.size < MAX_UNPRICED) unpriced.add(key);
  return found;
}

/** The catalog's price of a model at `at`, if it has one. */
function catalogPrice(
  provider: string | undefined,
  modelId: string,
  at: Date,
): ModelPrice | undefined {
  let catalogProvider = provider === undefined ? undefined : catalogProviderOf(provider);
  let catalogModel = modelId;
  const slash = modelId.indexOf('/');
  if (provider === 'gateway' && slash > 0) {
    catalogProvider = catalogProviderOf(modelId.slice(0, slash)) ?? modelId.slice(0, slash);
    catalogModel = modelId.slice(slash + 1);
  }
  if (catalogProvider === undefined) return undefined;
  let found;
  try {
    found = catalog().calcPrice({}, catalogModel, { providerId: catalogProvider, timestamp: at });
  } catch {
    return undefined;
  }
  if (!found) return undefined;
  return {
    source: 'catalog',
    provider: found.provider.id,
    model: found.model.id,
    rates: JSON.parse(JSON.stringify(found.model_price)) as ModelPrice['rates'],
  };
}

/** The models the catalog has no price for (`<provider>\u0000<model>`), so each is looked up once. */
const unpriced = new Set<string>();
/** The most models {@link unpriced} remembers (a process that names a new model id per call stops growing it). */
const MAX_UNPRICED = 1000;

/** The catalog's provider id for an AI SDK provider id, or the id itself for the catalog to match. */
function catalogProviderOf(provider: string): string | undefined {
  for (const [prefix, id] of Object.entries(CATALOG_PROVIDERS))
    if (provider === prefix || provider.startsWith(`${prefix}.`)) return id;
  return provider.startsWith('june.') || provider === 'june' ? undefined : provider;
}

/** The run's own price of a model: `<provider>:<model id>` (any leading part of the provider id), else the model id alone. */
function ownPrice(
  provider: string | undefined,
  modelId: string,
  prices: ModelPrices | undefined,
): ModelPrice | undefined {
  if (!prices) return undefined;
  const keys: string[] = [];
  if (provider !== undefined) {
    const parts = provider.split('.');
    for (let n = parts.length; n > 0; n--) keys.push(`${parts.slice(0, n).join('.')}:${modelId}`);
  }
  keys.push(modelId);
  for (const key of keys) {
    if (!Object.hasOwn(prices, key)) continue;
    const rates: Record<string, number> = {};
    for (const [field, rate] of Object.entries(prices[key]!))
      rates[RATE_KEYS[field as keyof PriceInput]] = rate as number;
    return { source: 'prices', model: key, rates };
  }
  return undefined;
}

/**
 * What one model call cost, in USD: its usage at its price, by the catalog's own arithmetic
 * (cache reads and writes and reasoning tokens at their rates where the price has them, the
 * rest of the input and output at theirs; tiers by the call's input). `undefined` when the
 * call has no price or reported no tokens.
 *
 * @example
 * ```ts
 * callCost({ inputTokens: 10_000, inputTokenDetails: { cacheReadTokens: 4_000 }, outputTokens: 2_000 }, price); // 0.0056 for gpt-5-mini
 * ```
 */
export function callCost(
  usage: Partial<LanguageModelUsage> | undefined,
  price: ModelPrice | undefined,
): number | undefined {
  if (!price || !usage) return undefined;
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const counted: Record<string, number> = {
    input_tokens: inputTokens ?? 0,
    output_tokens: outputTokens ?? 0,
  };
  const parts = {
    cache_read_tokens: usage.inputTokenDetails?.cacheReadTokens,
    cache_write_tokens: usage.inputTokenDetails?.cacheWriteTokens,
    output_reasoning_tokens: usage.outputTokenDetails?.reasoningTokens,
  };
  for (const [key, value] of Object.entries(parts))
    if (typeof value === 'number' && value > 0) counted[key] = value;
  const provider: GenaiPrices.Provider = {
    id: 'june',
    name: 'June',
    api_pattern: '(?!)',
    models: [{ id: 'priced', match: { starts_with: '' }, prices: price.rates }],
  };
  try {
    return catalog().calcPrice(counted, 'priced', { provider })?.total_price;
  } catch {
    // counts that contradict each other (more cache reads than input): no cost rather than a wrong one
    return undefined;
  }
}
