import type { ParallelProps } from '../components/parallel.js';
import { flattenChildren } from '../elements/children.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import { errorData } from '../errors/error-data.js';
import { errorMessage } from '../errors/error-message.js';
import type { ParallelBranchFailure } from '../errors/june-error-details.js';
import { JuneError, RunAbortedError, WorkflowError } from '../errors/june-error.js';
import type { AgentFrame, EvalContext, RunFrame } from './run-state.js';
import { statusOf } from './settle.js';
import type { RunLog } from './run-log.js';
import { branchSegment } from './branch-place.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/** One branch of a `<Parallel>`: its child and its key. */
interface Branch {
  child: JuneElement | string;
  key: string;
}

/** How a branch ended: the messages it added to its copy of the agent's conversation, or its error. */
type BranchOutcome = { ok: true; messages: AgentFrame['messages'] } | { ok: false; error: unknown };

/**
 * Evaluates a `<Parallel>`: each child is a branch, run at the same time as the others (at
 * most `limit` at once) in a frame of its own ({@link branchFrame}: its place among the
 * run's calls, its abort signal) and, inside an agent, a copy of the agent's conversation.
 * After the join the agent's conversation gains each branch's messages in declaration order.
 * `fail-fast` aborts the other branches at the first failure and throws it; `settle-all`
 * waits for every branch and throws `parallel-failed` naming those that failed. Outside a
 * run (`inspect()`, the static check) the branches are walked one after the other.
 *
 * @throws {WorkflowError} `parallel-limit-invalid`, `parallel-mode-invalid`,
 *   `parallel-key-duplicate`; {@link JuneError} `parallel-failed`; a branch's error in
 *   `fail-fast` mode; the run's abort.
 */
export async function evaluateParallel(
  element: JuneElement,
  ctx: EvalContext,
  evaluate: Evaluate,
): Promise<void> {
  const props = checkParallel(element);
  const branches = branchesOf(element, props);
  const { run } = ctx;
  const log = run.pass.services?.log;
  if (!log) {
    for (const branch of branches) {
      await evaluate(branch.child, {
        ...ctx,
        run: branchFrame(run, branch.key, run.signal),
        ...(ctx.agent ? { agent: forkAgent(ctx.agent) } : {}),
      });
    }
    return;
  }
  const mode = props.mode ?? 'fail-fast';
  const nodeId = log.nodeId(ctx.parentId, 'parallel');
  const place = { runId: run.runId, nodeId, parentId: ctx.parentId };
  log.emit({
    type: 'parallel-start',
    ...place,
    branches: branches.map((branch) => branch.key),
    mode,
    ...(props.limit !== undefined ? { limit: props.limit } : {}),
  });
  const stop = new AbortController();
  const fan: Fan = { ctx, log, evaluate, mode, nodeId, stop };
  fan.signal = AbortSignal.any([run.signal, stop.signal]);
  const outcomes = await limited(branches, props.limit ?? branches.length, (branch, index) =>
    runBranch(fan, branch, index),
  );
  const failed = outcomes.flatMap((outcome, i) =>
    outcome.ok ? [] : [{ key: branches[i]!.key, error: outcome.error }],
  );
  if (failed.length === 0) {
    // the join: each branch's exchange joins the agent's conversation, in declaration order
    for (const outcome of outcomes) {
      if (!outcome.ok) continue;
      ctx.agent?.messages.push(...outcome.messages);
      ctx.agent?.exchange?.push(...outcome.messages);
    }
    log.emit({ type: 'parallel-finish', ...place, status: 'succeeded' });
    return;
  }
  const error = run.signal.aborted
    ? (failed.find((f) => statusOf(f.error) === 'aborted')?.error ??
      new RunAbortedError(run.signal.reason))
    : mode === 'fail-fast'
      ? (fan.first ?? failed[0]!.error)
      : parallelFailed(element, failed, branches.length);
  const failure = { status: statusOf(error), error: errorData(error) };
  log.emit({ type: 'parallel-finish', ...place, ...failure, failed: failed.map((f) => f.key) });
  throw error;
}

/** One `<Parallel>` running: what its branches share. */
interface Fan {
  ctx: EvalContext;
  log: RunLog;
  evaluate: Evaluate;
  mode: 'fail-fast' | 'settle-all';
  /** The `<Parallel>`'s trace node. */
  nodeId: string;
  /** Aborts the branches (`fail-fast`, at the first failure). */
  stop: AbortController;
  /** The branches' signal: the run's and {@link stop}'s. */
  signal?: AbortSignal;
  /** The first failure that was not an abort of the branches. */
  first?: unknown;
}

