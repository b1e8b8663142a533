import { budgetQuestion, isEscalation, type ApprovalRequest } from '../approvals/index.js';
import { localUser } from '../approvals/local-user.js';
import { JuneError } from '../errors/index.js';
import { ApprovalPrompter, type ApprovalAnswerer } from './approval-prompter.js';
import type { ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import type { ProgressPrinter } from './progress-printer.js';
import type { ResumeWith, RunSession } from './run-session.js';
import { stopSignals, type StopSignal } from './stop-signals.js';
import { visibleText } from './visible-text.js';
import type { TerminalStyle } from './terminal-style.js';

/** Options of {@link RunControl}. */
export interface RunControlOptions {
  /** The run, on its host. */
  session: Pick<RunSession, 'host' | 'runId' | 'here' | 'waits'>;
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
}

/**
 * What steers a followed run while it runs, on any host: stop signals (for a run in this
 * process, the first aborts it through `host.cancel` and lets its trace be written, a second
 * quits at once; for a run elsewhere, one stops following), and approval requests (prompted
 * at the terminal with `--approve ask`, or what `--approve all|none` leaves to a person, when
 * there is one, and answered through `host.answer` as the `terminal` source; else refused:
 * the run is cancelled with a sentence saying which flag to pass).
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
  resumeWith: ResumeWith;
  /** The terminal prompter, when requests are asked there. */
  readonly prompter: ApprovalPrompter | undefined;
  readonly #options: RunControlOptions;
  /** The requests taken so far, in order: each is taken once the one before it was. */
  #requests: Promise<void> = Promise.resolve();

  constructor(options: RunControlOptions) {
    this.#options = options;
    const { printer, style, io, promptOutput } = options;
    this.prompter =
      promptOutput !== undefined
        ? new ApprovalPrompter({
            answerer: terminalAnswerer(options.session, io),
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
  }

  /**
   * A stop signal came. For a run in this process: abort the run (the first time) or quit now
   * (the second). For a run elsewhere: stop following it, saying so; it goes on.
   */
  readonly stop = (signal: StopSignal): void => {
    const { session, printer, io } = this.#options;
    if (!session.here) {
      io.stderr.write(
        `june: stopped following run ${session.runId}; it goes on in its worker (june cancel ${session.runId} --database … stops it).\n`,
      );
      process.exit(stopSignals[signal].exitCode);
    }
    if (this.stoppedBy) {
      // the SIGHUP of a terminal whose closing the prompt saw first is that same hang-up
      if (signal === 'SIGHUP' && this.#hungUp) {
        this.#hungUp = false;
        return;
      }
      // a second signal: quit now, leaving a settled trace (the journal is resumable as it is)
      session.here.abandon(stopSignals[this.stoppedBy].reason, signal);
      process.exit(stopSignals[this.stoppedBy].exitCode);
    }
    this.stoppedBy = signal;
    printer.end();
    const what = signal === 'SIGINT' ? 'interrupted' : `${signal} received`;
    io.stderr.write(
      `june: ${what}; aborting the run and writing its trace (${signal === 'SIGINT' ? 'press Ctrl-C again' : 'signal again'} to quit at once)\n`,
    );
    void session.host.cancel(session.runId, { reason: stopSignals[signal].reason }).catch(() => {});
  };

  /**
   * An approval request came (the run's `approval-request` event). One that still waits when
   * the host is asked (a script's answer, or `--approve all|none`, may have answered it) and
   * that is a person's (every request with `--approve ask`; with `all` or `none`, a guard's
   * escalation or a budget's request, unless `--approve-escalations`, and a question) is
   * prompted at the terminal; with nobody to ask there, the run is refused. Requests are
   * taken in the order they came.
   */
  request(request: ApprovalRequest): void {
    this.#requests = this.#requests.then(() => this.#take(request)).catch(() => {});
  }

  /** Resolves once every request so far was prompted, refused or found answered. */
  settled(): Promise<void> {
    return this.#requests;
  }

  async #take(request: ApprovalRequest): Promise<void> {
    const { approve, approveEscalations } = this.#options;
    const asks =
      approve === 'ask' ||
      (answersAll(approve) &&
        ((isEscalation(request) && !approveEscalations) || request.kind === 'question'));
    if (!asks || !(await this.#waits(request))) return;
    if (this.prompter) this.prompter.ask(request);
    else await this.#refuse(request);
  }

  async #waits(request: ApprovalRequest): Promise<boolean> {
    const { host, runId } = this.#options.session;
    const key = request.key ?? request.id;
    const decisions = await host.decisions(runId).catch(() => undefined);
    return decisions?.waiting.some((waiting) => waiting.key === key) ?? false;
  }

  async #refuse(request: ApprovalRequest): Promise<void> {
    if (this.refusal !== undefined) return;
    const { session, approve } = this.#options;
    const why = this.#options.json ? '--json does not prompt' : 'there is no terminal to ask at';
    const person =
      session.waits === false
        ? `pass --approve studio and answer it in Studio, or pass --approve-escalations to let --approve ${approve} answer it too`
        : `pass --approve studio or --approve wait and answer it in Studio or with june approve, or pass --approve-escalations to let --approve ${approve} answer it too`;
    this.resumeWith = refusedResume(request, approve);
    this.refusal =
      request.budget !== undefined && answersAll(approve)
        ? `${budgetQuestion(request.budget).replace(/; allow .*$/, '')} before the next model call of step "${request.step}", and allowing more needs a person's answer, but ${why}; ${person}`
        : request.guard !== undefined && answersAll(approve)
          ? `the guard "${request.guard.name}" escalated the call of "${request.tool}" in step "${request.step}" (${request.guard.reason ?? 'no reason given'}), and a guard's escalation needs a person's answer, but ${why}; ${person}`
          : request.kind === 'question'
            ? `the question "${request.tool}" in step "${request.step}" (${JSON.stringify(request.question?.prompt ?? '')}) needs a person's answer, but ${why}; give its answer in the --script (a tool call's "answer": { "approved": false, "output": <value> }), or pass --approve wait and answer it from another shell with june approve <runId> <requestId> --answer <json> (june runs lists it), or pass --approve none to deny it (--approve all approves tool calls, not questions)`
            : `the tool "${request.tool}" in step "${request.step}" needs approval, but ${why}; pass --approve all to approve every request, or --approve none to deny them`;
    await session.host.cancel(session.runId, { reason: this.refusal });
  }
}

/**
 * Answers the terminal's prompts through the run's host, as the `terminal` source and as the
 * user this process runs as. An edit or an answer the tool's schemas refuse
 * (`studio-approval-invalid`) rejects, so the prompt shows why and asks again; an answer to a
 * call answered elsewhere first changes nothing; any other failure is said on stderr.
 */
function terminalAnswerer(
  { host, runId }: Pick<RunSession, 'host' | 'runId'>,
  io: CliIO,
): ApprovalAnswerer {
  const user = localUser();
  const answer = async (
    key: string,
    given: { approved: boolean; reason?: string; input?: unknown; output?: unknown },
  ) => {
    try {
      await host.answer(runId, {
        key,
        ...given,
        ...(user !== undefined ? { answeredBy: user } : {}),
        source: 'terminal',
      });
    } catch (error) {
      const code = JuneError.isInstance(error) ? error.code : undefined;
      if (code === 'studio-approval-invalid') throw error;
      if (code === 'studio-approval-unknown') return;
      io.stderr.write(`${visibleText(String((error as Error).message ?? error))}\n`);
    }
  };
  return {
    approve: (id, input) =>
      answer(id, { approved: true, ...(input !== undefined ? { input } : {}) }),
    deny: (id, reason) =>
      answer(id, { approved: false, ...(reason !== undefined ? { reason } : {}) }),
    respond: (id, output) => answer(id, { approved: false, output }),
  };
}

/** What a resume of a run refused at `request` under `approve` needs (see {@link RunControl.resumeWith}). */
function refusedResume(request: ApprovalRequest, approve: ApproveMode): ResumeWith {
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
