import type { JuneErrorCode } from './june-error-code.js';
import type {
  DetailedErrorCode,
  JuneErrorDetails,
  JuneErrorDetailsByCode,
} from './june-error-details.js';

const marker = Symbol.for('june.error');

/**
 * Who is to blame for an error, so a reader knows where to look:
 * - `workflow`: the workflow's author (a bad tree, a name collision, a bad prop);
 * - `model`: the model's behaviour (a call to a tool it does not have, bad input);
 * - `system`: something outside the workflow (a server down, an abort, a missing API key).
 */
export type JuneErrorBlame = 'workflow' | 'model' | 'system';

/**
 * Two versions of one thing an error is about, for a side-by-side view: `journal-mismatch`
 * keeps the model request (or tool call) as recorded and as the workflow makes it now.
 * `what` names it in words (`model call 1 of step "plan"`). Both sides are plain JSON.
 */
export interface ErrorComparison {
  what: string;
  recorded: unknown;
  current: unknown;
}

/** Options accepted by every {@link JuneError} constructor. */
export interface JuneErrorOptions {
  /** The underlying error, kept as `error.cause`. */
  cause?: unknown;
  /** What differs, both sides (see {@link ErrorComparison}); kept as `error.comparison`. */
  comparison?: ErrorComparison;
  /** The error's facts as data, for the codes that have them ({@link JuneErrorDetailsByCode}). */
  details?: JuneErrorDetails;
}

/**
 * The base of every error June raises. June itself raises its subclasses, one per blame
 * ({@link WorkflowError}, {@link ModelBehaviorError}, {@link SystemError}, and
 * {@link RunAbortedError} for an abort).
 *
 * - `code` is stable across releases (e.g. `"capability-collision"`, one of
 *   {@link JuneErrorCode}); match on it, not on text. `Code` is open for errors made outside
 *   June (`new JuneError('my-code', ...)`).
 * - `message` always starts with `june: `, names the declarations involved in the spec's
 *   notation (`<Tool name="search"> in <Namespace name="github">`) and says what to change.
 * - `isInstance()` works across two copies of the package (a `Symbol.for` marker per class),
 *   where `instanceof` would not; each subclass's `isInstance` is true for its own kind only.
 *
 * @example
 * ```ts
 * try { await run(<Workflow />).result } catch (error) {
 *   if (JuneError.isInstance(error) && error.code === 'run-aborted') console.log('stopped');
 * }
 * ```
 */
export class JuneError<Code extends string = JuneErrorCode> extends Error {
  readonly [marker] = true;
  /** Stable machine-readable code, kebab-case. */
  readonly code: Code;
  /** Whose fault it is: the workflow's author, the model, or the system. */
  readonly blame: JuneErrorBlame;
  /** The two versions the error is about, when it has them (`journal-mismatch`). */
  readonly comparison?: ErrorComparison;
  /**
   * The error's facts as data (the agent and both declarations of a `capability-collision`,
   * ...), for the codes listed in {@link JuneErrorDetailsByCode}; read them typed with
   * {@link JuneError.detailsOf}.
   */
  readonly details?: JuneErrorDetails;

  constructor(
    code: Code,
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
    if (options.comparison) this.comparison = options.comparison;
    if (options.details) this.details = options.details;
  }

  /**
   * The details of `error` when it is a {@link JuneError} with `code`, typed for that code;
   * `undefined` for another error or code.
   * @example
   * ```ts
   * const collision = JuneError.detailsOf(error, 'capability-collision');
   * if (collision) console.log(collision.declarations.map((d) => d.source));
   * ```
   */
  static detailsOf<C extends DetailedErrorCode>(
    error: unknown,
    code: C,
  ): JuneErrorDetailsByCode[C] | undefined {
    if (!JuneError.isInstance(error) || error.code !== code) return undefined;
    return error.details as JuneErrorDetailsByCode[C] | undefined;
  }

  /** True for any `JuneError`, from this copy of June or another one. */
  static isInstance(error: unknown): error is JuneError {
    return hasMarker(error, marker);
  }
}

