import { rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { context } from '@opentelemetry/api';
import { JuneError } from '../errors/index.js';
import { traceWriter, type RunConsumer } from '../events/index.js';
import { localRunHost } from '../host/local-run-host.js';
import { keepScriptFile, keptScriptFile, keptScriptPath } from '../host/kept-script.js';
import { ownerText } from '../host/runs-folder-journal.js';
import { StudioAnswers } from '../host/studio-answers.js';
import type { RunHandle } from '../interpreter/index.js';
import type { RunFork } from '../interpreter/workflow-run-options.js';
import { forkOf } from '../run/fork-run.js';
import type { Trace } from '../trace/index.js';
import { approvalPolicy } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import type { LoadedWorkflow } from './load-workflow.js';
import { otlpTracesEndpoint } from './otlp-endpoint.js';
import type { RunCommandOptions } from './run-command-options.js';
import { runInputs, type RunInputs } from './run-inputs.js';
import type { ResumeWith, RunSession, SessionReport } from './run-session.js';
import { printedResumeCommand, resumeDetails } from './resume-flags.js';
import { queuedStopSignals, writeAbandonedTrace } from './stop-signals.js';
import { terminalStyle, type TerminalStyle } from './terminal-style.js';
import { visibleText } from './visible-text.js';

/** The folder, under the current directory, where `june run` keeps traces and journals. */
export const runsFolder = join('.june', 'runs');

/**
 * `june run <file>` without `--database`: reads its inputs (the props, checked against the
 * workflow's `props` schema, the script, the journal `--resume` or `--replay` names, the
 * run's lease and its thread's hold, waited for with `--wait-for-owner`), starts the run in
 * this process with the workflow file's own June, and gives it to a runs-folder host
 * (`localRunHost`), which the follow loop reads it through. The trace goes to
 * `.june/runs/<runId>.json` (and `--trace`) as the run goes, whatever way it ends.
 *
 * @param loaded - `file`, when the caller loaded it already (`june fork`).
 * @throws {JuneError} what `runCommand` lists as thrown before the run starts.
 */
export async function localRunSession(
  file: string,
  options: RunCommandOptions,
  io: CliIO,
  loaded?: LoadedWorkflow,
): Promise<RunSession> {
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
    return await startedSession(file, given, io, inputs);
  } catch (error) {
    await inputs.threadLease?.release();
    await inputs.lease?.release();
    throw error;
  }
}

/** How {@link startedSession} treats a run that stops: resumable from `file`, or not at all. */
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
 * Starts `inputs.workflow.component` in this process (`june run` once its inputs are read,
 * and, with `--resume`, the run is this process's; `june try-tool`'s one-tool tree) with the
 * trace writer as its consumer, answering its requests as `--approve` says where the run
 * runs (a policy; with `--approve studio|wait`, the answers file Studio and `june approve`
 * write), and gives it to a runs-folder host: the session the follow loop reads. Stop
 * signals from the run's start on are queued for that loop. The session's `close` lets go
 * of the run's lease and its thread's hold.
 */
export async function startedSession(
  file: string,
  options: RunCommandOptions,
  io: CliIO,
  inputs: RunInputs,
  how: RunStartedOptions = {},
): Promise<RunSession> {
  const resumable = how.resumable !== false;
  const otlp = await otlpExport(options, io);
  const host = await localRunHost({ dir: runsFolder, workflows: {} });
  let started: ReturnType<typeof startRun>;
  try {
    started = startRun(inputs, options, otlp, how.consumer);
  } catch (thrown) {
    await host.close();
    await otlp?.shutdown();
    throw thrown;
  }
  const { handle, writer, traceFailure } = started;
  // the run is going (its MCP servers may be starting): a signal from now on stops it cleanly
  const signals = queuedStopSignals();
  const runId = handle.runId;
  let error: unknown;
  handle.result.catch((thrown: unknown) => (error = thrown));
  const thread = options.thread !== undefined ? { thread: options.thread } : {};
  host.attach({ workflow: inputs.workflow.name, runId, ...thread }, handle);
  const keptScript = resumable ? await keepRunScript(options, runId, io) : false;
  const studio = await studioAnswers(file, handle, options, resumable);
  const style = terminalStyle(io.stdout);
  return {
    host,
    runId,
    headline: headline(inputs.workflow, runId, options, style),
    signals,
    here: { abandon: (reason, signal) => writeAbandonedTrace(writer, reason, signal) },
    waits: resumable,
    report: localReport(file, options, inputs, how, {
      runId,
      error: () => error,
      keptScript,
      traceFailure,
    }),
    async close() {
      signals.off();
      await studio?.close();
      await otlp?.shutdown();
      await host.close();
      await inputs.threadLease?.release();
      await inputs.lease?.release();
    },
  };
}

