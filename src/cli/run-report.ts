import type { RunResult } from '../interpreter/index.js';
import type { ModelPrices } from '../models/index.js';
import type { ScriptedModel } from '../testing/index.js';
import {
  callSpent,
  childRunOf,
  costText,
  subtreeCost,
  type Trace,
  type TraceNode,
} from '../trace/index.js';
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
  /** Where the trace is, for the last line; none for a run whose trace was removed (a refused run's). */
  tracePath?: string | undefined;
  /** How long the run took, in ms. */
  durationMs: number;
  workflow: LoadedWorkflow;
  /** The command that resumes the run, for the resume line; `''` for a run that is not resumed. */
  resume: string;
  /** `--prices`: the run's own prices, to warn about models they did not price. */
  prices?: ModelPrices | undefined;
  /** The script model, to warn about turns that never ran. */
  model: ScriptedModel | undefined;
  /** `--json`: no summary lines. */
  json: boolean;
  /**
   * `false` when no model was called (`june try-tool`'s scripted turns): the summary shows
   * no tokens and no cost. @default true
   */
  usage?: boolean;
  /**
   * For a run that succeeded: what made it fail all the same, as a `june:` line (a tried
   * call that failed or a guard rejected), read from its trace; the exit code is then 1.
   */
  failedCall?: (trace: Trace) => string | undefined;
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
  if (report.traceFailure !== undefined && report.tracePath !== undefined)
    io.stderr.write(
      `june: warning: cannot write the trace ${report.tracePath}: ${(report.traceFailure as Error).message}\n`,
    );
  const took = formatDuration(report.durationMs);
  if (!json && report.prices) warnUnpriced(trace.root, report.prices, io);
  const usage = report.usage !== false;
  if ('result' in outcome) {
    const failed = failuresText(outcome.result.trace.root.failures);
    if (!json)
      io.stdout.write(
        summary(
          `${style.success(`✓ succeeded in ${took}`)}${failed ? style.attention(` · ${failed}`) : ''}`,
          usage ? outcome.result.usage : false,
          outcome.result.trace.root,
          report.tracePath,
          style.dim,
        ),
      );
    if (report.model) warnUnusedTurns(report.model, io);
    const failedCall = report.failedCall?.(outcome.result.trace);
    if (failedCall === undefined) return ExitCode.success;
    io.stderr.write(`${visibleText(failedCall)}\n`);
    return ExitCode.failed;
  }
  const status = trace.status === 'aborted' ? '■ aborted' : '✗ failed';
  if (!json)
    io.stdout.write(
      summary(
        style.failure(`${status} after ${took}`),
        usage ? trace.root.usage : false,
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
 * included; how many calls had no price; neither with `usage` `false`: no model was called),
 * and where its trace is (when it has one).
 */
function summary(
  status: string,
  usage: RunResult['usage'] | undefined | false,
  root: Trace['root'],
  tracePath: string | undefined,
  dim: (text: string) => string,
): string {
  const cost = usage === false ? '' : costText(subtreeCost(root));
  const spent = usage === false ? '' : dim(` · ${formatTokens(usage)}${cost ? ` · ${cost}` : ''}`);
  return `${status}${spent}\n${tracePath === undefined ? '' : `${dim(`trace: ${tracePath}`)}\n`}`;
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

/**
 * With `--prices`, names the models whose calls still have no price (a key that matches no
 * model, such as `june:report` for `report.script.json`'s `june:report.script`), so the
 * summary's `cost unknown` has its reason.
 */
function warnUnpriced(root: TraceNode, prices: ModelPrices, io: CliIO): void {
  const unpriced = new Map<string, number>();
  const stack: TraceNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'model') {
      if (callSpent(node).unpriced === 0) continue;
      const key = `${node.provider?.split('.')[0] ?? '?'}:${node.model ?? node.name}`;
      unpriced.set(key, (unpriced.get(key) ?? 0) + 1);
      continue;
    }
    if (Array.isArray(node.children)) stack.push(...node.children);
    const child = childRunOf(node)?.root;
    if (child) stack.push(child);
  }
  if (unpriced.size === 0) return;
  const models = [...unpriced]
    .map(([key, calls]) => `${key} (${calls} call${calls === 1 ? '' : 's'})`)
    .join(', ');
  const keys = Object.keys(prices)
    .map((key) => JSON.stringify(key))
    .join(', ');
  io.stderr.write(
    `june: warning: --prices has no price for ${models}; its keys are ${keys || 'none'}. A key is "<provider>:<model id>" or the model id alone.\n`,
  );
}
