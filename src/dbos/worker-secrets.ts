import { WorkflowError } from '../errors/index.js';
import type { RedactOptions } from '../redaction/redactor.js';
import type { ModelPrices } from '../models/price.js';
import { secretStrings } from '../redaction/secret-strings.js';
import type { QueuedRun } from './queued-run.js';

/**
 * What a worker gives every run it runs (`startWorker`'s `redact`, `secretProps` and
 * `prices`, `june worker --redact-env/--redact-pattern/--secret-props/--prices`).
 */
export interface WorkerSecrets {
  /** Prices of the worker's own for its runs' model calls, before the bundled catalog's (`run()`'s `prices`). */
  prices?: ModelPrices;
  /** Kept out of every run's records, besides each run's own redaction. */
  redact?: RedactOptions;
  /** The values of secret props, given to the runs that name them (each value is redacted too). */
  secretProps?: Record<string, unknown>;
}

/**
 * A queued run's props and `redact` option at the worker that runs it: its stored props
 * with the secret props it names (values from the worker), and a redaction made of the
 * worker's, the run's patterns and the values its `env` names have in this environment,
 * and every string of the secret props the run is given.
 *
 * @param env - where the run's `redact.env` variables are read. @default process.env
 * @throws {WorkflowError} `dbos-secret-props-missing` when the run names a secret prop the
 *   worker was not given.
 */
export function queuedRunSecrets(
  runId: string,
  input: QueuedRun,
  worker: WorkerSecrets,
  env: NodeJS.ProcessEnv = process.env,
): { props?: Record<string, unknown>; redact?: RedactOptions } {
  const names = input.secretProps ?? [];
  const given = worker.secretProps ?? {};
  const missing = names.filter((name) => !Object.hasOwn(given, name));
  if (missing.length > 0)
    throw new WorkflowError(
      'dbos-secret-props-missing',
      `june: the run ${runId} takes the secret prop${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}, whose values never travel through the database; start the worker with them (june worker ... --secret-props @secrets.json, or startWorker({ secretProps })), then enqueue the run again.`,
    );
  const secretProps = Object.fromEntries(names.map((name) => [name, given[name]]));
  const values = [
    ...(worker.redact?.values ?? []),
    ...secretStrings(secretProps),
    ...(input.redact?.env ?? []).map((name) => env[name] ?? ''),
  ].filter((value) => value !== '');
  const patterns = [
    ...(worker.redact?.patterns ?? []),
    ...(input.redact?.patterns ?? []).map(({ source, flags }) => new RegExp(source, flags)),
  ];
  const props = input.props || names.length > 0 ? { ...input.props, ...secretProps } : undefined;
  return {
    ...(props ? { props } : {}),
    ...(values.length > 0 || patterns.length > 0 ? { redact: { values, patterns } } : {}),
  };
}
