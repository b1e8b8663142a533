import { budgetQuestion, isEscalation, type ApprovalRequest } from '../approvals/index.js';
import type { RunTraceWriter } from '../events/index.js';
import type { RunHandle } from '../interpreter/index.js';
import { ApprovalPrompter } from './approval-prompter.js';
import type { ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import type { ProgressPrinter } from './progress-printer.js';
import type { StudioAnswers } from '../host/studio-answers.js';
import { stopSignals, writeAbandonedTrace, type StopSignal } from './stop-signals.js';
import type { TerminalStyle } from './terminal-style.js';

/** Options of {@link RunControl}. */
export interface RunControlOptions {
  handle: RunHandle;
  /** The trace writer: a second stop signal settles its trace before quitting. */
  writer: RunTraceWriter;
  printer: ProgressPrinter;
  style: TerminalStyle;
  io: CliIO;
  /** `--approve`. */
  approve: ApproveMode;
  /** `--json`: no prompts. */
  json: boolean;
  /** `--approve-escalations`: `--approve all` or `none` answers a guard's escalations too. */
  approveEscalations?: boolean;
  /** Where approval prompts are drawn, when requests are asked at the terminal (see {@link runPrompting}). */
  promptOutput: NodeJS.WriteStream | undefined;
  /**
   * `false` for a run nothing resumes (`june try-tool`, which has no `--approve wait`): a
   * refusal names only what answers it now. @default true
   */
  resumable?: boolean;
}

/**
 * What steers a `june run` while it runs: stop signals (the first aborts the run and lets
 * its trace be written, a second quits at once), and approval requests (prompted at the
 * terminal with `--approve ask` when there is one: the prompter is connected to the run's
 * inbox as its `terminal` source; else refused: the run is aborted with a sentence saying
 * which flag to pass).
 */
export class RunControl {
  /** The signal that stopped the run, if one did. */
  stoppedBy: StopSignal | undefined;
  /** The prompt saw the terminal close and stopped the run as on SIGHUP, before any signal came. */
  #hungUp = false;
  /** Why an approval request could not be asked, if one could not. */
  refusal: string | undefined;
  /**
   * What a resume of a refused run needs besides the run's own flags, as the refusal says:
   * `--approve-escalations` for a guard's escalation or a budget's request under
   * `--approve all` or `none`, `--approve wait` for a question there (answered with
   * `june approve`); nothing when the refusal names no flag that answers it.
   */
  resumeWith: { approveEscalations?: true; approve?: 'wait' } | undefined;
  /** The terminal prompter, when requests are asked there. */
  readonly prompter: ApprovalPrompter | undefined;
  /** Answers from June Studio, with `--approve studio` or `wait` (set once registered). */
  studio: StudioAnswers | undefined;
  readonly #options: RunControlOptions;

  constructor(options: RunControlOptions) {
    this.#options = options;
    const { handle, printer, style, io, promptOutput } = options;
    this.prompter =
      promptOutput !== undefined
        ? new ApprovalPrompter({
            printer,
            style,
            input: io.stdin,
            output: promptOutput,
            onInterrupt: () => this.stop('SIGINT'),
            onHangup: () => {
              if (this.stoppedBy) return;
              this.#hungUp = true;
              this.stop('SIGHUP');
            },
          })
        : undefined;
    if (this.prompter) handle.connect(this.prompter);
  }

  /** A stop signal came: abort the run (the first time) or quit now (the second). */
  readonly stop = (signal: StopSignal): void => {
    const { handle, writer, printer, io } = this.#options;
    if (this.stoppedBy) {
      // the SIGHUP of a terminal whose closing the prompt saw first is that same hang-up
      if (signal === 'SIGHUP' && this.#hungUp) {
        this.#hungUp = false;
        return;
      }
      // a second signal: quit now, leaving a settled trace (the journal is resumable as it is)
      writeAbandonedTrace(writer, stopSignals[this.stoppedBy].reason, signal);
      process.exit(stopSignals[this.stoppedBy].exitCode);
    }
    this.stoppedBy = signal;
    printer.end();
    const what = signal === 'SIGINT' ? 'interrupted' : `${signal} received`;
    io.stderr.write(
      `june: ${what}; aborting the run and writing its trace (${signal === 'SIGINT' ? 'press Ctrl-C again' : 'signal again'} to quit at once)\n`,
    );
    handle.abort(stopSignals[signal].reason);
  };

  /**
   * An approval request came: the prompter and Studio, the run's sources, hear of it from its
   * inbox; with `--approve ask` and nobody to ask, the run is refused, unless the request
   * was answered already (a `--script`'s answer).
   */
  request(request: ApprovalRequest): void {
    const { approve, approveEscalations } = this.#options;
    // --approve all and none leave a guard's escalation to a person, as ask does
    const asks =
      approve === 'ask' || (isEscalation(request) && !approveEscalations && answersAll(approve));
    if (!this.prompter && asks && this.#waits(request)) this.#refuse(request);
  }

  #waits(request: ApprovalRequest): boolean {
    return this.#options.handle.pendingApprovals.some((pending) => pending.id === request.id);
  }

  #refuse(request: ApprovalRequest): void {
    if (this.refusal !== undefined) return;
    const why = this.#options.json ? '--json does not prompt' : 'there is no terminal to ask at';
    const person =
      this.#options.resumable === false
        ? `pass --approve studio and answer it in Studio, or pass --approve-escalations to let --approve ${this.#options.approve} answer it too`
        : `pass --approve studio or --approve wait and answer it in Studio or with june approve, or pass --approve-escalations to let --approve ${this.#options.approve} answer it too`;
    this.resumeWith = refusedResume(request, this.#options.approve);
    this.refusal =
      request.budget !== undefined && answersAll(this.#options.approve)
        ? `${budgetQuestion(request.budget).replace(/; allow .*$/, '')} before the next model call of step "${request.step}", and allowing more needs a person's answer, but ${why}; ${person}`
        : request.guard !== undefined && answersAll(this.#options.approve)
          ? `the guard "${request.guard.name}" escalated the call of "${request.tool}" in step "${request.step}" (${request.guard.reason ?? 'no reason given'}), and a guard's escalation needs a person's answer, but ${why}; ${person}`
          : request.kind === 'question'
            ? `the question "${request.tool}" in step "${request.step}" (${JSON.stringify(request.question?.prompt ?? '')}) needs a person's answer, but ${why}; give its answer in the --script (a tool call's "answer": { "approved": false, "output": <value> }), or pass --approve wait and answer it from another shell with june approve <runId> <requestId> --answer <json> (june runs lists it), or pass --approve none to deny it (--approve all approves tool calls, not questions)`
            : `the tool "${request.tool}" in step "${request.step}" needs approval, but ${why}; pass --approve all to approve every request, or --approve none to deny them`;
    this.#options.handle.abort(this.refusal);
  }
}

/** What a resume of a run refused at `request` under `approve` needs (see {@link RunControl.resumeWith}). */
function refusedResume(request: ApprovalRequest, approve: ApproveMode): RunControl['resumeWith'] {
  if (!answersAll(approve)) return undefined;
  if (request.budget !== undefined || request.guard !== undefined)
    return { approveEscalations: true };
  return request.kind === 'question' ? { approve: 'wait' } : undefined;
}

/**
 * Where `june run` draws approval prompts: the terminal on stdout (or stderr, when stdout is
 * not one), with `--approve ask` (or `all` and `none`, whose policy leaves a guard's
 * escalations to a person), without `--json`, when stdin is a terminal too;
 * `undefined` when requests cannot be asked.
 */
export function runPrompting(
  io: CliIO,
  approve: ApproveMode,
  json: boolean,
  approveEscalations = false,
): NodeJS.WriteStream | undefined {
  const output = io.stdout.isTTY ? io.stdout : io.stderr.isTTY ? io.stderr : undefined;
  // with --approve all or none, the prompter hears only what the policy leaves: a guard's escalations
  const asks = approve === 'ask' || (!approveEscalations && answersAll(approve));
  return asks && !json && io.stdin.isTTY === true ? output : undefined;
}

/** `--approve all` and `none`: a policy answers every request but a guard's escalations. */
function answersAll(approve: ApproveMode | undefined): boolean {
  return approve === 'all' || approve === 'none';
}
