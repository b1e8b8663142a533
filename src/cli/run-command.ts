import { rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JuneError } from '../errors/index.js';
import { context } from '@opentelemetry/api';
import { traceWriter, type RunConsumer } from '../events/index.js';
import type { RunHandle } from '../interpreter/index.js';
import { approvalPolicy } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import type { LoadedWorkflow } from './load-workflow.js';
import { ProgressPrinter } from './progress-printer.js';
import { RunControl, runPrompting } from './run-control.js';
import { StudioAnswers } from '../host/studio-answers.js';
import { resumeDetails } from './resume-flags.js';
import { ownerText } from '../host/runs-folder-journal.js';
import { keepScriptFile, keptScriptFile, keptScriptPath } from '../host/kept-script.js';
import { runInputs, type RunInputs } from './run-inputs.js';
import { printedResumeCommand } from './resume-flags.js';
import { reportRun } from './run-report.js';
import { onStopSignals } from './stop-signals.js';
import { terminalStyle, type TerminalStyle } from './terminal-style.js';
import { terminalJson, visibleText } from './visible-text.js';
import { otlpTracesEndpoint } from './otlp-endpoint.js';
import { forkOf } from '../run/fork-run.js';
import type { RunFork } from '../interpreter/workflow-run-options.js';
import type { Trace } from '../trace/index.js';

import type { RunCommandOptions } from './run-command-options.js';

export type { RunCommandOptions } from './run-command-options.js';

/** The folder, under the current directory, where `june run` keeps traces. */
export const runsFolder = join('.june', 'runs');

/**
 * `june run <file>`: loads the workflow, runs its default export, prints progress (or JSON
 * events), answers approvals as `--approve` says, and writes the trace to
 * `.june/runs/<runId>.json` (and `--trace`) as the run goes, whatever way it ends. The run's
 * journal goes to `.june/runs/<runId>/journal.jsonl`; `--resume <runId>` takes a stopped run
 * up again from it (its props too, unless `--props`; with `--script`, without the turns the
 * journal already answered), and `--replay` answers every model call from a recorded one
 * (with `--replay-tools`, every tool call too: no tool runs).
 *
 * @param loaded - `file`, when the caller loaded it already (`june fork`).
 * @returns the exit code: 0 when the run succeeded, 1 when it failed or could not ask for an
 *   approval; after a stop signal (the run aborted, its trace written): 130 for Ctrl-C
 *   (SIGINT), 143 for SIGTERM, 129 for SIGHUP. A second signal quits at once, leaving the
 *   trace settled as `aborted`.
 * @throws {JuneError} before the run starts: `cli-props-invalid`, `cli-workflow-missing`,
 *   `cli-option-invalid` (`--resume` with `--replay`, `--replay` with `--script`,
 *   `--replay-tools` without `--replay`, a `--run-id` the runs folder has a run of, an
 *   `--otel` collector address that is not an http(s) URL), `thread-id-invalid` (a bad `--thread`),
 *   `script-unreadable`, `script-invalid` (bad usage), the workflow's load errors
 *   (`workflow-load-failed`, `workflow-default-missing`, `workflow-default-invalid`) and
 *   the journal's (`journal-missing`, `journal-corrupt`, `journal-mismatch`,
 *   `journal-unreadable`, `journal-version-unsupported`); `run-folder-unsafe` when a run
 *   resumed with Studio answering has a folder that is a link, another user's, or writable
 *   by others; `run-owned` when `--resume` names a run another process runs (unless
 *   `--wait-for-owner`, which waits for it to let go).
 * @example
 * ```ts
 * process.exitCode = await runCommand('examples/release.tsx', { script: 'examples/release.script.json', approve: 'all' }, processIO());
 * ```
 */
export async function runCommand(
  file: string,
  options: RunCommandOptions,
  io: CliIO,
  loaded?: LoadedWorkflow,
): Promise<ExitCodeValue> {
  // a bad collector address is a usage error found before the workflow loads
  if (wantsOtlp(options)) otlpTracesEndpoint();
  const given = await withKeptScript(options);
  // every run keeps a journal; --resume and --replay read one first (--resume once it owns the run)
  const inputs = await runInputs(
    file,
    given,
    runsFolder,
    (owner, holder) =>
      io.stderr.write(
        given.resume !== undefined
          ? `june: run ${given.resume} is being run by ${ownerText(owner)}; waiting for it to let go\n`
          : `june: thread ${given.thread} is being run by ${holder !== undefined ? `run ${holder} in ` : ''}${ownerText(owner)}; waiting for it to let go\n`,
      ),
    loaded,
    options.script === undefined && given.script !== undefined,
  );
  try {
    return await runStarted(file, given, io, inputs);
  } finally {
    await inputs.threadLease?.release();
    await inputs.lease?.release();
  }
}

