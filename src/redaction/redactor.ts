/** What a redacted value is replaced with in traces, journals, events and messages. */
export const REDACTED = '[redacted]';

/**
 * The `redact` option of `run()`: what to keep out of every record of the run (its trace,
 * journal, events, error messages, and so Studio and `june run`'s output).
 *
 * @example
 * ```ts
 * run(<Deploy />, { redact: { values: [process.env.DEPLOY_TOKEN!], patterns: [/sk-[A-Za-z0-9_-]{20,}/] } });
 * ```
 */
export interface RedactOptions {
  /** Exact strings; each occurrence becomes `[redacted]`. Empty strings are ignored. */
  values?: readonly string[];
  /** Regular expressions; each match becomes `[redacted]` (every match: a missing `g` flag is added). */
  patterns?: readonly RegExp[];
}

const MAX_CAUSE_DEPTH = 16;

/**
 * Replaces secrets in text and in plain JSON values. A redactor may have a `parent` whose
 * secrets it also removes (a run's redactor has the process's configured credentials as
 * parent, so credentials registered while the run goes are removed too).
 *
 * Values are matched literally, longest first; patterns after values. With no secret at all,
 * every method returns its input as it is, at no cost.
 *
 * @example
 * ```ts
 * const redactor = new Redactor({ values: ['hunter2'] });
 * redactor.text('password hunter2'); // 'password [redacted]'
 * ```
 */
export class Redactor {
  readonly #parent: Redactor | undefined;
  readonly #values = new Map<string, string>();
  readonly #patterns: RegExp[] = [];
  #matcher: RegExp | undefined;

  constructor(options: RedactOptions = {}, parent?: Redactor) {
    this.#parent = parent;
    for (const value of options.values ?? []) this.add(value);
    for (const pattern of options.patterns ?? [])
      this.#patterns.push(
        new RegExp(
          pattern.source,
          pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
        ),
      );
  }

  /** Adds a secret: every later occurrence of `value` becomes `replacement`. Empty strings are ignored. */
  add(value: string, replacement: string = REDACTED): void {
    if (typeof value !== 'string' || value === '' || this.#values.get(value) === replacement)
      return;
    this.#values.set(value, replacement);
    this.#matcher = undefined;
  }

  /**
   * Forgets every value and pattern, as if the redactor were new (its parent keeps its own).
   * For a process whose configured secrets must start over: the unit tests, whose files share
   * one process, put the process's secrets back after each file.
   */
  clear(): void {
    this.#values.clear();
    this.#patterns.length = 0;
    this.#matcher = undefined;
  }

  /** True when neither this redactor nor its parent has anything to remove. */
  get empty(): boolean {
    return this.#values.size === 0 && this.#patterns.length === 0 && (this.#parent?.empty ?? true);
  }

  /**
   * True when this redactor or its parent has a pattern: a match may go on past any point of
   * streamed text, so it is held back from its last whitespace. Values alone need less: they
   * are held back only from where one may begin ({@link safeCut}).
   */
  get patterned(): boolean {
    return this.#patterns.length > 0 || (this.#parent?.patterned ?? false);
  }

  /** `text` with every secret replaced. */
  text(text: string): string {
    let result = this.#parent ? this.#parent.text(text) : text;
    if (this.#values.size > 0) {
      this.#matcher ??= new RegExp(
        [...this.#values.keys()]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        'g',
      );
      result = result.replace(this.#matcher, (found) => this.#values.get(found) ?? REDACTED);
    }
    for (const pattern of this.#patterns) result = result.replace(pattern, REDACTED);
    return result;
  }

  /**
   * Where streamed text may be cut so that no secret value is split between what goes out now
   * (`text.slice(0, cut)`) and what is held back: the largest index at or before `cut` that no
   * occurrence of a value (this redactor's or its parent's) spans, and after which no value may
   * begin whose rest is still to come. A value holding whitespace (`'open sesame 42'`) is
   * therefore held whole even though the caller cuts at whitespace for its patterns.
   *
   * @param cut an index into `text` (0..text.length) the caller would cut at
   * @returns an index in 0..cut
   */
  safeCut(text: string, cut: number): number {
    let safe = this.#parent ? this.#parent.safeCut(text, cut) : cut;
    let moved = true;
    while (moved) {
      moved = false;
      for (const value of this.#values.keys()) {
        for (let start = Math.max(0, safe - value.length + 1); start < safe; start++) {
          // a whole occurrence across the cut, or the start of one whose rest is still to come
          if (value.startsWith(text.slice(start, start + value.length))) {
            safe = start;
            moved = true;
            break;
          }
        }
      }
    }
    return safe;
  }

  /**
   * A copy of a plain JSON value (a trace, an event, a journal record) with every string in
   * it redacted; object keys, numbers and non-plain objects (dates, bytes) stay as they are.
   * The walk is iterative, so a value of any depth is fine. Returns `value` itself when
   * there is nothing to remove.
   */
  value<T>(value: T): T {
    if (this.empty) return value;
    return redactDeep(value, (text) => this.text(text));
  }

  /**
   * Redacts an error in place, with its `cause` chain (and an `AggregateError`'s `errors`):
   * each `message` and `stack`. The error keeps its identity, class and other fields.
   * Returns the error.
   */
  error<E>(error: E): E {
    if (this.empty) return error;
    const seen = new Set<unknown>();
    const queue: Array<{ value: unknown; depth: number }> = [{ value: error, depth: 0 }];
    while (queue.length > 0) {
      const { value, depth } = queue.shift()!;
      if (typeof value !== 'object' || value === null || seen.has(value) || depth > MAX_CAUSE_DEPTH)
        continue;
      seen.add(value);
      for (const field of ['message', 'stack'] as const)
        this.#redactField(value as Record<string, unknown>, field);
      queue.push({ value: (value as { cause?: unknown }).cause, depth: depth + 1 });
      const errors = (value as { errors?: unknown }).errors;
      if (Array.isArray(errors))
        for (const inner of errors) queue.push({ value: inner, depth: depth + 1 });
    }
    return error;
  }

  #redactField(target: Record<string, unknown>, field: 'message' | 'stack'): void {
    let current: unknown;
    try {
      current = target[field];
    } catch {
      return;
    }
    if (typeof current !== 'string') return;
    const redacted = this.text(current);
    if (redacted === current) return;
    try {
      Object.defineProperty(target, field, {
        value: redacted,
        writable: true,
        configurable: true,
        enumerable: false,
      });
    } catch {
      // a frozen error keeps its text; June's records still get the redacted copy
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A copy of `value` with `redact` applied to every string, walked without recursion. */
function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (!isContainer(value)) return value;
  const rootCopy: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[source: Record<string, unknown>, target: Record<string, unknown>]> = [
    [value as Record<string, unknown>, rootCopy as Record<string, unknown>],
  ];
  const copies = new Map<unknown, unknown>([[value, rootCopy]]);
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    for (const key of Object.keys(source)) {
      const item = source[key];
      if (typeof item === 'string') target[key] = redact(item);
      else if (isContainer(item)) {
        let copy = copies.get(item);
        if (copy === undefined) {
          copy = Array.isArray(item) ? [] : {};
          copies.set(item, copy);
          stack.push([item as Record<string, unknown>, copy as Record<string, unknown>]);
        }
        target[key] = copy;
      } else target[key] = item;
    }
  }
  return rootCopy as T;
}

function isContainer(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
