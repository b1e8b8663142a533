import type { CatchProps } from '../components/catch.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import { errorData } from '../errors/error-data.js';
import type { EvalContext } from './run-state.js';
import { statusOf } from './settle.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/**
 * Evaluates a `<Catch>`: its children, again on failure up to `retries` times (each attempt
 * a trace node of its own, each failure an `error` event and each retry a `retry` event),
 * then `fallback`. Steps of a failed attempt are forgotten (their results, ids and messages),
 * so a retry may reuse their ids. Aborts are never caught. Outside a run (`inspect()`, the
 * static check) the children are walked once.
 *
 * @throws {WorkflowError} `catch-retries-invalid`, `catch-fallback-invalid`; the last
 *   attempt's error when there is no fallback; whatever the fallback throws; every abort.
 */
export async function evaluateCatch(
  element: JuneElement,
  ctx: EvalContext,
  evaluate: Evaluate,
): Promise<void> {
  const props = checkCatch(element);
  const retries = props.retries ?? 0;
  const { run } = ctx;
  // the static check and inspect() walk the children once; only a run retries
  const log = run.pass.services?.log;
  if (!log) return evaluate(props.children, ctx);
  let nodeId = log.nodeId(ctx.parentId, 'catch');
  for (let attempt = 1; ; attempt++) {
    const checked = new Set<string>();
    const conversation = conversationMark(ctx);
    const attemptCtx = { ...ctx, parentId: nodeId, attempts: [...(ctx.attempts ?? []), checked] };
    const failure = await attemptOf(ctx, nodeId, attempt, () =>
      evaluate(props.children, attemptCtx),
    );
    if (failure === undefined) return;
    const { error } = failure;
    if (statusOf(error) === 'aborted' || run.signal.aborted) throw error;
    // forget what the failed attempt did: its steps (a retry may reuse their ids; a step of a
    // sibling <Parallel> branch stays) and, for a <Catch> inside an agent, what it added to
    // the agent's conversation
    for (const id of checked) {
      delete run.steps[id];
      run.stepElements.delete(id);
    }
    conversation.forget();
    const gaveUp = attempt > retries && props.fallback !== undefined;
    const failed = nodeId;
    nodeId = log.nodeId(ctx.parentId, 'catch');
    log.emit({
      type: 'error',
      runId: run.runId,
      error: errorData(error),
      attempt,
      willRetry: attempt <= retries,
      ...(gaveUp ? { fallback: true as const } : {}),
      nodeId: failed,
      parentId: ctx.parentId,
    });
    if (attempt <= retries) {
      log.emit({
        type: 'retry',
        runId: run.runId,
        attempt: attempt + 1,
        retries,
        nodeId,
        parentId: ctx.parentId,
      });
      continue;
    }
    if (!props.fallback) throw error;
    const fallback = props.fallback;
    const fallbackFailure = await attemptOf(ctx, nodeId, 'fallback', async () =>
      evaluate(await fallback(error), { ...ctx, parentId: nodeId, renderedBy: undefined }),
    );
    if (fallbackFailure === undefined) return;
    throw fallbackFailure.error;
  }
}

/** Where the agent's conversation stands now; `forget()` drops what was added since. */
function conversationMark(ctx: EvalContext): { forget(): void } {
  const agent = ctx.agent;
  const length = agent?.messages.length ?? 0;
  const exchanged = agent?.exchange?.length ?? 0;
  return {
    forget() {
      agent?.messages.splice(length);
      agent?.exchange?.splice(exchanged);
    },
  };
}

/**
 * A `<Catch>`'s props, checked.
 * @throws {WorkflowError} `catch-retries-invalid`, `catch-fallback-invalid`.
 */
function checkCatch(element: JuneElement): CatchProps {
  const props = element.props as CatchProps;
  const retries = props.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new WorkflowError(
      'catch-retries-invalid',
      `june: <Catch retries={${String(props.retries)}}>${locationSuffix(element.source)} needs a whole number of retries, 0 or more.`,
    );
  }
  if (props.fallback !== undefined && typeof props.fallback !== 'function') {
    throw new WorkflowError(
      'catch-fallback-invalid',
      `june: <Catch>${locationSuffix(element.source)} has a fallback that is not a function; pass fallback={(error) => <... />}.`,
    );
  }
  return props;
}

/**
 * Runs one attempt of a `<Catch>` (or its fallback) as a trace node between `catch-start`
 * and `catch-finish`. Returns `undefined` when it succeeded, else what it threw.
 */
async function attemptOf(
  ctx: EvalContext,
  nodeId: string,
  attempt: number | 'fallback',
  work: () => Promise<void>,
): Promise<{ error: unknown } | undefined> {
  const pass = ctx.run.pass;
  const event = { runId: ctx.run.runId, attempt, nodeId, parentId: ctx.parentId };
  pass.emit({ type: 'catch-start', ...event });
  try {
    await work();
    pass.emit({ type: 'catch-finish', ...event, status: 'succeeded' });
    return undefined;
  } catch (error) {
    pass.emit({
      type: 'catch-finish',
      ...event,
      status: statusOf(error),
      error: errorData(error),
    });
    return { error };
  }
}