/**
 * The options of a `--resume` without `--script` of a run that keeps the model script it was
 * started with (`<runId>/script.json`, see {@link keepRunScript}): with that script, so the
 * resumed run (a fork's too) is answered as the run was. Otherwise the options as given.
 */
async function withKeptScript(options: RunCommandOptions): Promise<RunCommandOptions> {
  if (options.script !== undefined || options.resume === undefined) return options;
  const script = await keptScriptFile(runsFolder, options.resume);
  return script === undefined ? options : { ...options, script };
}

/** How {@link runStarted} treats a run that stops: resumable from `file`, or not at all. */
export interface RunStartedOptions {
  /**
   * `false` for a run whose tree is not `file`'s default export (`june try-tool`): no resume
   * line is printed and Studio is given no sealed resume details, so nothing resumes it.
   * @default true
   */
  resumable?: boolean;
  /**
   * `false` when the run calls no model (`june try-tool`'s scripted turns): no tokens and
   * no cost are shown. @default true
   */
  usage?: boolean;
  /** What makes a run that succeeded fail all the same, as a `june:` line (see `reportRun`). */
  failedCall?: (trace: Trace) => string | undefined;
  /** One more consumer of the run's events, after the trace writer (`june try-tool`'s watch on its call). */
  consumer?: RunConsumer;
}

/**
 * `june run` once its inputs are read (and, with `--resume`, the run is this process's):
 * runs `inputs.workflow.component`, shows it, answers its approvals as `--approve` says,
 * writes its trace, and reports. `june try-tool` runs its one-tool tree through it too.
 */
export async function runStarted(
  file: string,
  options: RunCommandOptions,
  io: CliIO,
  inputs: RunInputs,
  how: RunStartedOptions = {},
): Promise<ExitCodeValue> {
  const resumable = how.resumable !== false;
  const { approve = 'ask', json = false, approveEscalations = false } = options;
  const promptOutput = runPrompting(io, approve, json, approveEscalations);

  const style = terminalStyle(io.stdout);
  const printer = runPrinter(io, style, promptOutput !== undefined && approve === 'ask', how);
  const otlp = await otlpExport(options, io);
  const startedAt = Date.now();
  const { handle, writer, traceFailure } = startRun(inputs, options, otlp, how.consumer);
  const control = new RunControl({
    handle,
    writer,
    printer,
    style,
    io,
    approve,
    json,
    approveEscalations,
    promptOutput,
    resumable,
  });
  // the run is going (its MCP servers may be starting): a signal from now on stops it cleanly
  const stopListening = onStopSignals(control.stop);
  // Keeps the process alive while the run waits on something that holds no handle of its
  // own (a tool awaiting its abort signal), so Ctrl-C can still end it cleanly.
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    const keptScript = resumable ? await keepRunScript(options, handle.runId, io) : false;
    control.studio = await studioAnswers(file, handle, options, resumable);
    if (!json) io.stdout.write(headline(inputs.workflow, handle.runId, options, style));
    const outcome = await runOutcome(handle, { json, printer, io, control });
    const forgotten = await forgetRefused(outcome, handle.runId, keptScript, options);
    return reportRun({
      traceFailure: traceFailure(),
      outcome,
      trace: writer.trace ?? handle.trace(),
      runId: handle.runId,
      ...(forgotten ? {} : { tracePath: join(runsFolder, `${handle.runId}.json`) }),
      durationMs: Date.now() - startedAt,
      resume: resumable ? resumeLine(file, handle.runId, options, control) : '',
      workflow: inputs.workflow,
      // a thread's script holds the turns of its later runs too: no warning for those
      model: options.thread === undefined ? inputs.model : undefined,
      prices: inputs.prices,
      json,
      ...reportOptions(how),
      stoppedBy: control.stoppedBy,
      refusal: control.refusal,
      style,
      io,
    });
  } finally {
    clearInterval(keepAlive);
    stopListening();
    await control.studio?.close();
    await otlp?.shutdown();
  }
}

/**
 * With `--approve studio` or `--approve wait`, what answers the run's approvals from June
 * Studio (registered in the runs folder Studio reads); otherwise none.
 */
async function studioAnswers(
  file: string,
  handle: RunHandle,
  options: RunCommandOptions,
  resumable: boolean,
): Promise<StudioAnswers | undefined> {
  const approve = options.approve;
  if (approve !== 'studio' && approve !== 'wait') return undefined;
  const answers = await StudioAnswers.start({
    runsDir: resolve(runsFolder),
    runId: handle.runId,
    approve,
    resume: resumeDetails(file, options),
    sealed: resumable,
  });
  handle.connect(answers);
  return answers;
}

