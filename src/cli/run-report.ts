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
import type { Redactor } from '../redaction/redactor.js';
import type { ResumeWith, SessionReport } from './run-session.js';
import { runFailureMessage } from './run-failure-message.js';
import { stopSignals, type StopSignal } from './stop-signals.js';
import type { TerminalStyle } from './terminal-style.js';
import { visibleText } from './visible-text.js';

/** How a followed run ended, and what {@link reportRun} says about it. */
export interface RunReport {
  /** The run's final trace, from its host. */
  trace: Trace;
  /** The error it ended with: as thrown, when this process ran it; else read from its trace. */
  error: unknown;
  runId: string;
  /** How long it was followed, in ms. */
  durationMs: number;
  /** What its session adds: the workflow, the script model, `--prices`, the trace file, the resume line. */
  report: SessionReport;
  /** Redacts the `june:` line of a run whose events came from elsewhere. */
  redactor?: Redactor;
  stoppedBy: StopSignal | undefined;
  refusal: string | undefined;
  /** What the resume line adds after a refusal (`RunControl.resumeWith`). */
  resumeWith: ResumeWith;
  /** `--json`: no summary lines. */
  json: boolean;
  style: TerminalStyle;
  io: CliIO;
}

/**
 * The end of a followed run, on any host: a warning when its trace could not be written, its
 * summary lines (status, duration, tokens and cost, trace file; a resume line for an aborted
 * run its host resumes), warnings of unpriced calls and unused script turns, the failure on
 * stderr, and the exit code (see `runCommand`).
 */
export async function reportRun(ended: RunReport): Promise<ExitCodeValue> {
  const { trace, report, json, style, io } = ended;
  const file = await report.traceFile(trace);
  if (file.failure !== undefined && file.path !== undefined)
    io.stderr.write(
      `${visibleText(`june: warning: cannot write the trace ${file.path}: ${(file.failure as Error).message}`)}\n`,
    );
  const tracePath = file.path;
  const took = formatDuration(ended.durationMs);
  if (!json && report.prices) warnUnpriced(trace.root, report.prices, io);
  const usage = report.usage !== false ? trace.root.usage : false;
  if (trace.status === 'succeeded') {
    const failed = failuresText(trace.root.failures);
    if (!json)
      io.stdout.write(
        summary(
          `${style.success(`✓ succeeded in ${took}`)}${failed ? style.attention(` · ${failed}`) : ''}`,
          usage,
          trace.root,
          tracePath,
          style.dim,
        ),
      );
    if (report.model) warnUnusedTurns(report.model, io);
    const failedCall = report.failedCall?.(trace);
    if (failedCall === undefined) return ExitCode.success;
    io.stderr.write(`${visibleText(failedCall)}\n`);
    return ExitCode.failed;
  }
  const status = trace.status === 'aborted' ? '■ aborted' : '✗ failed';
  if (!json)
    io.stdout.write(
      summary(style.failure(`${status} after ${took}`), usage, trace.root, tracePath, style.dim),
    );
  const resume = trace.status === 'aborted' ? report.resume?.(ended.resumeWith) : undefined;
  if (!json && resume) io.stdout.write(`${style.dim(`resume: ${resume}`)}\n`);
  if (ended.stoppedBy) return stopSignals[ended.stoppedBy].exitCode;
  const { refusal } = ended;
  const line =
    refusal !== undefined
      ? `june: ${refusal}.`
      : report.workflow
        ? runFailureMessage(ended.error, report.workflow)
        : `june: the run ${ended.runId} ${trace.status}: ${(ended.error as Error | undefined)?.message ?? 'no message'}`;
  io.stderr.write(`${visibleText(ended.redactor ? ended.redactor.text(line) : line)}\n`);
  return refusal !== undefined ? ExitCode.failed : exitCodeOf(ended.error);
}

/**
 * The run's last lines: how it ended, how long it took, its tokens and cost (child runs
 * included; how many calls had no price; neither with `usage` `false`: no model was called),
 * and where its trace is (when it has one).
 */
function summary(
  status: string,
  usage: Trace['root']['usage'] | false,
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
