import { localUser } from '../approvals/local-user.js';
import { WorkflowError } from '../errors/index.js';
import type { AnswerOutcome } from '../host/approval-desk.js';
import { openRunHost } from '../host/open-run-host.js';
import { isUnreadable, type RunListEntry } from '../host/run-list.js';
import { runState } from '../host/run-state.js';
import type { RunHost } from '../host/run-host.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import { refusedAnswersIn } from '../host/studio-answers.js';
import {
  approvalsInTrace,
  type RunApprovals,
  type WaitingApproval,
} from '../host/waiting-approvals.js';
import { childRunOf } from '../trace/composite-result.js';
import type { Trace, TraceApproval, TraceNode } from '../trace/trace-node.js';
import { answerSchemaSummary } from '../approvals/answer-schema-summary.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { quietDriver } from './quiet-driver.js';
import { terminalJson, visibleText } from './visible-text.js';

/** Where the run commands write: a command's standard output and error (text). */
export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** `--database <url>` or `--dir <folder>`: where the runs of `june runs`, `approve`, `cancel` live. */
export interface RunHostFlags {
  /** A PostgreSQL URL of runs over DBOS (`june worker --database`). */
  database?: string;
  /** The runs folder. @default ".june/runs" */
  dir?: string;
}

/**
 * Opens the run host the flags name (`openRunHost`: the database, else the runs folder),
 * runs `work` with it, and closes it.
 * @throws {SystemError} what `openRunHost` throws (`dbos-missing`, `database-unreachable`,
 *   `database-auth-failed`).
 */
export async function withRunHost<T>(
  flags: RunHostFlags,
  work: (host: RunHost) => Promise<T>,
): Promise<T> {
  if (flags.database !== undefined) quietDriver();
  const host = await openRunHost({
    ...(flags.database !== undefined ? { database: flags.database } : {}),
    ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
  });
  try {
    return await work(host);
  } finally {
    await host.close().catch(() => {});
  }
}

/** The flags of `june runs`. */
export interface RunsCommandOptions {
  /** `--json`: one JSON object per run (its list entry, with `waiting` and `held` calls). */
  json?: boolean;
  /** `--limit <n>`: at most this many runs, newest first. @default 50 */
  limit?: number;
}

/**
 * `june runs`: the host's runs, newest first, one line each (`<runId>  <workflow>  <state>`,
 * the worker and a failed run's error where the host knows them), then a line for each call
 * that waits for an answer (`  waiting: <requestId> · <tool> <input> (step <step>; key <key>)`,
 * the key without the run's id, left out when it is the request id; a question's
 * `  question: <requestId> · <tool> "<prompt>" (step <step>; key <key>); answer: <what fits>`)
 * and each approved call held until its turn is answered (`  held: ...`).
 */
