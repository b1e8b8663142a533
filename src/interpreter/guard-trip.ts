import type { GuardSubject } from '../components/guard.js';
import { JuneError, ModelBehaviorError } from '../errors/june-error.js';
import { describeSubject, type GuardVerdict } from './guard-decide.js';
import type { RunServices } from './run-services.js';
import type { GuardErrorDetails } from '../errors/june-error-details.js';

/**
 * Fails the whole run for a guard that tripped: the run is aborted with a `guard-tripped`
 * error naming the guard, its declaration and its reason, which the run's result rejects
 * with (a `<Catch>` does not catch it, nor does a composite tool turn it into a tool error).
 * Returns the error, to throw where the decision was made.
 */
export function tripRun(
  services: RunServices,
  verdict: GuardVerdict,
  subject: Pick<GuardSubject, 'kind' | 'tool' | 'step'>,
): JuneError {
  const guard = verdict.guard;
  const name = guard ? `the guard "${guard.name}" (${guard.where})` : 'a guard';
  const error = new ModelBehaviorError(
    'guard-tripped',
    `june: ${name} tripped on ${describeSubject(subject)}: ${verdict.reason ?? 'no reason given'}. The run stops here.`,
    { details: guardErrorDetails(verdict, subject) },
  );
  services.abort.abort(error);
  return error;
}

/** The facts of a guard's `guard-tripped` or `guard-rejected`, as the error's details hold them. */
export function guardErrorDetails(
  verdict: GuardVerdict,
  subject: Pick<GuardSubject, 'kind' | 'tool' | 'step'>,
): GuardErrorDetails {
  return {
    guard: verdict.guard?.name ?? 'guard',
    declaration: verdict.guard?.where ?? '<Guard>',
    check: subject.kind,
    step: subject.step,
    ...(subject.tool !== undefined ? { tool: subject.tool } : {}),
    ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
  };
}

/**
 * True for the reason of a run a policy stopped: a guard that tripped (see {@link tripRun}) or
 * a `<Budget>` that was spent (`budget-exceeded`): the run fails with that error.
 */
export function isGuardTrip(reason: unknown): reason is JuneError {
  return (
    JuneError.isInstance(reason) &&
    (reason.code === 'guard-tripped' || reason.code === 'budget-exceeded')
  );
}
