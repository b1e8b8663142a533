import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RequestPolicy } from '../approvals/request-policy.js';
import { checkThreadId } from '../engine/thread-id.js';
import { WorkflowError } from '../errors/index.js';
import { openRunHost } from '../host/open-run-host.js';
import type { RunFlagValues } from '../host/run-flags.js';
import type { RunHost } from '../host/run-host.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { Redactor } from '../redaction/redactor.js';
import { loadScript } from '../testing/load-script.js';
import { TraceFileWriter, type Trace } from '../trace/index.js';
import type { ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import { cliRedaction, type RedactionFlags } from './cli-redaction.js';
import { loadWorkflow, type LoadedWorkflow } from './load-workflow.js';
import { parseProps } from './parse-props.js';
import { quietDriver } from './quiet-driver.js';
import { checkedProps } from './run-inputs.js';
import type { RunSession } from './run-session.js';
import { queuedStopSignals } from './stop-signals.js';
import { terminalStyle } from './terminal-style.js';
import { workflowNameOf } from './worker-command.js';

/**
 * The flags of `june run <file> --database <url>` (each written in `june run`'s flag table,
 * src/host/run-flags.ts); with `--follow`, `approve` says who answers approvals (`all`,
 * `none`, `ask` at the terminal, `wait` for `june approve`).
 */
export type DatabaseRunOptions = Pick<
  RunFlagValues,
  | 'props'
  | 'script'
  | 'strict'
  | 'follow'
  | 'approve'
  | 'approveEscalations'
  | 'json'
  | 'thread'
  | 'trace'
  | 'resume'
  | 'waitForOwner'
  | 'replay'
  | 'replayTools'
  | 'prices'
  | 'otel'
  | 'otelRecordInputs'
  | 'otelRecordOutputs'
  | keyof RedactionFlags
> & { database: string };

/**
 * `june run <file> --database <url>`: queues a run of the workflow for the workers (`--props`
 * and `--script` travel with it; the props checked against the `props` schema the file
 * exports first, as a run in this process checks them) on the database's run host. No secret
 * value is stored: `--secret-props` travel by name (the worker gives their values),
 * `--redact-env` by variable name (the worker redacts its value there; it need not be set
 * here), `--redact-pattern` as the expression; what is followed is redacted here too. With
 * `--thread`, the run continues that thread of the database (`june.threads`); it is refused
 * with `thread-busy` while another run of it is queued or runs. `--approve all|none` is the
 * run's request policy, which the worker answers with.
 *
 * @throws {JuneError} `cli-option-invalid` for a flag the workers cannot honour (`--resume`,
 *   `--wait-for-owner`, `--replay`, `--replay-tools`, `--prices`, the `--otel` flags) and for
 *   `--trace` without `--follow`; `cli-workflow-missing`; `cli-props-invalid` when the props
 *   do not fit the `props` schema the file exports (`--props` given or not); the workflow's
 *   load errors; `dbos-props-secret` when `--props` or the script holds a value the run
 *   redacts; `thread-id-invalid` for a bad `--thread`; and what `cliRedaction` throws for bad
 *   redaction flags.
 */
export async function databaseRunSession(
  file: string,
  options: DatabaseRunOptions,
  io: CliIO,
): Promise<RunSession> {
  refuseLocalJournalFlags(options);
  refusePricesFlag(options);
  refuseOtelFlags(options);
  if (options.trace !== undefined && !options.follow)
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --trace writes the trace of the run this command follows, and without --follow it only queues the run; add --follow, or leave out --trace.',
    );
  if (!existsSync(file))
    throw new WorkflowError(
      'cli-workflow-missing',
      `june: there is no workflow file ${file}; the workers run it by its name ("${workflowNameOf(file)}"), so give the same file as to june worker.`,
    );
  if (options.thread !== undefined) checkThreadId(options.thread);
  const given = options.props === undefined ? undefined : parseProps(options.props);
  const redactEnv = options.redactEnv ?? [];
  // the variables are read where the run runs (the worker): one not set here travels by name only
  const { secretProps, redact } = cliRedaction({
    ...options,
    redactEnv: redactEnv.filter((name) => process.env[name]),
  });
  const runRedaction =
    redact || redactEnv.length > 0
      ? { ...redact, ...(redactEnv.length > 0 ? { env: redactEnv } : {}) }
      : undefined;
  const script = options.script === undefined ? undefined : loadScript(options.script);
  // without --props, the props are none: checked all the same, as a local run's
  const workflow = await loadWorkflow(file);
  const fitted = await fittedProps(file, workflow, given ?? {}, secretProps);
  const props = given === undefined && Object.keys(fitted).length === 0 ? undefined : fitted;
  quietDriver();
  const host = await openRunHost({ database: options.database });
  try {
    const runId = await host.start({
      workflow: workflowNameOf(file),
      ...(props ? { props } : {}),
      ...(secretProps ? { secretProps: Object.keys(secretProps) } : {}),
      ...(runRedaction ? { redact: runRedaction } : {}),
      ...(script ? { script } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(options.thread !== undefined ? { thread: options.thread } : {}),
      ...requestPolicy(options),
    });
    const redactor = redact ? new Redactor(redact, configuredSecrets) : configuredSecrets;
    return followedSession(host, runId, file, io, {
      redactor,
      ...(options.approve !== undefined ? { approve: options.approve } : {}),
      workflow,
      ...(options.trace !== undefined ? { trace: options.trace } : {}),
    });
  } catch (error) {
    await host.close().catch(() => {});
    throw error;
  }
}

/**
 * The session of a run of the database that this process follows (`june run --database
 * --follow`, `june fork --database --follow`): its events redacted with `redactor`, a stop
 * signal stops following (the run goes on in its worker), and with `trace` (`--trace`), its
 * final trace is written to that file once it ends. `close` closes `host`.
 */
export function followedSession(
  host: RunHost,
  runId: string,
  file: string,
  io: CliIO,
  options: {
    redactor: Redactor;
    workflow?: LoadedWorkflow;
    trace?: string;
    approve?: ApproveMode;
  },
): RunSession {
  const style = terminalStyle(io.stdout);
  const signals = queuedStopSignals();
  // with --approve studio or wait, nothing asks here: the headline says where to answer
  const elsewhere =
    options.approve === 'studio' || options.approve === 'wait'
      ? `${style.dim(`approvals are answered in June Studio (\`npx june studio --database …\`) or from another shell (\`npx june runs --database …\` lists them, \`npx june approve ${runId} <requestId> --database …\` answers one)`)}\n`
      : '';
  return {
    host,
    runId,
    headline: `${style.bold(`june run ${file}`)}${style.dim(` · run ${runId} · over the database`)}\n${elsewhere}`,
    signals,
    idleNotice: `june: run ${runId} is still queued: no worker of "${workflowNameOf(file)}" has taken it yet (all busy, or none running; june worker ${file} --database … starts one).`,
    redactor: options.redactor,
    report: {
      ...(options.workflow ? { workflow: options.workflow } : {}),
      async traceFile(trace) {
        if (options.trace === undefined) return {};
        return writeTrace(options.trace, trace, options.redactor);
      },
    },
    async close() {
      signals.off();
      await host.close().catch(() => {});
    },
  };
}

/**
 * Writes a followed run's final trace to `path` (`--trace`), redacted as what is followed
 * is, as JSON (the trace file's form): where it is, or why it could not be written.
 */
async function writeTrace(
  path: string,
  trace: Trace,
  redactor: Redactor,
): Promise<{ path: string; failure?: unknown }> {
  const shown = redactor.value(trace);
  try {
    await new TraceFileWriter({ paths: [resolve(path)], snapshot: () => shown }).close(shown);
    return { path };
  } catch (failure) {
    return { path, failure };
  }
}

/**
 * `--props` (`{}` without it) checked against the `props` schema `file` exports, as a run in
 * this process checks them (the same `june:` line, exit code 2), before anything is queued:
 * the props as the workers get them, defaults filled in and the secret props left out (their
 * values are the worker's; here they only take part in the check).
 * @throws {WorkflowError} `cli-props-invalid`
 */
async function fittedProps(
  file: string,
  workflow: LoadedWorkflow,
  given: Record<string, unknown>,
  secretProps: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const fitted = await checkedProps(file, workflow, { ...given, ...secretProps });
  return Object.fromEntries(
    Object.entries(fitted).filter(([name]) => !(name in (secretProps ?? {}))),
  );
}

/**
 * `--approve all|none` (with `--approve-escalations`) as the run's request policy: the worker
 * answers with it, as a run in this process does, recorded as the source `policy`.
 */
function requestPolicy(options: DatabaseRunOptions): { policy?: RequestPolicy } {
  const { approve } = options;
  if (approve !== 'all' && approve !== 'none') return {};
  return { policy: { approve, ...(options.approveEscalations ? { escalations: true } : {}) } };
}

/**
 * Refuses `--prices`: a run queued for the workers is priced where it runs, by the worker's
 * own prices.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function refusePricesFlag(options: DatabaseRunOptions): void {
  if (options.prices === undefined) return;
  throw new WorkflowError(
    'cli-option-invalid',
    "june: --prices prices the model calls of a run in this process, and --database enqueues a run for the workers, which price its calls with the worker's own prices; leave out --prices.",
  );
}

/**
 * Refuses `--otel` (or a flag that implies it): a run queued for the workers exports its
 * spans from the worker that runs it, with the OpenTelemetry set-up loaded there
 * (docs/observability.md), never from this process.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function refuseOtelFlags(options: DatabaseRunOptions): void {
  const flag = options.otel
    ? '--otel'
    : options.otelRecordInputs
      ? '--otel-record-inputs'
      : options.otelRecordOutputs
        ? '--otel-record-outputs'
        : undefined;
  if (flag === undefined) return;
  throw new WorkflowError(
    'cli-option-invalid',
    `june: ${flag} exports the spans of a run in this process, and --database enqueues a run for the workers, which export its spans themselves with an OpenTelemetry set-up loaded in the worker (NODE_OPTIONS="--import ./otel-setup.mjs" june worker …); leave out ${flag}.`,
  );
}

/** The flags that read or replay a journal of this machine's `.june/runs`, which a run queued for the workers never reads. */
const localJournalFlags = [
  ['resume', '--resume'],
  ['waitForOwner', '--wait-for-owner'],
  ['replay', '--replay'],
  ['replayTools', '--replay-tools'],
] as const;

/**
 * Refuses a flag the database would silently leave out: a replay (whose tools would then
 * run for real) or a resume of a local journal.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function refuseLocalJournalFlags(options: DatabaseRunOptions): void {
  for (const [key, flag] of localJournalFlags) {
    if (options[key] === undefined || options[key] === false) continue;
    throw new WorkflowError(
      'cli-option-invalid',
      `june: ${flag} reads a journal in .june/runs here, and --database enqueues a run for the workers, which never reads it; leave out one of them (june approve, june runs and june cancel work on runs in the database).`,
    );
  }
}
