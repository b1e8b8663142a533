import { isAsyncIterable, isThenable } from '../json/value-kinds.js';

const marker = Symbol.for('june.tool-failure');

/**
 * What a tool threw, as the AI SDK hands it to the model: the thrown value's message alone.
 *
 * AI SDK 7 sends a thrown `Error` to the model as `String(error)`, its name in front
 * (`Error: disk full`, `JuneError: june: the tool "research" failed: ...`), where AI SDK 6
 * sent the message (`disk full`). June documents the message: a failed tool, a denial and a
 * composite's failure read the same whatever the SDK underneath. So June's tool wrappers
 * throw this in place of what the tool threw, and whatever reads the AI SDK's `tool-error`
 * parts takes the thrown value back with {@link thrownByTool} (June's events, trace and
 * journal keep the tool's own error). The thrown value stays the `cause`, so an abort is
 * still seen as one.
 *
 * The text is what AI SDK 6 gave: an `Error`'s message, a string as it is, `unknown error`
 * for `null` or `undefined`, anything else as JSON.
 */
export class ToolFailure extends Error {
  readonly [marker] = true;
  /** What the tool threw. */
  readonly thrown: unknown;

  constructor(thrown: unknown) {
    super(modelText(thrown), { cause: thrown });
    this.name = 'ToolFailure';
    this.thrown = thrown;
  }

  /** The text the model reads: the message alone. */
  override toString(): string {
    return this.message;
  }

  /** True for a `ToolFailure` of any copy of June. */
  static isInstance(error: unknown): error is ToolFailure {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/**
 * What a tool threw, given the error of an AI SDK `tool-error` part: the value a
 * {@link ToolFailure} stands for, or the error itself (an error the AI SDK made, such as an
 * invalid input).
 *
 * @example
 * ```ts
 * errorData(thrownByTool(part.error)); // the tool's own error, as data
 * ```
 */
export function thrownByTool(error: unknown): unknown {
  return ToolFailure.isInstance(error) ? error.thrown : error;
}

/**
 * Runs a tool's `execute` so that what it throws (at once, as a rejection, or while its
 * outputs are read) reaches the AI SDK as a {@link ToolFailure}.
 *
 * @example
 * ```ts
 * return withToolFailures(() => execute(input, options));
 * ```
 */
export function withToolFailures<T>(execute: () => T): T {
  let value: T;
  try {
    value = execute();
  } catch (error) {
    throw new ToolFailure(error);
  }
  if (isThenable(value))
    return Promise.resolve(value).catch((error: unknown) => {
      throw new ToolFailure(error);
    }) as T;
  if (isAsyncIterable(value)) return rethrown(value) as T;
  return value;
}

async function* rethrown<V>(values: AsyncIterable<V>): AsyncGenerator<V> {
  try {
    yield* values;
  } catch (error) {
    throw new ToolFailure(error);
  }
}

function modelText(thrown: unknown): string {
  if (thrown == null) return 'unknown error';
  if (typeof thrown === 'string') return thrown;
  if (thrown instanceof Error) return thrown.message;
  return JSON.stringify(thrown);
}