export async function runsCommand(
  host: RunHost,
  io: CommandOutput,
  options: RunsCommandOptions = {},
): Promise<ExitCodeValue> {
  const runs = (await host.list()).slice(0, options.limit ?? 50);
  if (runs.length === 0 && !options.json) io.stdout.write(`no runs in ${host.label}\n`);
  for (const run of runs) {
    const decisions = await decisionsOf(host, run);
    if (options.json) {
      const calls = { waiting: decisions?.waiting ?? [], held: decisions?.held ?? [] };
      io.stdout.write(`${terminalJson({ ...run, ...calls })}\n`);
      continue;
    }
    if (isUnreadable(run)) {
      io.stdout.write(visibleText(`${run.runId}  unreadable: ${run.unreadable}`) + '\n');
      continue;
    }
    const worker = run.worker ? ` · worker ${run.worker}` : '';
    const error = run.error ? ` · ${run.error}` : '';
    io.stdout.write(
      visibleText(`${run.runId}  ${run.workflow ?? '-'}  ${run.status}${worker}${error}`) + '\n',
    );
    for (const call of decisions?.waiting ?? []) {
      // the key june approve takes too (without the run's id), when it is not the request id
      const short = shortKey(call.key, run.runId);
      const where = `step ${call.step}${short === call.requestId ? '' : `; key ${short}`}`;
      io.stdout.write(
        visibleText(
          call.kind === 'question' && call.question
            ? `  question: ${call.requestId} · ${call.tool} ${JSON.stringify(call.question.prompt)} (${where}); answer: ${answerSchemaSummary(call.question.answerSchema)}`
            : `  waiting: ${call.requestId} · ${call.tool} ${JSON.stringify(call.input)} (${where})`,
        ) + '\n',
      );
    }
    for (const call of decisions?.held ?? [])
      io.stdout.write(
        visibleText(
          `  held: ${call.requestId} · ${call.tool} ${JSON.stringify(call.input)} (step ${call.step}; approved, runs once the requests of its turn are answered)`,
        ) + '\n',
      );
    if (decisions?.state === 'stopped')
      io.stdout.write(
        visibleText(
          decisions.resumable
            ? `  stopped while waiting: june approve ${run.runId} resumes it`
            : `  stopped while waiting, not resumed by june approve: ${decisions.notResumable ?? `it left no resume details (runs with --approve wait or studio do); june run ${run.workflow ?? '<file>'} --resume ${run.runId} asks again`}`,
        ) + '\n',
      );
  }
  return ExitCode.success;
}

/** What a listed run waits for, when it may wait for anything; a run gone meanwhile waits for nothing. */
async function decisionsOf(host: RunHost, run: RunListEntry): Promise<RunApprovals | undefined> {
  if (isUnreadable(run) || (run.status !== 'waiting' && !run.pendingApprovals)) return undefined;
  try {
    return await host.decisions(run.runId);
  } catch (error) {
    if (error instanceof StudioRequestError) return undefined;
    throw error;
  }
}

/** The flags of `june approve`, as given. */
export interface ApproveCommandOptions extends RunHostFlags {
  /** `--all`: every waiting request of the run. */
  all?: boolean;
  /** `--deny`: deny instead of approve. */
  deny?: boolean;
  /** `--reason`: the reason the model sees with a denial. */
  reason?: string;
  /** `--input <json>`: approve, the call running with this input (JSON text) instead of the model's. */
  input?: string;
  /** `--answer <json>`: answer instead of the tool (JSON text); the model reads it as the call's result. */
  answer?: string;
}

/** What `june approve` was asked, checked: the run, one request or all, and the decision. */
export interface ApproveRequest {
  runId: string;
  /** The request's id (as `june runs` shows it) or its key; absent for `--all`. */
  requestId?: string;
  decision: Decision;
  reason?: string;
}

type Decision = { approved: boolean; input?: unknown; output?: unknown };

/**
 * Checks the arguments of `june approve` before any host is opened.
 * @throws {WorkflowError} `cli-option-invalid`: no run id; neither or both of a request id
 *   and `--all`; `--input`/`--answer` text that is not JSON; `--input` with `--deny` or `--answer`.
 */
export function approveRequest(
  runId: string | undefined,
  requestId: string | undefined,
  options: ApproveCommandOptions,
): ApproveRequest {
  if (runId === undefined)
    throw new WorkflowError(
      'cli-option-invalid',
      'june: june approve needs the id of the run to answer: june approve <runId> [<requestId> | --all]; june runs lists the runs of .june/runs with their ids and waiting requests (june runs --database <url>: those of a database).',
    );
  if ((requestId === undefined) === (options.all !== true))
    throw new WorkflowError(
      'cli-option-invalid',
      'june: june approve takes a request id or --all (one of them); june runs lists the waiting requests.',
    );
  return {
    runId,
    ...(requestId !== undefined ? { requestId } : {}),
    decision: decisionOf(options),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
  };
}

