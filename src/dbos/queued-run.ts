import type { RequestPolicy } from '../approvals/request-policy.js';
import { WorkflowError } from '../errors/index.js';
import type { ForkedFrom } from '../run/fork-run.js';
import { checkThreadId } from '../engine/thread-id.js';
import { stableJson } from '../json/stable-json.js';
import { configuredSecrets, registerKnownCredentials } from '../redaction/configured-secrets.js';
import { Redactor, type RedactOptions } from '../redaction/redactor.js';
import type { ModelScript } from '../testing/script-format.js';

/**
 * The redaction a queued run carries to its worker: names and expressions, never a secret
 * value (PostgreSQL keeps it as the workflow's input).
 */
export interface QueuedRedaction {
  /** Environment variables whose values, read where the run runs (the worker), are kept out of its records. */
  env?: string[];
  /** Regular expressions (`RegExp.source` and `.flags`) whose matches are kept out of its records. */
  patterns?: Array<{ source: string; flags: string }>;
}

/** What a queued run carries to the worker that takes it (stored by DBOS as the workflow's input). */
export interface QueuedRun {
  /** The workflow's name: which of a worker's workflows runs (and the queue it waits on). */
  workflow: string;
  /** The root component's props, without the secret ones. */
  props?: Record<string, unknown>;
  /** The names of the secret props: the worker gives their values (its own `secretProps`). */
  secretProps?: string[];
  /** The run's own redaction, on top of the worker's. */
  redact?: QueuedRedaction;
  /** A model script answering every model call (`june run --script`), travelling with the run. */
  script?: ModelScript;
  /** `RunOptions.strict`. */
  strict?: boolean;
  /** How requests are answered with nobody asked (`june run --approve all|none`): by the worker, as `RunOptions.onApproval`. */
  policy?: RequestPolicy;
  /**
   * A fork's lineage (`RunClient.fork`): the run and record it was forked at and the change
   * there; its trace carries it, and a changed model (an id) is resolved by the worker.
   */
  fork?: ForkedFrom;
  /** The thread the run continues (`RunOptions.thread`; its place is a row of `june.threads`). */
  thread?: string;
  /** `RunOptions.threadAgent`: the agent whose conversation the thread continues. */
  threadAgent?: string;
}

/** A run to enqueue (`RunClient.enqueue`). */
export interface RunToEnqueue {
  /** The workflow's name on the workers: `release` for `release.tsx`. */
  workflow: string;
  /** The root component's props; stored in the database, so they must hold no secret. */
  props?: Record<string, unknown>;
  /**
   * The names of secret props: only the names are stored; each worker gives their values
   * from its own `secretProps` (`june worker --secret-props`). A name also in `props` is
   * left out of the stored props.
   */
  secretProps?: readonly string[];
  /**
   * The run's redaction (as `run()`'s `redact` option). `env` names travel with the run and
   * the worker redacts those variables' values in its environment; `patterns` travel as
   * their source. `values` (and the values of `env` here) never leave this process: the
   * props and script are checked not to hold them.
   */
  redact?: RedactOptions & { env?: readonly string[] };
  /** A model script answering every model call, travelling with the run. */
  script?: ModelScript;
  /** `RunOptions.strict`. */
  strict?: boolean;
  /**
   * How requests are answered with nobody asked: `approve` `all` or `none`, by the worker
   * that runs it (recorded as the source `policy`); a guard's escalation, a budget's request
   * and a question are still left to a person unless `escalations`.
   */
  policy?: RequestPolicy;
  /** The run id. @default a new one */
  runId?: string;
  /**
   * The thread the run continues (as `run()`'s `thread`): its thread agent starts from the
   * conversation the thread's last run left, and one run of the thread is queued or runs at a
   * time (`thread-busy`). See docs/threads.md.
   */
  thread?: string;
  /** With `thread`: the `name` of the agent whose conversation the thread continues. */
  threadAgent?: string;
}

/**
 * The input DBOS stores for a run: its props without the secret ones, the secret props'
 * names, and its redaction as names and expressions.
 *
 * @param env - where the `redact.env` variables are read for the check. @default process.env
 * @throws {WorkflowError} `dbos-props-secret` when a stored prop or the script holds a
 *   secret (a `redact` value or match, a value of a `redact.env` variable, a configured
 *   credential): nothing is enqueued.
 */
export function queuedRun(run: RunToEnqueue, env: NodeJS.ProcessEnv = process.env): QueuedRun {
  registerKnownCredentials();
  if (run.thread !== undefined) checkThreadId(run.thread);
  const secretNames = [...new Set(run.secretProps ?? [])];
  const props = run.props
    ? Object.fromEntries(Object.entries(run.props).filter(([name]) => !secretNames.includes(name)))
    : undefined;
  const envNames = [...new Set(run.redact?.env ?? [])];
  const patterns = run.redact?.patterns ?? [];
  const redactor = new Redactor(
    {
      values: [...(run.redact?.values ?? []), ...envNames.map((name) => env[name] ?? '')],
      patterns,
    },
    configuredSecrets,
  );
  checkStored(redactor, props, run.script);
  const redact: QueuedRedaction = {
    ...(envNames.length > 0 ? { env: envNames } : {}),
    ...(patterns.length > 0
      ? { patterns: patterns.map(({ source, flags }) => ({ source, flags })) }
      : {}),
  };
  return {
    workflow: run.workflow,
    ...(props ? { props } : {}),
    ...(secretNames.length > 0 ? { secretProps: secretNames } : {}),
    ...(Object.keys(redact).length > 0 ? { redact } : {}),
    ...(run.script ? { script: run.script } : {}),
    ...(run.strict ? { strict: true } : {}),
    ...(run.policy
      ? {
          policy: {
            approve: run.policy.approve,
            ...(run.policy.escalations ? { escalations: true } : {}),
          },
        }
      : {}),
    ...(run.thread !== undefined ? { thread: run.thread } : {}),
    ...(run.thread !== undefined && run.threadAgent !== undefined
      ? { threadAgent: run.threadAgent }
      : {}),
  };
}

/** Refuses props (or a script) that would store a secret in clear. */
function checkStored(
  redactor: Redactor,
  props: Record<string, unknown> | undefined,
  script: ModelScript | undefined,
): void {
  if (redactor.empty) return;
  const holding = Object.keys(props ?? {}).filter((name) => {
    const value = props![name];
    return stableJson(redactor.value(value)) !== stableJson(value);
  });
  if (holding.length > 0)
    throw new WorkflowError(
      'dbos-props-secret',
      `june: the prop${holding.length > 1 ? 's' : ''} ${holding.map((name) => `"${name}"`).join(', ')} of the run hold${holding.length > 1 ? '' : 's'} a secret (a value or match the run redacts); a run over a database stores its props, so pass a secret as a secret prop (--secret-props, or secretProps), which travels by name and takes its value from the worker's --secret-props, or let the workflow read it from the worker's environment. Nothing was enqueued.`,
    );
  if (script && stableJson(redactor.value(script)) !== stableJson(script))
    throw new WorkflowError(
      'dbos-props-secret',
      "june: the run's model script holds a secret (a value or match the run redacts); a run over a database stores its script, so take the secret out of the script. Nothing was enqueued.",
    );
}