/** Runs one branch between its `branch-start` and `branch-finish`, in its own frame and conversation. */
async function runBranch(fan: Fan, branch: Branch, index: number): Promise<BranchOutcome> {
  const { ctx, log, stop } = fan;
  const node = {
    runId: ctx.run.runId,
    branch: branch.key,
    nodeId: log.nodeId(fan.nodeId, `branch:${branch.key}`),
  };
  const at = { ...node, parentId: fan.nodeId };
  log.emit({ type: 'branch-start', ...at, index });
  const agent = ctx.agent ? forkAgent(ctx.agent) : undefined;
  try {
    await fan.evaluate(branch.child, {
      ...ctx,
      run: branchFrame(ctx.run, branch.key, fan.signal!),
      ...(agent ? { agent } : {}),
      parentId: node.nodeId,
    });
    log.emit({ type: 'branch-finish', ...at, status: 'succeeded' });
    return { ok: true, messages: agent?.exchange ?? [] };
  } catch (error) {
    log.emit({ type: 'branch-finish', ...at, status: statusOf(error), error: errorData(error) });
    if (!stop.signal.aborted && fan.first === undefined) fan.first = error;
    if (fan.mode === 'fail-fast' && !stop.signal.aborted)
      stop.abort(new Error(`the branch "${branch.key}" of <Parallel> failed`));
    return { ok: false, error };
  }
}

/**
 * The frame a branch runs in: the run's own (its steps, usage, tool executions and tool
 * nodes are the run's), with the branch's place added to its calls (`[key]`, so the records
 * of a branch's calls name it, whatever order branches start in) and the branch's signal.
 */
export function branchFrame(run: RunFrame, key: string, signal: AbortSignal): RunFrame {
  const frame = { calls: [...run.calls, branchSegment(key)], signal } as RunFrame;
  for (const field of Object.keys(run) as Array<keyof RunFrame>) {
    if (field === 'calls' || field === 'signal') continue;
    Object.defineProperty(frame, field, {
      enumerable: true,
      get: () => run[field],
      set: (value: never) => {
        run[field] = value;
      },
    });
  }
  return frame;
}

/** A copy of an agent's frame with a copy of its conversation, and what its steps add kept apart: a branch's own. */
function forkAgent(agent: AgentFrame): AgentFrame {
  return { ...agent, messages: [...agent.messages], exchange: [] };
}

/** Runs `work` for every item, at most `limit` at once, starting them in order; outcomes in order. */
async function limited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const outcomes: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      outcomes[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcomes;
}

/**
 * The props of a `<Parallel>`, checked.
 * @throws {WorkflowError} `parallel-limit-invalid`, `parallel-mode-invalid`.
 */
function checkParallel(element: JuneElement): ParallelProps {
  const props = element.props as ParallelProps;
  const where = locationSuffix(element.source);
  if (props.limit !== undefined && (!Number.isInteger(props.limit) || props.limit < 1)) {
    throw new WorkflowError(
      'parallel-limit-invalid',
      `june: <Parallel limit={${String(props.limit)}}>${where} needs a whole number of branches at once, 1 or more.`,
    );
  }
  if (props.mode !== undefined && props.mode !== 'fail-fast' && props.mode !== 'settle-all') {
    throw new WorkflowError(
      'parallel-mode-invalid',
      `june: <Parallel mode=${JSON.stringify(props.mode)}>${where} has an unknown mode; use "fail-fast" or "settle-all".`,
    );
  }
  return props;
}

/**
 * The branches of a `<Parallel>`: its children in order, each keyed by its `key`, else
 * by its position.
 * @throws {WorkflowError} `parallel-key-duplicate` when two branches have one key.
 */
function branchesOf(element: JuneElement, props: ParallelProps): Branch[] {
  const branches: Branch[] = [];
  const seen = new Set<string>();
  for (const [index, child] of flattenChildren(props.children).entries()) {
    const key = typeof child !== 'string' && child.key !== null ? String(child.key) : `${index}`;
    if (seen.has(key)) {
      throw new WorkflowError(
        'parallel-key-duplicate',
        `june: two branches of <Parallel>${locationSuffix(element.source)} have the key "${key}"; give each child its own key (a branch's records are named by it).`,
      );
    }
    seen.add(key);
    branches.push({ child, key });
  }
  return branches;
}

/** The error of a `settle-all` `<Parallel>` whose branches failed: every one named, the first as cause. */
function parallelFailed(
  element: JuneElement,
  failed: Array<{ key: string; error: unknown }>,
  total: number,
): JuneError {
  const details: ParallelBranchFailure[] = failed.map(({ key, error }) => ({
    branch: key,
    ...(JuneError.isInstance(error) ? { code: error.code } : {}),
    message: errorMessage(error).replace(/^june: /, ''),
  }));
  const list = details.map((f) => `"${f.branch}" (${f.message})`).join(', ');
  const cause = failed[0]!.error;
  return new JuneError(
    'parallel-failed',
    `june: ${failed.length} of ${total} branches of <Parallel>${locationSuffix(element.source)} failed: ${list}.`,
    {
      cause,
      blame: JuneError.isInstance(cause) ? cause.blame : 'system',
      details: { failed: details },
    },
  );
}
