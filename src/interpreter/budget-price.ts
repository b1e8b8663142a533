import type { LanguageModel } from 'ai';
import { WorkflowError } from '../errors/june-error.js';
import { modelIdentity } from '../models/model-identity.js';
import { modelPrice, type ModelPrices } from '../models/price.js';
import { budgetsIn, guardsIn, type PolicyEntry } from './guard-entry.js';

/** What a pass knows of the run's models and prices (`RunSettings`' part). */
export interface PriceSettings {
  /** The model every step uses instead of its own, when the run has one. */
  model?: LanguageModel | undefined;
  prices?: ModelPrices | undefined;
}

/**
 * Refuses an agent under a `<Budget usd>` whose calls could not be counted in USD: its model
 * (the run's own, when it has one) and the judges of the guards over it need a price, from
 * the run's `prices` or the catalog. Checked before the run's first model call (and before a
 * child run's).
 *
 * @throws {WorkflowError} `budget-price-unknown` naming the budget and the model.
 */
export function checkBudgetPrices(
  model: LanguageModel,
  where: string,
  policies: readonly PolicyEntry[],
  settings: PriceSettings,
): void {
  const budget = budgetsIn(policies).find((entry) => entry.size.usd !== undefined);
  if (!budget) return;
  const models = [{ model: settings.model ?? model, what: `the model of ${where}` }];
  for (const guard of guardsIn(policies))
    if (guard.props.judge)
      models.push({
        model: settings.model ?? guard.props.judge.model,
        what: `the judge of ${guard.where}`,
      });
  for (const { model: priced, what } of models) {
    const identity = modelIdentity(priced);
    if (modelPrice(identity, settings.prices)) continue;
    const key = `${identity.provider?.split('.')[0] ?? 'provider'}:${identity.modelId ?? 'model'}`;
    throw new WorkflowError(
      'budget-price-unknown',
      `june: ${budget.where} caps what the model calls beneath it cost in USD, but ${what} (${key}) has no known price, so its calls could not be counted. Give its price in the run's prices option (june run --prices prices.json), e.g. { "${key}": { "inputPerMTok": 0.25, "outputPerMTok": 2 } }, or cap it in tokens instead.`,
    );
  }
}
