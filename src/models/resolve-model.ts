import type { LanguageModelV4 } from '@ai-sdk/provider';
import { gateway, wrapLanguageModel, type LanguageModel } from 'ai';
import { WorkflowError } from '../errors/june-error.js';

/**
 * The provider specifications June runs models of: `v4` (the AI SDK 7 providers,
 * `@ai-sdk/*@4`), and the older `v3` (AI SDK 6) and `v2` (AI SDK 5), which are lifted to
 * `v4` the way the AI SDK lifts them.
 */
export const MODEL_SPECS = ['v4', 'v3', 'v2'] as const;

/** One of {@link MODEL_SPECS}. */
export type ModelSpec = (typeof MODEL_SPECS)[number];

/**
 * The one door through which a model enters June: `model` as a `LanguageModelV4`, whatever
 * specification it implements.
 *
 * - A model id string is resolved as the AI SDK resolves it: the global default provider
 *   (`globalThis.AI_SDK_DEFAULT_PROVIDER`), else the Vercel AI Gateway.
 * - A `v4` model is returned as it is; a `v3` or `v2` model is lifted to `v4` as the AI SDK's
 *   own `resolveLanguageModel` lifts it (a `v2` model with the AI SDK's compatibility
 *   warning): its prompts are turned back into its own specification on the way in, and its
 *   files into the `v4` form on the way out.
 *
 * @param model - an AI SDK `LanguageModel`: a model object or a model id string.
 * @param shown - how messages name the model, e.g. `the model of <Agent name="writer">`.
 * @throws {WorkflowError} `model-spec-unsupported` when the model implements another
 *   specification (named in the message, with what to install instead).
 * @throws {WorkflowError} `model-invalid` when `model` is not a model at all (no
 *   `specificationVersion`, `doGenerate` and `doStream`).
 * @example
 * ```ts
 * const model = resolveModel(openai('gpt-5-mini'), 'the model of <Agent name="writer">'); // a LanguageModelV4
 * ```
 */
export function resolveModel(model: LanguageModel, shown = 'the model'): LanguageModelV4 {
  const given: unknown =
    typeof model === 'string'
      ? (globalThis.AI_SDK_DEFAULT_PROVIDER ?? gateway).languageModel(model)
      : model;
  const spec = specOf(given, shown);
  if (spec === 'v4') return given as LanguageModelV4;
  // an empty middleware list: the AI SDK's own lift of a v2 or v3 model, and nothing else
  return wrapLanguageModel({
    model: given as Parameters<typeof wrapLanguageModel>[0]['model'],
    middleware: [],
  });
}

/**
 * Checks that June can run `model` without building anything: a model object of a
 * specification it runs ({@link MODEL_SPECS}), or a model id string (resolved when called).
 * For checking a workflow before its first model call.
 *
 * @param shown - how messages name where the model came from.
 * @throws {WorkflowError} `model-spec-unsupported` or `model-invalid`, as {@link resolveModel}.
 * @example
 * ```ts
 * checkModel(props.model, 'the model of <Agent name="writer"> at flow.tsx:4:3');
 * ```
 */
export function checkModel(model: LanguageModel, shown = 'the model'): void {
  if (typeof model !== 'string') specOf(model, shown);
}

/** The specification `model` implements, checked. */
function specOf(model: unknown, shown: string): ModelSpec {
  const candidate = model as Partial<
    Record<'specificationVersion' | 'doGenerate' | 'doStream', unknown>
  > | null;
  const isObject = typeof candidate === 'object' && candidate !== null;
  const spec = isObject ? candidate.specificationVersion : undefined;
  if (isObject && typeof spec === 'string' && !(MODEL_SPECS as readonly string[]).includes(spec)) {
    const names = modelNames(candidate as Record<string, unknown>);
    throw new WorkflowError(
      'model-spec-unsupported',
      `june: ${shown} (${names}) implements the provider specification "${spec}"; this June runs models of the specifications ${MODEL_SPECS.join(', ')} (AI SDK 7, 6 and 5). Install a provider package made for AI SDK 7 (e.g. npm install @ai-sdk/openai@4), or a June release that supports "${spec}".`,
    );
  }
  if (
    !isObject ||
    typeof spec !== 'string' ||
    typeof candidate.doGenerate !== 'function' ||
    typeof candidate.doStream !== 'function'
  ) {
    throw new WorkflowError(
      'model-invalid',
      `june: ${shown} is ${describe(model)}, not a language model: a model has specificationVersion, doGenerate and doStream. Pass a provider's model (e.g. openai('gpt-5-mini') from june/sdk/openai) or a model id string.`,
    );
  }
  return spec as ModelSpec;
}

function modelNames(model: Record<string, unknown>): string {
  const provider = typeof model.provider === 'string' ? model.provider : 'unknown provider';
  const id = typeof model.modelId === 'string' ? model.modelId : 'unknown model';
  return `the model "${id}" of "${provider}"`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object')
    return `${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}`;
  const spec = (value as { specificationVersion?: unknown }).specificationVersion;
  return spec === undefined
    ? 'an object without a specificationVersion'
    : `an object of specificationVersion ${JSON.stringify(spec)} without doGenerate and doStream`;
}
