import { join, resolve } from 'node:path';
import { context } from '@opentelemetry/api';
import type { ApprovalRequest } from '../approvals/index.js';
import { WorkflowError } from '../errors/index.js';
import type { RunResult } from '../interpreter/index.js';
import { handleEvent } from '../events/index.js';
import {
  fileJournalStore,
  loadJournal,
  readRunJournal,
  type JournalRecord,
  type JournalStore,
} from '../journal/index.js';
import {
  loadScript,
  scriptAfterJournal,
  scriptedModel,
  type ScriptedModel,
} from '../testing/index.js';
import type { Trace } from '../trace/index.js';
import { traceWriter } from '../events/index.js';
import { ApprovalPrompter } from './approval-prompter.js';
import { approvalPolicy, type ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, exitCodeOf, type ExitCodeValue } from './exit-code.js';
import { formatDuration, formatTokens } from './format.js';
import { loadWorkflow } from './load-workflow.js';
import { parseProps } from './parse-props.js';
import { cliRedaction, resumedProps, type RedactionFlags } from './cli-redaction.js';
import { ProgressPrinter } from './progress-printer.js';
import { runFailureMessage } from './run-failure-message.js';
import {
  onStopSignals,
  stopSignals,
  writeAbandonedTrace,
  type StopSignal,
} from './stop-signals.js';
import { terminalStyle } from './terminal-style.js';
import { terminalJson, visibleText } from './visible-text.js';

/** The flags of `june run`. */
export interface RunCommandOptions extends RedactionFlags {
  /** `--props`: the root component's props, as a JSON object. */
  props?: string;
  /** `--script`: a model script file; every model call of the run is answered from it. */
  script?: string;
  /** `--approve`: ask a person (`ask`), approve all (`all`), deny all (`none`), or leave requests pending (`wait`). @default 'ask' */
  approve?: ApproveMode;
  /** `--trace`: a file to write the trace to, besides `.june/runs/<runId>.json`. */
  trace?: string;
  /** `--json`: print each run event as a line of JSON instead of progress (no prompts); implies `stream: false`. */
  json?: boolean;
  /** `--no-stream` (`false`): model answers come whole (`run()`'s `stream: false`), text one delta per turn. @default true */
  stream?: boolean;
  /** `--resume`: the id of a run to take up again from its journal (in `.june/runs/<runId>/`). */
  resume?: string;
  /** `--replay`: a run id or a `journal.jsonl` file whose recorded model calls answer every model call. */
  replay?: string;
  /** `--strict`: fail the run on a workflow error at any depth and on script turns that never ran (see `RunOptions.strict`). */
  strict?: boolean;
  /** `--otel`: export the run's spans over OTLP/HTTP, configured by the standard `OTEL_*` variables (see `startOtlpExport`). */
  otel?: boolean;
  /** `--otel-record-inputs`: step prompts and tool inputs on the spans (implies `--otel`). */
  otelRecordInputs?: boolean;
  /** `--otel-record-outputs`: step results and tool outputs on the spans (implies `--otel`). */
  otelRecordOutputs?: boolean;
}

/** The folder, under the current directory, where `june run` keeps traces. */
export const runsFolder = join('.june', 'runs');

/**
 * `june run <file>`: loads the workflow, runs its default export, prints progress (or JSON
 * events), answers approvals as `--approve` says, and writes the trace to
 * `.june/runs/<runId>.json` (and `--trace`) as the run goes, whatever way it ends. The run's
 * journal goes to `.june/runs/<runId>/journal.jsonl`; `--resume <runId>` takes a stopped run
 * up again from it (its props too, unless `--props`; with `--script`, without the turns the
 * journal already answered), and `--replay` answers every model call from a recorded one.
 *
 * @returns the exit code: 0 when the run succeeded, 1 when it failed or could not ask for an
 *   approval; after a stop signal (the run aborted, its trace written): 130 for Ctrl-C
 *   (SIGINT), 143 for SIGTERM, 129 for SIGHUP. A second signal quits at once, leaving the
 *   trace settled as `aborted`.
 * @throws {JuneError} before the run starts: `cli-props-invalid`, `cli-workflow-missing`,
 *   `cli-option-invalid` (`--resume` with `--replay`, `--replay` with `--script`),
 *   `script-unreadable`, `script-invalid` (bad usage), the workflow's load errors
 *   (`workflow-load-failed`, `workflow-default-missing`, `workflow-default-invalid`) and
 *   the journal's (`journal-missing`, `journal-corrupt`, `journal-mismatch`,
 *   `journal-unreadable`, `journal-version-unsupported`).
 * @example
 * ```ts
 * process.exitCode = await runCommand('examples/release.tsx', { script: 'examples/release.script.json', approve: 'all' }, processIO());
 * ```
 */