/** Shows the run's events until it ends, then closes the prompter and the printer. */
async function runOutcome(
  handle: RunHandle,
  shown: Parameters<typeof showEvents>[1],
): Promise<{ result: Awaited<RunHandle['result']> } | { error: unknown }> {
  const events = showEvents(handle, shown);
  const outcome = await handle.result.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  await events;
  await shown.control.prompter?.close();
  shown.printer.end();
  return outcome;
}

/** The progress printer: JSON values cut to the terminal's width (120 characters off a terminal). */
function runPrinter(
  io: CliIO,
  style: TerminalStyle,
  approvalsPrompted: boolean,
  how: RunStartedOptions,
): ProgressPrinter {
  const jsonChars =
    io.stdout.isTTY && io.stdout.columns ? Math.max(40, io.stdout.columns - 16) : 120;
  const usage = how.usage !== false;
  return new ProgressPrinter(io.stdout, style, { approvalsPrompted, jsonChars, usage });
}

/**
 * The resume line; a refused run's adds what the refusal asks for, so it does not stop the
 * same way. A run resumed with the script it keeps (a fork's, a resume's without `--script`)
 * is resumed with it again without naming it.
 */
function resumeLine(
  file: string,
  runId: string,
  options: RunCommandOptions,
  control: RunControl,
): string {
  // the script the run keeps answers its resume by itself: no --script naming that copy
  const { script, ...rest } = options;
  const kept = script === keptScriptPath(runsFolder, runId);
  return printedResumeCommand(file, runId, {
    ...(kept ? rest : options),
    ...control.resumeWith,
  });
}

/** What {@link RunStartedOptions} changes in the report: no usage, a failed call. */
function reportOptions(how: RunStartedOptions) {
  return {
    ...(how.usage === false ? { usage: false } : {}),
    ...(how.failedCall ? { failedCall: how.failedCall } : {}),
  };
}

type OtlpExport = Awaited<ReturnType<typeof otlpExport>>;

/**
 * Starts the run with the trace writer as its consumer (`.june/runs/<runId>.json` and
 * `--trace`), inside the `--otel` parent span when there is one. `traceFailure` is the
 * writer's error, if writing failed.
 */
