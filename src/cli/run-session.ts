import type { RunHost } from '../host/run-host.js';
import type { ModelPrices } from '../models/price.js';
import type { Redactor } from '../redaction/redactor.js';
import type { ScriptedModel } from '../testing/scripted-model.js';
import type { Trace } from '../trace/trace-node.js';
import type { LoadedWorkflow } from './load-workflow.js';
import type { QueuedStopSignals, StopSignal } from './stop-signals.js';

/**
 * One run that `june run` (or `june try-tool`, or `june fork`) started on its host, as the
 * one follow loop (`followRun`) sees it: the host and the run's id, what is shown before
 * its progress, and what its report says besides its trace. The host is chosen once, from
 * the flags (`openRunSession`); the loop asks the session, never which host it is.
 */
export interface RunSession {
  readonly host: RunHost;
  readonly runId: string;
  /** The lines shown before the run's progress (`june run <file> · run <id> · …`), not with `--json`. */
  readonly headline: string;
  /**
   * The stop signals since the run exists, queued until the follow loop handles them (a
   * signal that comes while the session is still being opened is not lost).
   */
  readonly signals: QueuedStopSignals;
  /**
   * Set when the run runs in this process and ends with it: the first stop signal aborts it
   * (through `host.cancel`), a second quits at once, with the trace settled by `abandon`.
   * Without it, a stop signal stops following, and the run goes on where it runs.
   */
  readonly here?: { abandon(reason: string, signal: StopSignal): void };
  /**
   * A sentence for stderr when the run has shown nothing for a while (a database's run that no
   * worker has taken); none for a run that starts here.
   */
  readonly idleNotice?: string;
  /**
   * Redacts what is shown of the run (each event, the end's `june:` line, a `--trace` written
   * here) for a run whose events come from elsewhere; a run in this process redacts its own.
   */
  readonly redactor?: Redactor;
  /**
   * `false` for a run that cannot wait for an answer from another shell (`june try-tool`):
   * a refused request names only what answers it now. @default true
   */
  readonly waits?: boolean;
  /** What the report says of the run besides its trace. */
  readonly report: SessionReport;
  /** Lets go of what the session holds (leases, answers files, exporters, the host). */
  close(): Promise<void>;
}

/**
 * What a resume of a refused run needs besides the run's own flags (`RunControl.resumeWith`):
 * `--approve-escalations`, or `--approve wait` for a question; nothing otherwise.
 */
export type ResumeWith = { approveEscalations?: true; approve?: 'wait' } | undefined;

/** What {@link RunSession.report} gives the end of a run. */
export interface SessionReport {
  /** The workflow file, for the places of a workflow's own error and the JSX set-up hint. */
  workflow?: Pick<LoadedWorkflow, 'file' | 'label' | 'tsconfig'>;
  /** The run's error as it was thrown, when this process ran it (its stack names the place). */
  error?(): unknown;
  /** The script model, to warn about turns that never ran. */
  model?: ScriptedModel;
  /** `--prices`, to warn about models they did not price. */
  prices?: ModelPrices;
  /**
   * Where the ended run's trace is, for the summary's last line: the runs folder's file (none
   * for a refused run whose trace went), or `--trace` written now; `failure` when it could
   * not be written.
   */
  traceFile(trace: Trace): Promise<{ path?: string; failure?: unknown }>;
  /** The command that resumes an aborted run (with what a refusal asks for); none where runs are not resumed from here. */
  resume?(extra: ResumeWith): string;
  /** `false` when no model was called (`june try-tool`): no tokens, no cost. @default true */
  usage?: boolean;
  /** What makes a run that succeeded fail all the same, as a `june:` line (`june try-tool`). */
  failedCall?(trace: Trace): string | undefined;
}