/**
 * True when `error` is an object that carries `symbol` (a class's `Symbol.for` marker).
 * For a subclass's `isInstance`.
 */
function hasMarker(error: unknown, symbol: symbol): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[symbol] === true
  );
}

const workflowMarker = Symbol.for('june.error.workflow');

/**
 * An error in the workflow's tree or props (blame `workflow`): the author changes the
 * workflow to fix it.
 *
 * @example
 * ```ts
 * throw new WorkflowError('step-id-invalid', 'june: <Step id=""> has an empty id; give it a name.');
 * ```
 */
export class WorkflowError extends JuneError {
  readonly [workflowMarker] = true;

  constructor(code: JuneErrorCode, message: string, options: JuneErrorOptions = {}) {
    super(code, message, { ...options, blame: 'workflow' });
  }

  /** True for a `WorkflowError` (from this copy of June or another one), false for any other error. */
  static override isInstance(error: unknown): error is WorkflowError {
    return hasMarker(error, workflowMarker);
  }
}

const modelBehaviorMarker = Symbol.for('june.error.model-behavior');

/**
 * The model did something the workflow does not allow (blame `model`): an answer that does
 * not match a step's `output`, a step its `stopWhen` ended before the model answered.
 *
 * @example
 * ```ts
 * throw new ModelBehaviorError('step-output-invalid', 'june: the answer of step "s" does not match its output: ...');
 * ```
 */
export class ModelBehaviorError extends JuneError {
  readonly [modelBehaviorMarker] = true;

  constructor(code: JuneErrorCode, message: string, options: JuneErrorOptions = {}) {
    super(code, message, { ...options, blame: 'model' });
  }

  /** True for a `ModelBehaviorError` (from this copy of June or another one), false for any other error. */
  static override isInstance(error: unknown): error is ModelBehaviorError {
    return hasMarker(error, modelBehaviorMarker);
  }
}

const systemMarker = Symbol.for('june.error.system');

/**
 * Something outside the workflow failed (blame `system`): a provider, a server, the
 * environment, a file on disk.
 *
 * @example
 * ```ts
 * throw new SystemError('mcp-connect-failed', 'june: could not connect to ...', { cause });
 * ```
 */
export class SystemError extends JuneError {
  readonly [systemMarker] = true;

  constructor(code: JuneErrorCode, message: string, options: JuneErrorOptions = {}) {
    super(code, message, { ...options, blame: 'system' });
  }

  /** True for a `SystemError` (from this copy of June or another one), false for any other error. */
  static override isInstance(error: unknown): error is SystemError {
    return hasMarker(error, systemMarker);
  }
}

const runAbortedMarker = Symbol.for('june.error.run-aborted');

/**
 * The run was aborted (`handle.abort()`, the `signal` option, or Ctrl-C in `june run`): code
 * `run-aborted`, blame `system` (a {@link SystemError}).
 *
 * @example
 * ```ts
 * if (RunAbortedError.isInstance(error)) console.log('stopped', error.unstopped);
 * ```
 */
export class RunAbortedError extends SystemError {
  readonly [runAbortedMarker] = true;
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
    });
    this.unstopped = abandoned?.unstopped ?? [];
  }

  /** True for a `RunAbortedError` (from this copy of June or another one), false for any other error. */
  static override isInstance(error: unknown): error is RunAbortedError {
    return hasMarker(error, runAbortedMarker);
  }
}

/**
 * A June error of the subclass for `blame`: a {@link WorkflowError}, a
 * {@link ModelBehaviorError} or a {@link SystemError}: for an error made again from a
 * record (a journal), whose blame was kept as data.
 *
 * @example
 * ```ts
 * const error = errorOfBlame(recorded.blame ?? 'system', 'model-call-failed', recorded.message);
 * ```
 */
export function errorOfBlame(
  blame: JuneErrorBlame,
  code: JuneErrorCode,
  message: string,
  options: JuneErrorOptions = {},
): WorkflowError | ModelBehaviorError | SystemError {
  if (blame === 'workflow') return new WorkflowError(code, message, options);
  if (blame === 'model') return new ModelBehaviorError(code, message, options);
  return new SystemError(code, message, options);
}
