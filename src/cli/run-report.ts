import type { RunResult } from '../interpreter/index.js';
import type { ScriptedModel } from '../testing/index.js';
import { costText, subtreeCost, type Trace } from '../trace/index.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, exitCodeOf, type ExitCodeValue } from './exit-code.js';
import { formatDuration, formatTokens } from './format.js';
import type { LoadedWorkflow } from './load-workflow.js';
import { runFailureMessage } from './run-failure-message.js';
import { stopSignals, type StopSignal } from './stop-signals.js';
import type { TerminalStyle } from './terminal-style.js';
import { visibleText } from './visible-text.js';

/** How a `june run` ended, and what {@link reportRun} says about it. */
export interface RunReport {
  outcome: { result: RunResult } | { error: unknown };
  /** Why the trace could not be written, if it could not. */
  traceFailure: unknown;
  /** The run's trace as written (or the handle's). */
  trace: Trace;
  runId: string;
  /** Where the trace is, for the last line. */
  tracePath: string;
  /** How long the run took, in ms. */
  durationMs: number;
  workflow: LoadedWorkflow;
  /** The command that resumes the run, for the resume line; `''` for a run that is not resumed. */
  resume: string;
  /** The script model, to warn about turns that never ran. */
  model: ScriptedModel | undefined;
  /** `--json`: no summary lines. */
  json: boolean;
  stoppedBy: StopSignal | undefined;
  refusal: string | undefined;
  style: TerminalStyle;
  io: CliIO;
}

/**
 * The end of a `june run`: a warning when the trace could not be written, its summary lines (status, duration, tokens, trace path; a resume
 * line for an aborted run), the failure on stderr, and the exit code (see `runCommand`).
 */
export function reportRun(report: RunReport): ExitCodeValue {
  const { outcome, trace, json, style, io } = report;
  if (report.traceFailure !== undefined)
    io.stderr.write(
      `june: warning: cannot write the trace ${report.tracePath}: ${(report.traceFailure as Error).message}\n`,
    );
  const took = formatDuration(report.durationMs);
  if ('result' in outcome) {
    const failed = failuresText(outcome.result.trace.root.failures);
    if (!json)
      io.stdout.write(
        summary(
          `${style.success(`✓ succeeded in ${took}`)}${failed ? style.attention(` · ${failed}`) : ''}`,
          outcome.result.usage,
          outcome.result.trace.root,
          report.tracePath,
          style.dim,
        ),
      );
    if (report.model) warnUnusedTurns(report.model, io);
    return ExitCode.success;
  }
  const status = trace.status === 'aborted' ? '■ aborted' : '✗ failed';
  if (!json)
    io.stdout.write(
      summary(
        style.failure(`${status} after ${took}`),
        trace.root.usage,
        trace.root,
        report.tracePath,
        style.dim,
      ),
    );
  if (!json && trace.status === 'aborted' && report.resume !== '') {
    io.stdout.write(`${style.dim(`resume: ${report.resume}`)}\n`);
  }
  if (report.stoppedBy) return stopSignals[report.stoppedBy].exitCode;
  const { refusal } = report;
  io.stderr.write(
    `${visibleText(refusal !== undefined ? `june: ${refusal}.` : runFailureMessage(outcome.error, report.workflow))}\n`,
  );
  return refusal !== undefined ? ExitCode.failed : exitCodeOf(outcome.error);
}

/**
 * The run's last lines: how it ended, how long it took, its tokens and cost (child runs
 * included; how many calls had no price), and where its trace is.
 */
function summary(
  status: string,
  usage: RunResult['usage'] | undefined,
  root: Trace['root'],
  tracePath: string,
  dim: (text: string) => string,
): string {
  const cost = costText(subtreeCost(root));
  return `${status}${dim(` · ${formatTokens(usage)}${cost ? ` · ${cost}` : ''}`)}\n${dim(`trace: ${tracePath}`)}\n`;
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