/**
 * `june approve <runId> [<requestId> | --all] [--deny --reason ...]`: answers calls a run
 * waits for on its host. A live run takes the answers; a stopped run of a runs folder is
 * resumed with them (the host's `answer`). Exits 0 when every answer was taken, else 1 with
 * a `june:` line for each other one (the answer that stands, or what the run waits for).
 * Says so on stderr when a live run has not taken its answers within 3 s.
 *
 * @throws {StudioRequestError} `studio-run-missing` for a run the host does not have.
 */
export async function approveCommand(
  host: RunHost,
  io: CommandOutput,
  request: ApproveRequest,
): Promise<ExitCodeValue> {
  const { runId, decision } = request;
  const decisions = await host.decisions(runId);
  const targets = targetsOf(decisions, request.requestId);
  if (targets === undefined) return unknownRequest(io, decisions, request.requestId ?? '');
  if (targets.length === 0) {
    const ended = await endedState(host, runId);
    if (ended !== undefined) {
      io.stderr.write(
        `june: the run ${runId} has ended (${ended}); there is nothing to approve.\n`,
      );
      return ExitCode.failed;
    }
    io.stdout.write(`run ${runId} has no approval request waiting\n`);
    return ExitCode.success;
  }
  const user = localUser();
  const outcomes: AnswerOutcome['delivered'][] = [];
  const live: string[] = [];
  for (const target of targets) {
    let outcome: AnswerOutcome;
    try {
      outcome = await host.answer(runId, {
        key: target.key,
        ...decision,
        ...(request.reason !== undefined ? { reason: request.reason } : {}),
        ...(user !== undefined ? { answeredBy: user } : {}),
        source: 'cli',
      });
    } catch (error) {
      io.stderr.write(`${visibleText(await refusedText(host, runId, target, decision, error))}\n`);
      continue;
    }
    outcomes.push(outcome.delivered);
    if (outcome.delivered === 'live') live.push(target.key);
    io.stdout.write(
      `${answerLine(decision, `${visibleText(target.shown)} of run ${runId}`, target.kind)}\n`,
    );
  }
  if (outcomes.includes('resumed')) io.stdout.write(`resumed run ${runId}\n`);
  if (outcomes.includes('recorded'))
    io.stderr.write(
      `june: the run ${runId} stopped, and is not resumed from here${decisions.notResumable ? ` (${decisions.notResumable})` : ''}; the answer is kept for june run <file> --resume ${runId} --approve studio, which takes it.\n`,
    );
  // a resumed run's new process takes its answers once it is up, which may take longer
  const untaken = outcomes.includes('resumed')
    ? []
    : await untakenAnswers(host, runId, live, TAKEN_WAIT_MS);
  if (untaken.length > 0)
    io.stderr.write(
      `june: the run ${runId} has not taken ${untaken.length === 1 ? 'the answer' : `${untaken.length} answers`} yet: no worker is running it now, or every worker is busy. ${untaken.length === 1 ? 'It is' : 'They are'} stored, and no other answer counts; the run goes on once a worker takes it up (june worker <file> --database <url>).\n`,
    );
  const refused = await reportRefused(host, io, runId, decision, live, targets);
  return outcomes.length === targets.length && refused === 0 ? ExitCode.success : ExitCode.failed;
}

/**
 * What `june approve` says of an answer the host refused (`error`); other errors, and a run
 * the host does not have, are thrown again.
 */
async function refusedText(
  host: RunHost,
  runId: string,
  target: { key: string; shown: string; kind?: 'question' },
  decision: Decision,
  error: unknown,
): Promise<string> {
  if (!(error instanceof StudioRequestError) || error.code === 'studio-run-missing') throw error;
  if (error.code !== 'studio-approval-unknown') return error.message;
  // a host that names the answer that stands (a database: who stored it, when) says it best,
  // even before the run's trace shows that answer
  if (error.refusal === 'answered' && error.message.includes(' was answered already: '))
    return error.message;
  return notWaitingText(host, runId, target, decision, error.refusal);
}

