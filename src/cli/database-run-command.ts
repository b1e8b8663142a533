import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { localUser } from '../approvals/local-user.js';
import { isEscalation, type ApprovalRequest } from '../approvals/approval-request.js';
import type { RequestPolicy } from '../approvals/request-policy.js';
import { JuneError, WorkflowError } from '../errors/index.js';
import { openRunHost } from '../host/open-run-host.js';
import type { RunHost } from '../host/run-host.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { Redactor } from '../redaction/redactor.js';
import { loadScript } from '../testing/load-script.js';
import { costText, subtreeCost, TraceFileWriter, type Trace } from '../trace/index.js';
import type { RunFlagValues } from '../host/run-flags.js';
import { ApprovalPrompter } from './approval-prompter.js';
import type { CliIO } from './cli-io.js';
import { cliRedaction, type RedactionFlags } from './cli-redaction.js';
import { quietDriver } from './quiet-driver.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { formatDuration, formatTokens } from './format.js';
import { loadWorkflow } from './load-workflow.js';
import { parseProps } from './parse-props.js';
import { checkedProps } from './run-inputs.js';
import { checkThreadId } from '../engine/thread-id.js';
import { ProgressPrinter } from './progress-printer.js';
import { onStopSignals, stopSignals } from './stop-signals.js';
import { terminalStyle, type TerminalStyle } from './terminal-style.js';
import { terminalJson, visibleText } from './visible-text.js';
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
  | keyof RedactionFlags
> & { database: string };

/**
 * `june run <file> --database <url>`: enqueues a run of the workflow for the workers
 * (`--props` and `--script` travel with it) and prints its id; with `--follow`, shows its
 * progress as a local run does and answers its approvals as `--approve` says (and with
 * `--trace`, writes its trace to that file once it ends). Ctrl-C stops following; the run
 * goes on. No secret value is stored: `--secret-props` travel by name
 * (the worker gives their values), `--redact-env` by variable name (the worker redacts its
 * value there; it need not be set here), `--redact-pattern` as the expression; what is
 * followed is redacted here too. With `--thread`, the run continues that thread of the
 * database (`june.threads`); it is refused with `thread-busy` while another run of it is
 * queued or runs.
 *
 * @returns 0 when enqueued (or, following, when the run succeeded), 1 when it failed or was cancelled.
 * @throws {JuneError} `cli-option-invalid` for `--trace` without `--follow`; `cli-props-invalid` when `--props` is not a JSON object or does not fit
 *   the `props` schema the file exports, or when, without `--props`, the schema wants props
 *   (checked here, before anything is queued, as a local run checks it), the workflow's
 *   load errors then, `dbos-props-secret` when `--props` or the script holds a value the run
 *   redacts, `thread-id-invalid` for a bad `--thread`, and what `cliRedaction` throws for
 *   bad redaction flags.
 */
export async function databaseRunCommand(
  file: string,
  options: DatabaseRunOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
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
  const fitted = await fittedProps(file, given ?? {}, secretProps);
  const props = given === undefined && Object.keys(fitted).length === 0 ? undefined : fitted;
  return withHost(options.database, async (host) => {
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
    if (!options.follow) {
      io.stdout.write(options.json ? `${terminalJson({ runId })}\n` : `queued run ${runId}\n`);
      return ExitCode.success;
    }
    const redactor = redact ? new Redactor(redact, configuredSecrets) : configuredSecrets;
    return followRun(host, runId, file, { ...options, redactor }, io);
  });
}

/**
 * `--props` (`{}` without it) checked against the `props` schema `file` exports, as a run in
 * this process checks them (the same `june:` line, exit code 2), before anything is queued:
 * the props as the workers get them, defaults filled in and the secret props left out (their
 * values are the worker's; here they only take part in the check).
 * @throws {WorkflowError} `cli-props-invalid`; the workflow's load errors
 */
