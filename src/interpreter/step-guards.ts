import type { GuardCheckKind } from '../components/guard.js';
import { ModelBehaviorError } from '../errors/june-error.js';
import { plainJson } from '../json/json-form.js';
import { decideGuards, describeSubject } from './guard-decide.js';
import type { PolicyEntry } from './guard-entry.js';
import { guardErrorDetails, tripRun } from './guard-trip.js';
import { showDecisions } from './guarded-tools.js';
import type { NodePlace } from './node-place.js';
import type { EventInput } from './event-input.js';
import type { AgentFrame, RunFrame } from './run-state.js';
import type { RunServices } from './run-services.js';

/** The step a check concerns (see `evaluate-step.ts`'s `StepCall`). */
export interface CheckedStep {
  run: RunFrame;
  services: RunServices;
  agent: AgentFrame;
  /** The step path. */
  path: string;
  node: NodePlace;
  guards: readonly PolicyEntry[];
}

/** How many output and prompt checks each step path had in this run: a `<Catch>` retry is the next. */
const counts = new WeakMap<RunServices, Map<string, number>>();

/**
 * Asks the guards over a step about its prompt (`user-input`) or its result (`output`), and
 * shows their decisions on the step's node. `allow` returns; `trip` fails the run;
 * `reject`, and `escalate` (a step's output does not wait for approval), fail the step with
 * `guard-rejected`, which a `<Catch>` around it can retry. With `held`, the step's text
 * deltas held back for the check are emitted once it allowed.
 *
 * @throws {ModelBehaviorError} `guard-rejected`, `guard-tripped`.
 */
export async function checkStepGuards(
  step: CheckedStep,
  kind: Exclude<GuardCheckKind, 'tool-input'>,
  value: unknown,
  held?: readonly EventInput[],
): Promise<void> {
  await decideStep(step, kind, value);
  // the step's text, held back until its output was allowed
  for (const event of held ?? []) step.services.log.emit(event);
}

async function decideStep(
  step: CheckedStep,
  kind: Exclude<GuardCheckKind, 'tool-input'>,
  value: unknown,
): Promise<void> {
  if (!step.guards.some((guard) => guard.on.has(kind))) return;
  const { services, run, path } = step;
  let byPath = counts.get(services);
  if (!byPath) counts.set(services, (byPath = new Map()));
  const counted = `${kind}|${run.calls.join('/')}|${path}`;
  const n = byPath.get(counted) ?? 0;
  byPath.set(counted, n + 1);
  const call = `${path.slice(path.lastIndexOf(':') + 1)}~${kind}.${n}`;
  const subject = {
    kind,
    step: path,
    agent: step.agent.path,
    ...(kind === 'output' ? { output: plainJson(value) } : { input: plainJson(value) }),
  };
  const verdict = await decideGuards(step.guards, subject, {
    services,
    run,
    place: { step: path, calls: run.calls },
    call,
    toolCallId: call,
    signal: run.signal,
    stepNode: step.node.nodeId,
  });
  showDecisions({ services, run, step: path }, verdict, step.node);
  if (verdict.action === 'allow') return;
  if (verdict.action === 'trip') throw tripRun(services, verdict, subject);
  const name = verdict.guard
    ? `the guard "${verdict.guard.name}" (${verdict.guard.where})`
    : 'a guard';
  const escalated =
    verdict.action === 'escalate'
      ? ' It escalated, but only a tool call can wait for approval: the step fails instead.'
      : '';
  throw new ModelBehaviorError(
    'guard-rejected',
    `june: ${name} rejected ${describeSubject(subject)}: ${verdict.reason ?? 'no reason given'}.${escalated}`,
    { details: guardErrorDetails(verdict, subject) },
  );
}