/**
 * Why the run took no answer to `target` (the host refused it as `studio-approval-unknown`,
 * for `refusal`: `answered`, `withdrawn`, `unknown`), as `june approve` says it: the answer
 * that stands, as the run's trace shows it (approved or denied, why, through what, by whom,
 * when), and whether the run has ended; else that the call was answered already, or that
 * the run does not wait for it.
 */
async function notWaitingText(
  host: RunHost,
  runId: string,
  target: { key: string; shown: string; kind?: 'question' },
  decision: Decision,
  refusal: string | undefined,
): Promise<string> {
  const found = await host.readTrace(runId).catch(() => undefined);
  const trace = found && 'text' in found ? (JSON.parse(found.text) as Trace) : undefined;
  const settled = trace ? settledApprovalIn(trace, runId, target.key) : undefined;
  const ended = await endedState(host, runId);
  const call = `the call "${target.shown}" of run ${runId}`;
  if (settled) {
    const question = settled.kind === 'question';
    const how =
      settled.status === 'approved'
        ? settled.input !== undefined
          ? 'approved with an edited input'
          : 'approved'
        : settled.status === 'responded'
          ? question
            ? `answered ${JSON.stringify(settled.output)}`
            : 'answered instead of the tool'
          : question
            ? 'declined'
            : 'denied';
    const why = settled.reason !== undefined ? ` (${settled.reason})` : '';
    const through = settled.source !== undefined ? ` through ${settled.source}` : '';
    const by = settled.answeredBy !== undefined ? ` by ${settled.answeredBy}` : '';
    const at = settled.answeredAt !== undefined ? ` at ${settled.answeredAt}` : '';
    const given =
      decision.output !== undefined ? 'answer' : decision.approved ? 'approval' : 'denial';
    const run = ended !== undefined ? ` The run has ended (${ended}).` : '';
    return `june: ${call} was answered already: ${how}${why}${through}${by}${at}. That answer stands; this ${given} was not applied.${run}`;
  }
  if (refusal === 'answered')
    return `june: ${call} was answered already, and an answer counts once; june runs lists what the run waits for.`;
  return ended !== undefined
    ? `june: ${call} waits for no answer (withdrawn, or never asked), and the run has ended (${ended}); there is nothing to approve.`
    : `june: ${call} waits for no answer (withdrawn, or never asked); june runs lists what the run waits for.`;
}

/**
 * The answered approval of the call `key` (or whose key ends with `/key`, or whose request
 * id is `key`) in the trace, composite tools' runs included; undefined when the trace has no
 * such call, or it has no answer.
 */
function settledApprovalIn(trace: Trace, runId: string, key: string): TraceApproval | undefined {
  const stack: TraceNode[] = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const approval = node.approval;
    if (
      approval !== undefined &&
      (approval.key === key ||
        approval.key === `${runId}/${key}` ||
        approval.key?.endsWith(`/${key}`) === true ||
        approval.id === key) &&
      (approval.status === 'approved' ||
        approval.status === 'denied' ||
        approval.status === 'responded')
    )
      return approval;
    const child = childRunOf(node);
    if (child) stack.push(child.root);
    stack.push(...node.children);
  }
  return undefined;
}

/**
 * Prints the edits and answers instead of the tool (`decision`) among `keys`, taken by a live
 * run of the runs folder, that the run refused (an edit or an answer instead of the tool that the tool's schema does not take:
 * only the run has the tool), with why; the run denied those calls.
 * @returns how many it refused
 */
async function reportRefused(
  host: RunHost,
  io: CommandOutput,
  runId: string,
  decision: Decision,
  keys: string[],
  targets: { key: string; shown: string }[],
): Promise<number> {
  if (keys.length === 0 || (decision.input === undefined && decision.output === undefined))
    return 0;
  const found = await host.readTrace(runId).catch(() => undefined);
  if (!found || !('text' in found)) return 0;
  const refused = refusedAnswersIn(JSON.parse(found.text) as Trace, keys);
  for (const [key, message] of refused) {
    const shown = targets.find((target) => target.key === key)?.shown ?? key;
    io.stderr.write(
      `june: the run refused the answer to ${visibleText(shown)}: ${visibleText(message)}\n`,
    );
  }
  return refused.size;
}