async function fittedProps(
  file: string,
  given: Record<string, unknown>,
  secretProps: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const fitted = await checkedProps(file, await loadWorkflow(file), { ...given, ...secretProps });
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
 * True when `request` is a person's to answer: every request with `--approve ask`; with
 * `all` or `none`, those the policy leaves (a guard's escalation or a budget's request,
 * unless `--approve-escalations`; a question, whose prompt goes away if the policy answered it).
 */
function leftToPerson(request: ApprovalRequest, options: DatabaseRunOptions): boolean {
  const approve = options.approve ?? 'ask';
  if (approve !== 'all' && approve !== 'none') return true;
  return (isEscalation(request) && !options.approveEscalations) || request.kind === 'question';
}

/** One answer of the followed run's terminal: the decision, with an edited input or an answer instead of the tool. */
interface FollowAnswer {
  approved: boolean;
  reason?: string;
  input?: unknown;
  output?: unknown;
}

/**
 * Answers a request of the followed run from this terminal, through its host; says on
 * stderr when another answer was stored first (or the answer could not be given). An edit
 * or an answer the tool's schemas refuse (`studio-approval-invalid`, checked against the
 * schemas the run published) rejects, so the prompt asks again.
 */
function terminalAnswer(
  host: RunHost,
  runId: string,
  io: CliIO,
): (id: string, answer: FollowAnswer) => Promise<void> {
  const user = localUser();
  return async (id, { approved, reason, input, output }) => {
    try {
      await host.answer(runId, {
        key: id,
        approved,
        ...(reason !== undefined ? { reason } : {}),
        ...(input !== undefined ? { input } : {}),
        ...(output !== undefined ? { output } : {}),
        ...(user !== undefined ? { answeredBy: user } : {}),
        source: 'terminal',
      });
    } catch (error) {
      if (JuneError.isInstance(error) && error.code === 'studio-approval-invalid') throw error;
      io.stderr.write(`${visibleText(String((error as Error).message ?? error))}\n`);
    }
  };
}

/**
 * Follows the run `runId` through `host` as `june run --database --follow` does (its
 * progress, its approvals answered as `--approve` says, its end); `file` names it.
 */
export async function followRun(
  host: RunHost,
  runId: string,
  file: string,
  options: DatabaseRunOptions & { redactor: Redactor },
  io: CliIO,
): Promise<ExitCodeValue> {
  const { redactor } = options;
  const style = terminalStyle(io.stdout);
  const approve = options.approve ?? 'ask';
  // the request policy answers the rest (all, none): what it leaves to a person is asked here
  const prompting =
    (approve === 'ask' || approve === 'all' || approve === 'none') &&
    !options.json &&
    io.stdin.isTTY === true;
  const printer = new ProgressPrinter(io.stdout, style, {
    approvalsPrompted: prompting && approve === 'ask',
  });
  const answer = terminalAnswer(host, runId, io);
  const prompter = prompting ? followPrompter(answer, { printer, style, io }) : undefined;
  if (!options.json)
    io.stdout.write(
      `${style.bold(`june run ${file}`)}${style.dim(` · run ${runId} · over the database`)}\n`,
    );
  const startedAt = Date.now();
  const stopListening = stopFollowingOnSignals(runId, io);
  const queued = options.json ? undefined : queuedNotice(runId, file, io, style);
  try {
    // the worker stores and publishes events redacted; what is shown here is redacted as june run would, too
    for await (const event of redactedEvents(host.events(runId), redactor)) {
      queued?.clear();
      if (options.json) io.stdout.write(`${terminalJson(event)}\n`);
      else printer.event(event);
      // answered elsewhere (Studio, june approve, an answers file) or withdrawn: no prompt for it
      if (event.type === 'approval-response' || event.type === 'approval-withdraw')
        prompter?.withdraw(event.id);
      if (event.type === 'approval-request' && leftToPerson(event.request, options))
        prompter?.ask(event.request);
    }
    await prompter?.close();
    printer.end();
    return await reportFollowed(host, runId, {
      startedAt,
      json: options.json,
      style,
      io,
      redactor,
      ...(options.trace !== undefined ? { tracePath: options.trace } : {}),
    });
  } finally {
    queued?.clear();
    stopListening();
  }
}

/** A stop signal stops following only, saying so: the run goes on in its worker. */
function stopFollowingOnSignals(runId: string, io: CliIO): () => void {
  return onStopSignals((signal) => {
    io.stderr.write(
      `june: stopped following run ${runId}; it goes on in its worker (june cancel ${runId} --database … stops it).\n`,
    );
    process.exit(stopSignals[signal].exitCode);
  });
}

/** ms a followed run may stay queued before the follower says no worker has taken it. */
const QUEUED_NOTICE_MS = 5000;

/**
 * Says on stderr, once, when a followed run has shown nothing for {@link QUEUED_NOTICE_MS}:
 * no worker of its workflow has taken it (all busy, or none running), and how to start one.
 * `clear` stops it (the run's first event).
 */
function queuedNotice(runId: string, file: string, io: CliIO, style: TerminalStyle) {
  const timer = setTimeout(() => {
    io.stderr.write(
      `${style.dim(`june: run ${runId} is still queued: no worker of "${workflowNameOf(file)}" has taken it yet (all busy, or none running; june worker ${file} --database … starts one).`)}\n`,
    );
  }, QUEUED_NOTICE_MS);
  timer.unref();
  return { clear: () => clearTimeout(timer) };
}

/** The terminal prompt that answers a followed run's approvals through the database. */
function followPrompter(
  answer: (id: string, answer: FollowAnswer) => Promise<void>,
  { printer, style, io }: { printer: ProgressPrinter; style: TerminalStyle; io: CliIO },
): ApprovalPrompter {
  return new ApprovalPrompter({
    answerer: {
      approve: (id, input) =>
        answer(id, { approved: true, ...(input !== undefined ? { input } : {}) }),
      deny: (id, reason) =>
        answer(id, { approved: false, ...(reason !== undefined ? { reason } : {}) }),
      respond: (id, output) => answer(id, { approved: false, output }),
    },
    printer,
    style,
    input: io.stdin,
    output: io.stdout,
    onInterrupt: () => process.exit(ExitCode.interrupted),
  });
}

/**
 * Waits for a followed run's result and prints its end as a local run would; with
 * `tracePath` (`--trace`), writes its final trace there first, as JSON (the trace file's
 * form), and names it on the summary's last line. The exit code.
 */
async function reportFollowed(
  host: RunHost,
  runId: string,
  show: {
    startedAt: number;
    json?: boolean;
    style: TerminalStyle;
    io: CliIO;
    redactor: Redactor;
    tracePath?: string;
  },
): Promise<ExitCodeValue> {
  const { style, io } = show;
  const trace: Trace = await host.result(runId);
  const took = formatDuration(Date.now() - show.startedAt);
  const written = show.tracePath !== undefined && (await writeTrace(show.tracePath, trace, show));
  const traceLine = written && !show.json ? `${style.dim(`trace: ${show.tracePath}`)}\n` : '';
  if (trace.status === 'succeeded') {
    if (!show.json)
      io.stdout.write(
        `${style.success(`✓ succeeded in ${took}`)}${style.dim(` · ${formatTokens(trace.root.usage)}${costPart(trace)}`)}\n${traceLine}`,
      );
    return ExitCode.success;
  }
  const status = trace.status === 'aborted' ? 'cancelled' : trace.status;
  if (!show.json) io.stdout.write(`${style.failure(`✗ ${status} after ${took}\n`)}${traceLine}`);
  const message = show.redactor.text(trace.root.error?.message ?? `the run ${status}`);
  io.stderr.write(
    `${visibleText(message.startsWith('june: ') ? message : `june: the run ${runId} ${status}: ${message}`)}\n`,
  );
  return ExitCode.failed;
}

/**
 * Writes a followed run's final trace to `path` (`--trace`), redacted as what is followed
 * is; a file that cannot be written is a warning on stderr, as for a local run.
 * @returns true when it was written.
 */
async function writeTrace(
  path: string,
  trace: Trace,
  { redactor, io }: { redactor: Redactor; io: CliIO },
): Promise<boolean> {
  const shown = redactor.value(trace);
  try {
    await new TraceFileWriter({ paths: [resolve(path)], snapshot: () => shown }).close(shown);
    return true;
  } catch (error) {
    io.stderr.write(
      `${visibleText(`june: warning: cannot write the trace ${path}: ${(error as Error).message}`)}\n`,
    );
    return false;
  }
}

/** A run's events as followed, each redacted with the run's redactor. */
async function* redactedEvents<T>(events: AsyncIterable<T>, redactor: Redactor): AsyncIterable<T> {
  for await (const event of events) yield redactor.value(event);
}

/** Opens the database's run host, runs `work` with it, and closes it. */
export async function withHost<T>(
  database: string,
  work: (host: RunHost) => Promise<T>,
): Promise<T> {
  quietDriver();
  const host = await openRunHost({ database });
  try {
    return await work(host);
  } finally {
    await host.close().catch(() => {});
  }
}

/** ` · $0.0056` (or how many calls had no price) for a run's summary line; empty when no model call reported usage. */
function costPart(trace: Trace | undefined): string {
  const cost = trace?.root ? costText(subtreeCost(trace.root)) : '';
  return cost ? ` · ${cost}` : '';
}