function startRun(
  inputs: RunInputs,
  options: RunCommandOptions,
  otlp: OtlpExport,
  consumer?: RunConsumer,
) {
  const { workflow, props, model, journal, redact, prices, recorded, lease } = inputs;
  const json = options.json === true;
  const onApproval = approvalPolicy(options.approve ?? 'ask');
  let failure: unknown;
  const writer = traceWriter({
    dir: resolve(runsFolder),
    ...(options.trace === undefined ? {} : { paths: [resolve(options.trace)] }),
    onError: (error) => (failure = error),
  });
  const start = () =>
    workflow.june.run(workflow.component, {
      consumers: consumer ? [writer, consumer] : [writer],
      workflow: workflow.name,
      ...(props ? { props } : {}),
      ...(model ? { model } : {}),
      // a script's answers (a tool call's `answer`) are given as a person's, through `script`
      ...(model ? { approvalSources: [model.approvals] } : {}),
      ...(onApproval ? { onApproval } : {}),
      // a guard's escalation goes to a person unless the command line says otherwise
      ...(options.approveEscalations ? { guardEscalations: 'on-approval' as const } : {}),
      journal,
      ...(redact ? { redact } : {}),
      // nobody reads --json output token by token: batch mode costs less
      ...(json || options.stream === false ? { stream: false } : {}),
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
      // a fork's journal keeps its lineage and its changed model (by id) for every resume
      ...(options.resume !== undefined && recorded ? forkOption(recorded) : {}),
      // a thread's run id is chosen before its thread is held; else --run-id (june try-tool's too)
      ...((inputs.runId ?? options.runId) !== undefined
        ? { runId: (inputs.runId ?? options.runId)! }
        : {}),
      ...(options.thread !== undefined ? { thread: options.thread } : {}),
      // the thread is held already, for this run (june run waited for it, if it had to)
      ...(inputs.threadLease ? { threadLease: inputs.threadLease } : {}),
      ...(lease ? { lease } : {}),
      ...(options.replay !== undefined && recorded
        ? { replay: recorded, ...(options.replayTools ? { replayTools: true } : {}) }
        : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(prices ? { prices } : {}),
      ...(otlp ? { telemetry: otlp.content } : {}),
    });
  const handle = otlp ? context.with(otlp.parent, start) : start();
  return { handle, writer, traceFailure: () => failure };
}

/** The `fork` option of a resumed run whose journal is a fork's, else nothing. */
function forkOption(recorded: Parameters<typeof forkOf>[0]): { fork?: RunFork } {
  const fork = forkOf(recorded);
  return fork ? { fork } : {};
}

/** The run's first line: `june run <file> · run <id>`, and where its model answers come from. */
function headline(
  workflow: LoadedWorkflow,
  runId: string,
  options: RunCommandOptions,
  style: TerminalStyle,
): string {
  const scripted = options.script === undefined ? '' : ` · model script ${options.script}`;
  const from =
    options.resume !== undefined
      ? ' · resumed from its journal'
      : options.replay !== undefined
        ? ` · replaying ${options.replay}${options.replayTools ? ' (tools answered from the recording)' : ''}`
        : '';
  const studio =
    options.approve === 'studio' || options.approve === 'wait'
      ? style.dim(
          `approvals are answered in June Studio (run \`npx june studio\` here and open the URL it prints) or from another shell (\`npx june runs\` lists them, \`npx june approve ${runId} <requestId>\` answers one)\n`,
        )
      : '';
  return `${style.bold(`june run ${workflow.label}`)}${style.dim(` · run ${runId}${from}${scripted}`)}\n${studio}`;
}

/**
 * Shows the run's log as it comes (progress, or a JSON line an event with `--json`) and
 * hands approval requests to the control; settles when the log ends.
 */
async function showEvents(
  handle: RunHandle,
  show: { json: boolean; printer: ProgressPrinter; io: CliIO; control: RunControl },
): Promise<void> {
  for await (const event of handle.events) {
    if (show.json) show.io.stdout.write(`${terminalJson(event)}\n`);
    else show.printer.event(event);
    if (event.type === 'approval-request') show.control.request(event.request);
  }
}

/** `--otel`, or a flag that implies it. */
function wantsOtlp(options: RunCommandOptions): boolean {
  return (
    options.otel === true || options.otelRecordInputs === true || options.otelRecordOutputs === true
  );
}

/**
 * `--otel` (or a flag that implies it): the OpenTelemetry SDK, set up and registered before
 * the run starts, with what the spans may record; a failed export is a warning on stderr.
 */
async function otlpExport(options: RunCommandOptions, io: CliIO) {
  if (!wantsOtlp(options)) return undefined;
  const content = {
    ...(options.otelRecordInputs ? { recordInputs: true } : {}),
    ...(options.otelRecordOutputs ? { recordOutputs: true } : {}),
  };
  const { startOtlpExport } = await import('./otlp-export.js');
  const warn = (message: string) =>
    io.stderr.write(`${visibleText(`june: warning: OpenTelemetry: ${message}`)}\n`);
  return { ...(await startOtlpExport({ warn })), content };
}

/**
 * A new run its thread refused (`thread-busy`: another run holds the thread) never started:
 * its trace goes, so june runs and Studio list no run of it, and its summary names none.
 * A resumed run is left as it is.
 *
 * @returns true when the run's trace was removed.
 */
async function forgetRefused(
  outcome: { error: unknown } | object,
  runId: string,
  keptScript: boolean,
  options: RunCommandOptions,
): Promise<boolean> {
  if (options.resume !== undefined) return false;
  const error = 'error' in outcome ? outcome.error : undefined;
  const code = JuneError.isInstance(error) ? error.code : undefined;
  if (code === 'thread-busy') await rm(join(runsFolder, `${runId}.json`), { force: true });
  // the script kept for a run that never had a journal of its own (another run's id) goes too
  if (keptScript && (code === 'thread-busy' || code === 'journal-exists')) {
    await rm(keptScriptPath(runsFolder, runId), { force: true });
    await rmdir(join(runsFolder, runId)).catch(() => {});
  }
  return code === 'thread-busy';
}

/**
 * Keeps the run's `--script` in its run folder (`<runId>/script.json`), unless it keeps one
 * already: a resume of the run, or a fork of it, is then answered by the same script without
 * `--script`. A script that cannot be kept is said on stderr, and the run goes on.
 *
 * @returns true when the script was kept by this call.
 */
async function keepRunScript(
  options: RunCommandOptions,
  runId: string,
  io: CliIO,
): Promise<boolean> {
  if (options.script === undefined) return false;
  try {
    return await keepScriptFile(runsFolder, runId, options.script);
  } catch (error) {
    io.stderr.write(
      `june: the model script was not kept with run ${runId} (${(error as Error).message}); a resume or a fork of it needs --script ${options.script} again.\n`,
    );
    return false;
  }
}
