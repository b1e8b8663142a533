import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tool call a tool's `execute` runs for, as June knows it:
 * - `runId`: the outermost run's id (a resumed run keeps it; child runs share it);
 * - `step`: the step path (`release:ship:go`);
 * - `toolCallId`: the provider's id for the call (providers may repeat it within a run);
 * - `call`: the call's id at its step ({@link callIdOf}: `go#0.1`, the model call and the
 *   position of the tool call in its answer), `calls`: the composite calls on the way;
 * - `key`: `<runId>/<calls…>/<call>`, unique within the run and, with a journal, the same on
 *   every resume: the idempotency key for a tool with effects outside the run.
 *
 * @example
 * ```ts
 * execute: async ({ amount }) => {
 *   const { key } = toolCallContext()!;
 *   return payments.refund({ amount, idempotencyKey: key });
 * }
 * ```
 */
export interface ToolCallContext {
  runId: string;
  step: string;
  toolCallId: string;
  call: string;
  calls: string[];
  key: string;
}

const storage = new AsyncLocalStorage<ToolCallContext>();

/**
 * Whether an `AsyncLocalStorage` in use costs every promise of the process async hooks: on
 * Node 20 and 22 it does (so the storage is turned on only while tool executions run, see
 * {@link running}); from Node 24 it runs on async context frames, where a storage in use costs
 * a promise nothing and turning it on and off would be work for nothing. Probed once, when
 * this module loads: a promise made inside a storage's `run` carries async-hook fields only
 * when hooks are on.
 */
const storageUsesHooks = (() => {
  const probe = new AsyncLocalStorage<boolean>();
  const carried = probe.run(true, () => Object.getOwnPropertySymbols(Promise.resolve()).length > 0);
  probe.disable();
  return carried;
})();

/**
 * Tool executions running now, in every run of the process. On Node 20, an
 * `AsyncLocalStorage` in use turns on async hooks for the whole process: every promise made
 * anywhere then carries two ids and a store slot, which costs every run (and the caller's own
 * code) about a tenth of its CPU time and memory. So the storage is on only while a tool
 * execution runs, and turned off when the last one settles.
 */
let running = 0;

function settled(): void {
  if (--running === 0) storage.disable();
}

/**
 * The tool call whose `execute` is running (June sets it around every tool execution of a
 * run, from its start until its promise settles or its outputs end; for a composite tool,
 * until its body has rendered: the child run's tools each have their own), or `undefined`
 * outside one.
 *
 * @example
 * ```ts
 * const context = toolCallContext(); // { runId: '20261130-120301-3fa94c1e27b0', step: 'release', call: 'release#1.0', key: '…/release#1.0', … }
 * ```
 */
export function toolCallContext(): ToolCallContext | undefined {
  return storage.getStore();
}

/**
 * Runs `execute` as the tool call `context` ({@link toolCallContext} gives it inside, until
 * what `execute` returns settles: a promise, or an async iterable of outputs that ends).
 *
 * @example
 * ```ts
 * return inToolCall({ runId, step, toolCallId, call, calls }, () => execute(input, options));
 * ```
 */
export function inToolCall<T>(context: Omit<ToolCallContext, 'key'>, execute: () => T): T {
  const store = { ...context, key: [context.runId, ...context.calls, context.call].join('/') };
  // on async context frames the context ends with what runs inside: nothing to count
  if (!storageUsesHooks) return storage.run(store, execute);
  const release = hold();
  holds.set(store, release);
  let value: T;
  try {
    value = storage.run(store, execute);
  } catch (error) {
    release();
    throw error;
  }
  if (isThenable(value)) value.then(release, release);
  else if (isAsyncIterable(value)) return untilDone(value, release) as T;
  else release();
  return value;
}

/** What counts each tool call's execution out of `running` (see {@link releaseToolCall}). */
const holds = new WeakMap<ToolCallContext, () => void>();

/**
 * Counts one more user of the storage in `running`; the returned function counts it out
 * once (later calls do nothing), `delayMs` later when given.
 */
function hold(delayMs?: number): () => void {
  running++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (delayMs === undefined) settled();
    else setTimeout(settled, delayMs).unref();
  };
}

/**
 * Ends {@link toolCallContext} for the tool call running now before its execution settles:
 * a composite tool's call gives it up once its body has rendered, so the child run it then
 * evaluates (model calls, many promises) runs without async hooks when no other tool is
 * running; the child's own tool calls each get their own context. Does nothing outside a
 * tool call or for a call already released.
 *
 * @example
 * ```ts
 * const workflow = await spec.render(input); // toolCallContext() is the composite's call
 * releaseToolCall();
 * await evaluate(workflow); // each tool inside has its own context
 * ```
 */
export function releaseToolCall(): void {
  const store = storage.getStore();
  if (!store) return;
  // on async context frames this ends the context for what the call runs from here on only
  if (!storageUsesHooks) storage.disable();
  else holds.get(store)?.();
}

/** How long the storage stays on after the last hold ends, in ms (see {@link holdToolCallContexts}). */
export const HOLD_LINGER_MS = 1000;

/**
 * Keeps {@link toolCallContext}'s storage on from now until `HOLD_LINGER_MS` after the
 * returned function is called (and no other hold or tool execution keeps it), instead of
 * turning it on and off around each tool execution. Turning async hooks on or off costs far
 * more than running with them when a run makes few promises: each turn costs about as much
 * as a short batch run's tool loop. So a run in batch mode (`stream: false`) holds them: a
 * 20-step run with a tool call per step spent about 17% of its CPU on those turns, and runs
 * that follow each other within the linger (a queue worker) pay none. A streaming run makes
 * many promises while its models stream, so it keeps turning them on only around each tool
 * execution. The returned function is idempotent. Where the storage runs on async context
 * frames (Node 24), there are no hooks to hold: nothing is held and no timer is set.
 *
 * @example
 * ```ts
 * const release = holdToolCallContexts();
 * try { await runInBatchMode(); } finally { release(); }
 * ```
 */
export function holdToolCallContexts(): () => void {
  return storageUsesHooks ? hold(HOLD_LINGER_MS) : noHold;
}

/** What {@link holdToolCallContexts} gives where the storage costs promises nothing. */
const noHold = (): void => {};

/** `values`, counted as running until they end (or their reader stops). */
async function* untilDone<V>(values: AsyncIterable<V>, release: () => void): AsyncGenerator<V> {
  try {
    yield* values;
  } finally {
    release();
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] ===
    'function'
  );
}
