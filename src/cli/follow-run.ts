import { WorkflowError } from '../errors/index.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { Trace } from '../trace/index.js';
import type { ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import { ProgressPrinter } from './progress-printer.js';
import { RunControl, runPrompting } from './run-control.js';
import { reportRun } from './run-report.js';
import type { RunSession } from './run-session.js';
import { terminalStyle, type TerminalStyle } from './terminal-style.js';
import { terminalJson } from './visible-text.js';

/** How {@link followRun} shows a run and answers its requests: `june run`'s flags. */
export interface FollowOptions {
  /** `--approve`: who answers the run's requests. @default 'ask' */
  approve?: ApproveMode;
  /** `--approve-escalations`. */
  approveEscalations?: boolean;
  /** `--json`: each event as a JSON line, no summary, no prompts. */
  json?: boolean;
}

/** ms a followed run may show nothing before its session's idle notice is said. */
const IDLE_NOTICE_MS = 5000;

/**
 * Follows a run on its host to its end, whichever host it is: shows its events (progress,
 * or a JSON line each with `--json`), asks a person at the terminal what `--approve` leaves
 * to one and answers through `host.answer` (refusing the run, through `host.cancel`, when
 * nobody can be asked), handles stop signals (`RunControl`), then reads its final trace from
 * `host.result` and reports it (`reportRun`): the summary, the trace file, the resume line,
 * the `june:` line of a failure, and the exit code.
 *
 * @returns the exit code: 0 when the run succeeded; 1 when it failed, was refused or
 *   cancelled; 2 for a usage error the run ended with; 130, 143 or 129 after a stop signal
 *   stopped a run in this process.
 */
export async function followRun(
  session: RunSession,
  options: FollowOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const { host, runId } = session;
  const { approve = 'ask', json = false, approveEscalations = false } = options;
  const style = terminalStyle(io.stdout);
  const promptOutput = runPrompting(io, approve, json, approveEscalations);
  const printer = runPrinter(io, style, promptOutput !== undefined && approve === 'ask', session);
  const control = new RunControl({
    session,
    printer,
    style,
    io,
    approve,
    json,
    approveEscalations,
    promptOutput,
  });
  session.signals.handle(control.stop);
  // Keeps the process alive while the run waits on something that holds no handle of its
  // own (a tool awaiting its abort signal), so Ctrl-C can still end it cleanly.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const idle = json ? undefined : idleNotice(session, io, style);
  const startedAt = Date.now();
  try {
    if (!json) io.stdout.write(session.headline);
    for await (const event of shownEvents(host.events(runId), session)) {
      idle?.clear();
      if (json) io.stdout.write(`${terminalJson(event)}\n`);
      else printer.event(event);
      // answered elsewhere (Studio, june approve, a script) or withdrawn: no prompt for it
      if (event.type === 'approval-response' || event.type === 'approval-withdraw')
        control.prompter?.withdraw(event.id);
      if (event.type === 'approval-request') control.request(event.request);
    }
    await control.settled();
    await control.prompter?.close();
    printer.end();
    const trace = await host.result(runId);
    return await reportRun({
      trace,
      error: session.report.error?.() ?? traceError(trace),
      runId,
      durationMs: Date.now() - startedAt,
      report: session.report,
      ...(session.redactor ? { redactor: session.redactor } : {}),
      stoppedBy: control.stoppedBy,
      refusal: control.refusal,
      resumeWith: control.resumeWith,
      json,
      style,
      io,
    });
  } finally {
    idle?.clear();
    clearInterval(keepAlive);
    session.signals.off();
  }
}

/** {@link followRun}, then closes the session, however the run ended. */
export async function followSession(
  session: RunSession,
  options: FollowOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  try {
    return await followRun(session, options, io);
  } finally {
    await session.close();
  }
}

/** The progress printer: JSON values cut to the terminal's width (120 characters off a terminal). */
function runPrinter(
  io: CliIO,
  style: TerminalStyle,
  approvalsPrompted: boolean,
  session: RunSession,
): ProgressPrinter {
  const jsonChars =
    io.stdout.isTTY && io.stdout.columns ? Math.max(40, io.stdout.columns - 16) : 120;
  const usage = session.report.usage !== false;
  return new ProgressPrinter(io.stdout, style, { approvalsPrompted, jsonChars, usage });
}

/** The run's events as shown: redacted by the session's redactor, when it has one. */
async function* shownEvents(
  events: AsyncIterable<RunLogEvent>,
  { redactor }: RunSession,
): AsyncIterable<RunLogEvent> {
  for await (const event of events) yield redactor ? redactor.value(event) : event;
}

/**
 * Says the session's idle notice on stderr, once, when the run has shown nothing for
 * {@link IDLE_NOTICE_MS}; `clear` stops it (the run's first event).
 */
function idleNotice(session: RunSession, io: CliIO, style: TerminalStyle) {
  const notice = session.idleNotice;
  if (notice === undefined) return undefined;
  const timer = setTimeout(() => io.stderr.write(`${style.dim(notice)}\n`), IDLE_NOTICE_MS);
  timer.unref();
  return { clear: () => clearTimeout(timer) };
}

/**
 * The error a run's trace ended with, as an error the report reads (its `code`, its
 * message), for a run this process did not run; none for a run that succeeded.
 */
function traceError(trace: Trace): unknown {
  const error = trace.root.error;
  if (trace.status === 'succeeded') return undefined;
  if (error === undefined)
    return Object.assign(new Error(`the run ended ${trace.status} and its trace names no error`), {
      stack: '',
    });
  if (error.code === undefined)
    return Object.assign(new Error(error.message ?? 'no message'), { stack: '' });
  return new WorkflowError(error.code as never, error.message);
}
