import { ScriptedModel, scriptedModel } from '../testing/scripted-model.js';
import type { ModelScript } from '../testing/script-format.js';

type CallOptions = Parameters<ScriptedModel['doGenerate']>[0];

/** A scripted model that a recovered run can tell which turns the record already answered. */
export interface RecoveringScript extends Pick<
  ScriptedModel,
  'specificationVersion' | 'provider' | 'modelId' | 'supportedUrls' | 'doGenerate' | 'doStream'
> {
  /** A model call at `step` was answered from the record: its turn is used. */
  skip(step: string): void;
}

/**
 * The `--script` model of a run over DBOS: each call takes its step's next turn, counting
 * the calls the recovered run was answered from DBOS for ({@link RecoveringScript.skip}), so
 * a run recovered after a crash asks the script for the turn the crashed process would have.
 * It speaks the scripted model's provider specification.
 */
export function recoveringScript(script: ModelScript): RecoveringScript {
  const used = new Map<string, number>();
  const next = (options: CallOptions) => {
    const step = String(
      (options.providerOptions?.june as { step?: unknown } | undefined)?.step ?? '',
    );
    const n = used.get(step) ?? 0;
    used.set(step, n + 1);
    const rest = script.steps[step]?.slice(n);
    const steps = { ...script.steps };
    if (rest) steps[step] = rest;
    return scriptedModel({ ...script, steps }, { name: 'script' });
  };
  const model = scriptedModel(script, { name: 'script' });
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: 'script',
    supportedUrls: {},
    skip: (step) => used.set(step, (used.get(step) ?? 0) + 1),
    doGenerate: (options) => next(options).doGenerate(options),
    doStream: (options) => next(options).doStream(options),
  };
}