/**
 * What the report of a run of this process says besides its trace: the workflow file and the
 * error as thrown (the place of a workflow's own error), the script model (a thread's run's
 * holds later runs' turns too: not warned of) and `--prices`, the runs folder's trace file
 * (none for a run its thread refused: its trace went), and the resume line.
 */
function localReport(
  file: string,
  options: RunCommandOptions,
  inputs: RunInputs,
  how: RunStartedOptions,
  run: { runId: string; error: () => unknown; keptScript: boolean; traceFailure: () => unknown },
): SessionReport {
  const { runId } = run;
  return {
    workflow: inputs.workflow,
    error: run.error,
    ...(options.thread === undefined && inputs.model ? { model: inputs.model } : {}),
    ...(inputs.prices ? { prices: inputs.prices } : {}),
    ...(how.usage === false ? { usage: false } : {}),
    ...(how.failedCall ? { failedCall: how.failedCall } : {}),
    async traceFile() {
      if (await forgetRefused(run.error(), runId, run.keptScript, options)) return {};
      const failure = run.traceFailure();
      return {
        path: join(runsFolder, `${runId}.json`),
        ...(failure !== undefined ? { failure } : {}),
      };
    },
    ...(how.resumable !== false
      ? { resume: (resumeWith: ResumeWith) => resumeLine(file, runId, options, resumeWith) }
      : {}),
  };
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

/**
 * The resume line; a refused run's adds what the refusal asks for, so it does not stop the
 * same way. A run resumed with the script it keeps (a fork's, a resume's without `--script`)
 * is resumed with it again without naming it.
 */
function resumeLine(
  file: string,
  runId: string,
  options: RunCommandOptions,
  resumeWith: ResumeWith,
): string {
  // the script the run keeps answers its resume by itself: no --script naming that copy
  const { script, ...rest } = options;
  const kept = script === keptScriptPath(runsFolder, runId);
  return printedResumeCommand(file, runId, {
    ...(kept ? rest : options),
    ...resumeWith,
  });
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
  error: unknown,
  runId: string,
  keptScript: boolean,
  options: RunCommandOptions,
): Promise<boolean> {
  if (options.resume !== undefined) return false;
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
 * `--script`. A resume given a `--script` of its own replaces the kept one, so a later
 * resume without `--script` is answered by the script the last one was given. A script that
 * cannot be kept is said on stderr, and the run goes on.
 *
 * @returns true when the script was kept by this call.
 */
async function keepRunScript(
  options: RunCommandOptions,
  runId: string,
  io: CliIO,
): Promise<boolean> {
  if (options.script === undefined) return false;
  // a resume given a script of its own keeps that one from now on; the kept one is kept as it is
  const replace =
    options.resume !== undefined && options.script !== keptScriptPath(runsFolder, runId);
  try {
    return await keepScriptFile(runsFolder, runId, options.script, { replace });
  } catch (error) {
    io.stderr.write(
      `june: the model script was not kept with run ${runId} (${(error as Error).message}); a resume or a fork of it needs --script ${options.script} again.\n`,
    );
    return false;
  }
}