/**
 * The calls to answer: every waiting one for `--all`; else the one whose key or request id
 * is `id`, or whose key without the run's id is (`release#1.0`, as `june serve` shows a
 * call) when exactly one waiting call's key ends so. With nothing waiting, `id` itself, for
 * the host to say why it does not wait; undefined when the run waits for calls, none of
 * them (or more than one) named by `id`.
 */
function targetsOf(
  decisions: RunApprovals,
  id: string | undefined,
): { key: string; shown: string; kind?: 'question' }[] | undefined {
  const kindOf = (call: WaitingApproval | undefined) =>
    call?.kind === 'question' ? { kind: 'question' as const } : {};
  if (id === undefined)
    return decisions.waiting.map((call) => ({
      key: call.key,
      shown: call.requestId,
      ...kindOf(call),
    }));
  const { waiting } = decisions;
  const ending = waiting.filter((call) => call.key.endsWith(`/${id}`));
  const call =
    waiting.find((call) => call.key === id) ??
    waiting.find((call) => call.requestId === id) ??
    (ending.length === 1 ? ending[0] : undefined);
  if (call === undefined && waiting.length > 0) return undefined;
  return [{ key: call?.key ?? id, shown: id, ...kindOf(call) }];
}

/**
 * Says on stderr why `june approve <runId> <id>` answers nothing although the run waits:
 * `id` names none of its calls (or several); and what it waits for, each as `june approve`
 * takes it. @returns {@link ExitCode.failed}
 */
function unknownRequest(io: CommandOutput, decisions: RunApprovals, id: string): ExitCodeValue {
  const { runId, waiting } = decisions;
  const named = waiting.filter((call) => call.key.endsWith(`/${id}`)).length;
  const calls = waiting
    .map(
      (call) =>
        `${call.requestId} (${call.kind === 'question' ? 'question' : 'tool'} ${call.tool}, step ${call.step}; key ${shortKey(call.key, runId)})`,
    )
    .join(', ');
  const why =
    named > 1
      ? `"${id}" names ${named} of the requests run ${runId} waits for`
      : `run ${runId} waits for no request "${id}"`;
  io.stderr.write(
    `${visibleText(`june: ${why}; it waits for ${calls}. Give one of those request ids or keys, or --all.`)}\n`,
  );
  return ExitCode.failed;
}

/** A call's key without the run's id in front (`release#1.0`), as `june serve` shows it. */
function shortKey(key: string, runId: string): string {
  return key.startsWith(`${runId}/`) ? key.slice(runId.length + 1) : key;
}

/** The state the run ended in as the host lists it, or undefined while it goes on. */
async function endedState(host: RunHost, runId: string): Promise<string | undefined> {
  const run = (await host.list()).find((entry) => entry.runId === runId);
  if (!run || isUnreadable(run)) return undefined;
  return run.status === 'running' || run.status === 'waiting' ? undefined : run.status;
}

/**
 * The keys among `keys` whose calls the run's trace still shows waiting after `waitMs`
 * (checked every 100 ms): answers a live run has not taken up.
 */