export async function runCommand(
  file: string,
  options: RunCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const given = options.props === undefined ? undefined : parseProps(options.props);
  const { secretProps, redact } = cliRedaction(options);
  const scriptModel = options.script === undefined ? undefined : scriptedModel(options.script);
  const workflow = await loadWorkflow(file);
  // every run keeps a journal; --resume and --replay read one first (a bad one stops here, before any trace is written)
  const journal = fileJournalStore({ dir: runsFolder });
  const recorded = await recordedJournal(options, journal, workflow.name);
  const props = given
    ? { ...given, ...secretProps }
    : resumedProps(recorded?.[0]?.type === 'journal' ? recorded[0].props : undefined, secretProps);
  const model =
    options.script !== undefined && options.resume !== undefined && recorded
      ? resumedScript(options.script, recorded)
      : scriptModel;
  const approve = options.approve ?? 'ask';
  const json = options.json === true;
  const promptOutput = io.stdout.isTTY ? io.stdout : io.stderr.isTTY ? io.stderr : undefined;
  const prompting =
    approve === 'ask' && !json && io.stdin.isTTY === true && promptOutput !== undefined;
  const style = terminalStyle(io.stdout);
  const jsonChars =
    io.stdout.isTTY && io.stdout.columns ? Math.max(40, io.stdout.columns - 16) : 120;
  const printer = new ProgressPrinter(io.stdout, style, {
    approvalsPrompted: prompting,
    jsonChars,
  });

  const otlp = await otlpExport(options, io);
  const startedAt = Date.now();
  const onApproval = approvalPolicy(approve);
  let traceFailure: unknown;
  const writer = traceWriter({
    dir: resolve(runsFolder),
    ...(options.trace === undefined ? {} : { paths: [resolve(options.trace)] }),
    onError: (error) => (traceFailure = error),
  });
  const start = () =>
    workflow.june.run(workflow.component, {
      consumers: [writer],
      workflow: workflow.name,
      ...(props ? { props } : {}),
      ...(model ? { model } : {}),
      ...(onApproval ? { onApproval } : {}),
      journal,
      ...(redact ? { redact } : {}),
      // nobody reads --json output token by token: batch mode costs less
      ...(json || options.stream === false ? { stream: false } : {}),
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
      ...(options.replay !== undefined && recorded ? { replay: recorded } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(otlp ? { telemetry: otlp.content } : {}),
    });
  const handle = otlp ? context.with(otlp.parent, start) : start();
  const tracePath = join(runsFolder, `${handle.runId}.json`);

  let stoppedBy: StopSignal | undefined;
  let refusal: string | undefined;
  const stop = (signal: StopSignal) => {
    if (stoppedBy) {
      // a second signal: quit now, leaving a settled trace (the journal is resumable as it is)
      writeAbandonedTrace(writer, stopSignals[stoppedBy].reason, signal);
      process.exit(stopSignals[stoppedBy].exitCode);
    }
    stoppedBy = signal;
    printer.end();
    const what = signal === 'SIGINT' ? 'interrupted' : `${signal} received`;
    io.stderr.write(
      `june: ${what}; aborting the run and writing its trace (${signal === 'SIGINT' ? 'press Ctrl-C again' : 'signal again'} to quit at once)\n`,
    );
    handle.abort(stopSignals[signal].reason);
  };
  const interrupt = () => stop('SIGINT');
  const refuse = (request: ApprovalRequest) => {
    if (refusal !== undefined) return;
    const why = json ? '--json does not prompt' : 'there is no terminal to ask at';
    refusal = `the tool "${request.tool}" in step "${request.step}" needs approval, but ${why}; pass --approve all to approve every request, or --approve none to deny them`;
    handle.abort(refusal);
  };
  const prompter = prompting
    ? new ApprovalPrompter({
        answerer: handle,
        printer,
        style,
        input: io.stdin,
        output: promptOutput!,
        onInterrupt: interrupt,
      })
    : undefined;

  if (!json) {
    const scripted = options.script === undefined ? '' : ` · model script ${options.script}`;
    const from =
      options.resume !== undefined
        ? ' · resumed from its journal'
        : options.replay !== undefined
          ? ` · replaying ${options.replay}`
          : '';
    io.stdout.write(
      `${style.bold(`june run ${workflow.label}`)}${style.dim(` · run ${handle.runId}${from}${scripted}`)}\n`,
    );
  }
  const stopListening = onStopSignals(stop);
  // Keeps the process alive while the run waits on something that holds no handle of its
  // own (a tool awaiting its abort signal), so Ctrl-C can still end it cleanly.
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    const events = (async () => {
      for await (const event of handle.log) {
        if (!json) printer.event(event);
        else {
          const shown = handleEvent(event);
          if (shown) io.stdout.write(`${terminalJson(shown)}\n`);
        }
        if (event.type === 'approval-request') {
          if (prompter) prompter.ask(event.request);
          else if (approve === 'ask') refuse(event.request);
        } else if (event.type === 'approval-withdraw') prompter?.withdraw(event.id);
      }
    })();
    const outcome = await handle.result.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await events;
    await prompter?.close();
    printer.end();

    const trace = writer.trace ?? handle.trace();
    if (traceFailure !== undefined)
      io.stderr.write(
        `june: warning: cannot write the trace ${tracePath}: ${(traceFailure as Error).message}\n`,
      );
    const durationMs = Date.now() - startedAt;
    if ('result' in outcome) {
      const failed = failuresText(outcome.result.trace.root.failures);
      if (!json)
        io.stdout.write(
          summary(
            `${style.success(`✓ succeeded in ${formatDuration(durationMs)}`)}${failed ? style.attention(` · ${failed}`) : ''}`,
            outcome.result.usage,
            tracePath,
            style.dim,
          ),
        );
      if (model) warnUnusedTurns(model, io);
      return ExitCode.success;
    }
    const status = trace.status === 'aborted' ? '■ aborted' : '✗ failed';
    if (!json)
      io.stdout.write(
        summary(
          style.failure(`${status} after ${formatDuration(durationMs)}`),
          trace.root.usage,
          tracePath,
          style.dim,
        ),
      );
    if (!json && trace.status === 'aborted') {
      const script = options.script === undefined ? '' : ` --script ${options.script}`;
      io.stdout.write(
        `${style.dim(`resume: june run ${file}${script} --resume ${handle.runId}`)}\n`,
      );
    }
    if (stoppedBy) return stopSignals[stoppedBy].exitCode;
    io.stderr.write(
      `${visibleText(refusal !== undefined ? `june: ${refusal}.` : runFailureMessage(outcome.error, workflow))}\n`,
    );
    return refusal !== undefined ? ExitCode.failed : exitCodeOf(outcome.error);
  } finally {
    clearInterval(keepAlive);
    stopListening();
    await otlp?.shutdown();
  }
}

