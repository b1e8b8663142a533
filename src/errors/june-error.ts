const marker = Symbol.for('june.error');

/**
 * Who is to blame for an error, so a reader knows where to look:
 * - `workflow`: the workflow's author (a bad tree, a name collision, a bad prop);
 * - `model`: the model's behaviour (a call to a tool it does not have, bad input);
 * - `system`: something outside the workflow (a server down, an abort, a missing API key).
 */
export type JuneErrorBlame = 'workflow' | 'model' | 'system';

/** Options accepted by every {@link JuneError} constructor. */
export interface JuneErrorOptions {
  /** The underlying error, kept as `error.cause`. */
  cause?: unknown;
}

/**
 * The base of every error June raises.
 *
 * - `code` is stable across releases (e.g. `"capability-collision"`); match on it, not on text.
 * - `message` always starts with `june: `, names the declarations involved in the spec's
 *   notation (`<Tool name="search"> in <Namespace name="github">`) and says what to change.
 * - `isInstance()` works across two copies of the package (a `Symbol.for` marker), where
 *   `instanceof` would not.
 *
 * @example
 * ```ts
 * try { await run(<Workflow />).result } catch (error) {
 *   if (JuneError.isInstance(error) && error.code === 'run-aborted') console.log('stopped');
 * }
 * ```
 */
export class JuneError extends Error {
  readonly [marker] = true;
  /** Stable machine-readable code, kebab-case. */
  readonly code: string;
  /** Whose fault it is: the workflow's author, the model, or the system. */
  readonly blame: JuneErrorBlame;

  constructor(
    code: string,
    message: string,
    options: JuneErrorOptions & { blame?: JuneErrorBlame } = {},
  ) {
    super(
      message.startsWith('june: ') ? message : `june: ${message}`,
      'cause' in options ? { cause: options.cause } : undefined,
    );
    this.name = new.target.name;
    this.code = code;
    this.blame = options.blame ?? 'system';
  }

  /** True for any `JuneError`, from this copy of June or another one. */
  static isInstance(error: unknown): error is JuneError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}

/** An error in the workflow's tree or props: the author changes the workflow to fix it. */
export class WorkflowError extends JuneError {
  constructor(code: string, message: string, options: JuneErrorOptions = {}) {
    super(code, message, { ...options, blame: 'workflow' });
  }
}

/** The model did something the workflow does not allow (e.g. called a tool it does not have). */
export class ModelBehaviorError extends JuneError {
  constructor(code: string, message: string, options: JuneErrorOptions = {}) {
    super(code, message, { ...options, blame: 'model' });
  }
}

/** Something outside the workflow failed: a provider, a server, the environment. */
export class SystemError extends JuneError {
  constructor(code: string, message: string, options: JuneErrorOptions = {}) {
    super(code, message, { ...options, blame: 'system' });
  }
}

/** The run was aborted (`handle.abort()`, the `signal` option, or Ctrl-C in `june run`). */
export class RunAbortedError extends JuneError {
  /**
   * What had not stopped when the abort's grace period ran out (`'the tool "deploy" in step "ship"'`),
   * abandoned so the run could settle; empty when everything stopped in time.
   */
  readonly unstopped: readonly string[];

  /**
   * @param reason - why the run was aborted (an `Error`, a string, or anything else).
   * @param abandoned - what did not stop within `graceMs` (ms) of the abort, when the run settled without it.
   */
  constructor(reason?: unknown, abandoned?: { unstopped: readonly string[]; graceMs: number }) {
    const why =
      reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : undefined;
    const left = abandoned
      ? `; ${abandoned.graceMs} ms after the abort ${abandoned.unstopped.length > 0 ? abandoned.unstopped.join(', ') : 'the run'} had not stopped and ${abandoned.unstopped.length === 1 ? 'was' : 'were'} abandoned (make tools and components end when their abort signal fires, or raise abortGraceMs)`
      : '';
    super('run-aborted', `june: the run was aborted${why ? `: ${why}` : ''}${left}`, {
      cause: reason,
      blame: 'system',
    });
    this.unstopped = abandoned?.unstopped ?? [];
  }
}
