import { configuredSecrets } from '../redaction/configured-secrets.js';
import { JuneError, type ErrorComparison, type JuneErrorBlame } from './june-error.js';

/** An error as plain data: what traces, events and journals keep of it. */
export interface ErrorData {
  name: string;
  /** The message, without any configured credential (URL credentials, header and `env` values). */
  message: string;
  /** A {@link JuneError}'s code. */
  code?: string;
  /** A {@link JuneError}'s blame, with `{ blame: true }` only. */
  blame?: JuneErrorBlame;
  /** A {@link JuneError}'s comparison (`journal-mismatch`: the recorded and the new request), credentials removed. */
  comparison?: ErrorComparison;
}

/** Options of {@link errorData}. */
export interface ErrorDataOptions {
  /**
   * Keep a `JuneError`'s blame: the journal does, so a resumed run throws the error of the
   * same subclass again; traces and events show name, message and code only.
   * @default false
   */
  blame?: boolean;
}

/**
 * The one place an error becomes data for June's records (trace nodes, events, journal
 * records): name, message, a `JuneError`'s code and comparison and, when asked, its blame.
 * Configured credentials are removed from the message and the comparison. A thrown value
 * that is not an `Error` (`throw undefined`, `throw 'text'`) is described as such, so a
 * record never says just `undefined`.
 *
 * @example
 * ```ts
 * errorData(new Error('disk full')); // { name: 'Error', message: 'disk full' }
 * errorData(undefined); // { name: 'Error', message: 'undefined was thrown instead of an Error' }
 * errorData(new WorkflowError('tool-unknown', 'june: ...'), { blame: true });
 * // { name: 'WorkflowError', message: 'june: ...', code: 'tool-unknown', blame: 'workflow' }
 * ```
 */
export function errorData(error: unknown, options: ErrorDataOptions = {}): ErrorData {
  if (JuneError.isInstance(error))
    return {
      name: error.name,
      message: configuredSecrets.text(error.message),
      code: error.code,
      ...(options.blame ? { blame: error.blame } : {}),
      ...(error.comparison ? { comparison: configuredSecrets.value(error.comparison) } : {}),
    };
  if (error instanceof Error)
    return { name: error.name, message: configuredSecrets.text(error.message) };
  return { name: 'Error', message: configuredSecrets.text(thrownValueText(error)) };
}

/**
 * Describes a thrown value that is not an `Error`: a string as it is, anything else as
 * `<value> was thrown instead of an Error`.
 *
 * @example
 * ```ts
 * thrownValueText(undefined); // 'undefined was thrown instead of an Error'
 * ```
 */
export function thrownValueText(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  let shown: string;
  try {
    shown =
      typeof value === 'string'
        ? '""'
        : typeof value === 'object' && value !== null
          ? (JSON.stringify(value) ?? String(value))
          : String(value);
  } catch {
    shown = Object.prototype.toString.call(value);
  }
  return `${shown.length > 200 ? `${shown.slice(0, 199)}…` : shown} was thrown instead of an Error`;
}