/**
 * `--otel` (or a flag that implies it): the OpenTelemetry SDK, set up and registered before
 * the run starts, with what the spans may record; a failed export is a warning on stderr.
 */
async function otlpExport(options: RunCommandOptions, io: CliIO) {
  const content = {
    ...(options.otelRecordInputs ? { recordInputs: true } : {}),
    ...(options.otelRecordOutputs ? { recordOutputs: true } : {}),
  };
  if (!options.otel && Object.keys(content).length === 0) return undefined;
  const { startOtlpExport } = await import('./otlp-export.js');
  const warn = (message: string) =>
    io.stderr.write(`${visibleText(`june: warning: OpenTelemetry: ${message}`)}\n`);
  return { ...(await startOtlpExport({ warn })), content };
}

/**
 * The journal `--resume` or `--replay` names, read and checked (`undefined` without them).
 * `--replay` takes a run id, or a file (a path with a `/`, or ending in `.jsonl`).
 */
async function recordedJournal(
  options: RunCommandOptions,
  store: JournalStore,
  workflow: string,
): Promise<JournalRecord[] | undefined> {
  if (options.resume !== undefined && options.replay !== undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --resume and --replay do not go together: --resume takes a stopped run up again, --replay answers a new run from a recording.',
    );
  }
  if (options.replay !== undefined && options.script !== undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --replay answers every model call from the recording; leave out --script.',
    );
  }
  if (options.resume !== undefined) return readRunJournal(store, options.resume, workflow);
  if (options.replay === undefined) return undefined;
  const isFile = /[\\/]/.test(options.replay) || options.replay.endsWith('.jsonl');
  return isFile ? loadJournal(options.replay) : readRunJournal(store, options.replay);
}

/**
 * The `--script` model; when resuming, without the turns the journal already answered, so
 * the resumed run's first new model call gets the turn the stopped process would have used.
 */
function resumedScript(path: string, records: JournalRecord[]): ScriptedModel {
  const name = path.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
  return scriptedModel(scriptAfterJournal(loadScript(path), records), { name });
}

/** The run's last lines: how it ended, how long it took, its tokens, and where its trace is. */
function summary(
  status: string,
  usage: RunResult['usage'] | undefined,
  tracePath: string,
  dim: (text: string) => string,
): string {
  return `${status}${dim(` · ${formatTokens(usage)}`)}\n${dim(`trace: ${tracePath}`)}\n`;
}

/** `1 tool failed · 2 failures caught` for what failed inside a run that succeeded; empty when nothing did. */
function failuresText(failures: Trace['root']['failures']): string {
  if (!failures) return '';
  const parts = [];
  if (failures.tools > 0)
    parts.push(`${failures.tools} tool${failures.tools === 1 ? '' : 's'} failed`);
  if (failures.caught > 0)
    parts.push(`${failures.caught} failure${failures.caught === 1 ? '' : 's'} caught`);
  return parts.join(' · ');
}

function warnUnusedTurns(model: ScriptedModel, io: CliIO): void {
  try {
    model.assertAllTurnsUsed();
  } catch (error) {
    io.stderr.write(
      `${visibleText((error as Error).message.replace(/^june: /, 'june: warning: '))}\n`,
    );
  }
}
