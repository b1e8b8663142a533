import { generateText, Output, type LanguageModelUsage } from 'ai';
import { z } from 'zod';
import type { GuardDecision, GuardSubject } from '../components/guard.js';
import { plainJson } from '../json/json-form.js';
import { modelIdentity } from '../models/model-identity.js';
import { callCost, modelPrice } from '../models/price.js';
import { plainUsage } from '../models/usage.js';
import type { GuardEntry } from './guard-entry.js';
import type { GuardAt } from './guard-at.js';
import { budgetedModel } from './budget-gate.js';

/** What a judge answers. */
const judgeAnswer = z.object({
  action: z.enum(['allow', 'reject', 'trip', 'escalate']),
  reason: z.string().optional(),
});

/**
 * Asks a guard's judge model about `subject` (the run's `model` instead, when the run has
 * one, as for every step): its instructions as the system prompt, the subject as JSON, and a
 * structured answer ({@link judgeAnswer}), asked under the step `<step>@<guard>`, priced as a
 * step's calls are (`costUsd`, when its model has a price). Its calls are the guard's:
 * with a durable engine, each is recorded under the guard's place (the step path followed by
 * `@<guard>`, under the decision's call), so a replay answers them without the model.
 *
 * @example
 * ```ts
 * const { decision, usage } = await judgeDecision(guard, { kind: 'tool-input', tool: 'deploy', input, step, agent }, at);
 * ```
 */
export async function judgeDecision(
  guard: GuardEntry,
  subject: GuardSubject,
  at: GuardAt,
): Promise<{ decision: GuardDecision; usage: LanguageModelUsage; costUsd?: number }> {
  const { instructions } = guard.props.judge!;
  // the run's model answers every model call when it has one (a script, a replay's stand-in)
  const model = at.services.settings.model ?? guard.props.judge!.model;
  const durable = at.services.engine.durable;
  const place = {
    step: `${at.place.step}@${guard.name}`,
    calls: [...(at.place.calls ?? []), at.call],
  };
  // priced as a step's calls are: the journal records the price with each answer
  const price = modelPrice(modelIdentity(model), at.services.settings.prices);
  // the budgets over the step check each judge call before it starts; its usage counts from
  // the decision's record (see decideGuards), which a replay gives without calling the judge
  const capped = budgetedModel(durable ? durable.model(model, place, price) : model, {
    services: at.services,
    run: at.run,
    budgets: at.budgets ?? [],
    place,
    step: at.place.step,
    stepNode: at.stepNode ?? at.run.nodeId,
    price,
    count: false,
  });
  const result = await generateText({
    model: capped,
    system: instructions,
    prompt:
      'Decide about what follows: "allow", "reject" (it does not run; say why), "trip" (stop the whole run) or "escalate" (a person decides). Answer with your action and a short reason.\n\n' +
      JSON.stringify(plainJson(subject)),
    output: Output.object({ schema: judgeAnswer }),
    abortSignal: at.signal,
    providerOptions: { june: { step: place.step } },
  });
  const answer = result.output;
  const usage = plainUsage(result.usage);
  const costUsd = callCost(usage, price);
  return {
    decision: { action: answer.action, ...(answer.reason ? { reason: answer.reason } : {}) },
    usage,
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}
