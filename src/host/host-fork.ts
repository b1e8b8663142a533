import { JuneError } from '../errors/june-error.js';
import type { ForkPoint } from '../run/fork-run.js';
import type { ModelCallSettings } from '../models/settings-from.js';
import type { ModelScript } from '../testing/script-format.js';
import { StudioRequestError } from './studio-request-error.js';

/**
 * The one change of a fork made on a host (see `ForkChange`): a tool's `result`, an
 * approval's `answer`, a model's or question's `output`, or another `model` from the fork
 * point on, given by its id (a model object cannot travel to a worker or a `june run`),
 * and/or other call `settings` (`temperature`, `maxOutputTokens`, ...) from it on.
 */
export type HostForkChange =
  | { result: unknown }
  | { answer: 'approve' | 'deny'; reason?: string }
  | { output: unknown }
  | { model: string; settings?: ModelCallSettings; allAgents?: boolean }
  | { settings: ModelCallSettings; model?: string; allAgents?: boolean };

/**
 * A fork to make on a host ({@link RunHost.fork}):
 * - `at`: the record to fork at, its name or number (as `june fork <run>` lists them);
 * - `change`: the one change there;
 * - `props`: the root component's props. @default the recorded run's (refused with
 *   `fork-redacted` when they hold a redacted value);
 * - `script`: a model script answering the fork's model calls (the turns its journal answers
 *   are skipped). @default the recorded run's script, when the host kept one, else the
 *   workflow's own models;
 * - `runId`: the fork's id. @default a new one
 */
export interface HostForkRequest {
  at: string | number;
  change: HostForkChange;
  props?: Record<string, unknown>;
  script?: ModelScript;
  runId?: string;
}

/** What a fork would do ({@link RunHost.forkPlan}), nothing made. */
export interface HostForkPlan {
  /** The record it forks at, by name, and that record in a few words. */
  record: string;
  what: string;
  /** How many recorded model calls, tool executions and approvals replay. */
  replayed: number;
  /** What runs live after the fork point, in words. */
  live: string;
  /** The recorded run's workflow, as the host names it (a file of the runs folder's project, a worker's workflow, a memory host's name). */
  workflow?: string;
}

/** A fork a host made and started ({@link RunHost.fork}). */
export interface HostFork extends HostForkPlan {
  /** The fork's run id: an ordinary run of the host. */
  runId: string;
}

/** A fork's plan as a host gives it. */
export function hostForkPlan(made: {
  point: ForkPoint;
  workflow?: string;
  replayed: number;
  live: string;
}): HostForkPlan {
  return {
    record: made.point.name,
    what: made.point.what,
    replayed: made.replayed,
    live: made.live,
    ...(made.workflow !== undefined ? { workflow: made.workflow } : {}),
  };
}

/**
 * Runs `work` (making or planning a fork), with a fork's refusals as every host answers them.
 * @throws {StudioRequestError} `studio-run-missing` (404: the host has no records of the run),
 *   `studio-fork-record-unknown` (404), `studio-fork-invalid` (400: a change that does not fit
 *   the record, props recorded redacted), `studio-run-exists` (409: a fork `runId` it has).
 */
export async function forkRefused<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!JuneError.isInstance(error)) throw error;
    if (error.code === 'journal-missing' || error.code === 'dbos-run-unknown')
      throw new StudioRequestError('studio-run-missing', error.message, 404);
    if (error.code === 'fork-record-unknown')
      throw new StudioRequestError('studio-fork-record-unknown', error.message, 404);
    if (error.code === 'fork-change-invalid' || error.code === 'fork-redacted')
      throw new StudioRequestError('studio-fork-invalid', error.message, 400, error.code);
    if (error.code === 'journal-exists' || error.code === 'dbos-run-exists')
      throw new StudioRequestError('studio-run-exists', error.message, 409);
    throw error;
  }
}