async function untakenAnswers(
  host: RunHost,
  runId: string,
  keys: string[],
  waitMs: number,
): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = await host.readTrace(runId).catch(() => undefined);
    if (!found || 'missing' in found) return [];
    // a database's trace is built from the run's events: it may take a moment to be read
    const pending =
      'text' in found
        ? approvalsInTrace(JSON.parse(found.text) as Trace).filter(
            (call) => call.status === 'pending',
          )
        : undefined;
    const untaken = pending
      ? keys.filter((key) => pending.some((call) => call.key === key || call.requestId === key))
      : [];
    if ((pending && untaken.length === 0) || Date.now() >= deadline) return untaken;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The decision the flags give: approve (with `--input`'s edit), `--deny`, or `--answer`
 * (instead of the tool, which is a denial that carries the output).
 * @throws {WorkflowError} `cli-option-invalid` for JSON that does not parse, or flags that
 *   contradict each other (`--input` with `--deny` or `--answer`).
 */
function decisionOf(options: ApproveCommandOptions): Decision {
  const json = (flag: string, text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new WorkflowError(
        'cli-option-invalid',
        `june: june approve ${flag} takes a JSON value, and ${JSON.stringify(text)} is not one (${(error as Error).message}); quote it for the shell, as in ${flag} '{"env":"staging"}' or ${flag} '"text"'.`,
      );
    }
  };
  if (options.input !== undefined && (options.deny === true || options.answer !== undefined))
    throw new WorkflowError(
      'cli-option-invalid',
      'june: june approve --input approves the call with another input, so it takes neither --deny nor --answer; give one of them.',
    );
  if (options.input !== undefined) return { approved: true, input: json('--input', options.input) };
  if (options.answer !== undefined)
    return { approved: false, output: json('--answer', options.answer) };
  return { approved: options.deny !== true };
}

/** How an applied answer to `what` (`entry#2.0 of run ...`; a question's, with `kind`) reads. */
function answerLine(decision: Decision, what: string, kind?: 'question'): string {
  if (kind === 'question')
    return decision.output !== undefined
      ? `answered the question ${what}`
      : `declined the question ${what}`;
  if (decision.output !== undefined) return `answered ${what} instead of the tool`;
  if (!decision.approved) return `denied ${what}`;
  return decision.input !== undefined
    ? `approved ${what} with an edited input`
    : `approved ${what}`;
}

/** How long `june approve` waits for a live run to take its answers before it says so, in ms. */
const TAKEN_WAIT_MS = 3000;

/**
 * `june cancel <runId>`: stops the run on its host (a database's worker aborts it; a runs
 * folder's live process is stopped); it ends aborted. A run that has ended already is left
 * as it ended: exit 1, saying how it ended.
 * @param where - the flags that named the host, for the command that lists its runs.
 * @throws {StudioRequestError} `studio-run-missing` naming `june runs`; {@link SystemError}
 *   `run-host-unsupported` for a runs folder's run whose process does not take answers from here.
 */
export async function cancelCommand(
  host: RunHost,
  io: CommandOutput,
  runId: string,
  where: RunHostFlags = {},
): Promise<ExitCodeValue> {
  const found = await host.readTrace(runId);
  if ('missing' in found) throw noRunToCancel(host, runId, where);
  const ended = 'text' in found ? endedOf(JSON.parse(found.text) as Trace) : undefined;
  if (ended !== undefined) {
    io.stderr.write(`june: the run ${runId} has ended (${ended}); there is nothing to cancel.\n`);
    return ExitCode.failed;
  }
  await host.cancel(runId);
  io.stdout.write(`cancelled run ${runId}\n`);
  return ExitCode.success;
}

/** The state a run ended in (`succeeded`, `failed`, `aborted`); undefined while it runs or waits. */
function endedOf(trace: Trace): string | undefined {
  const state = runState(trace);
  return state === 'running' || state === 'waiting' ? undefined : state;
}

/** `studio-run-missing` for `june cancel`, naming the command that lists the host's runs. */
function noRunToCancel(host: RunHost, runId: string, where: RunHostFlags): StudioRequestError {
  const message =
    where.database !== undefined
      ? `june: there is no run ${runId} in the database; see june runs --database for the runs there.`
      : `june: there is no run "${runId}" in ${host.label}; june runs${where.dir !== undefined ? ` --dir ${where.dir}` : ''} lists the runs there (add --database <url> for a database's).`;
  return new StudioRequestError('studio-run-missing', message, 404);
}
