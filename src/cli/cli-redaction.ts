import { readFileSync } from 'node:fs';
import { WorkflowError } from '../errors/index.js';
import { REDACTED, type RedactOptions } from '../redaction/redactor.js';
import { secretStrings } from '../redaction/secret-strings.js';
import { parseProps } from './parse-props.js';

/** The redaction flags of `june run`. */
export interface RedactionFlags {
  /** `--secret-props`: props whose values are secrets, a JSON object or `@file.json`. */
  secretProps?: string;
  /** `--redact-env NAME` (repeatable): redact the value of this environment variable. */
  redactEnv?: string[];
  /** `--redact-pattern REGEX` (repeatable): redact every match of this regular expression. */
  redactPattern?: string[];
}

/**
 * Reads the redaction flags: the secret props (merged over the other props by the caller)
 * and the run's `redact` option, which holds every string in the secret props, the values
 * of the `--redact-env` variables and the `--redact-pattern` expressions.
 *
 * @throws {WorkflowError} `cli-props-invalid` for `--secret-props` that is not a JSON object
 *   (or a file that cannot be read); `cli-option-invalid` for a `--redact-env` variable that
 *   is not set, or a `--redact-pattern` that is not a regular expression.
 * @example
 * ```ts
 * cliRedaction({ secretProps: '{"token":"abc"}', redactPattern: ['sk-[A-Za-z0-9]+'] });
 * // { secretProps: { token: 'abc' }, redact: { values: ['abc'], patterns: [/sk-[A-Za-z0-9]+/] } }
 * ```
 */
export function cliRedaction(
  flags: RedactionFlags,
  env: NodeJS.ProcessEnv = process.env,
): { secretProps?: Record<string, unknown>; redact?: RedactOptions } {
  const secretProps =
    flags.secretProps === undefined
      ? undefined
      : parseProps(secretPropsText(flags.secretProps), '--secret-props');
  const values = secretProps ? secretStrings(secretProps) : [];
  for (const name of flags.redactEnv ?? []) {
    const value = env[name];
    if (value === undefined || value === '') {
      throw new WorkflowError(
        'cli-option-invalid',
        `june: --redact-env ${name}: the environment variable ${name} is not set; set it, or leave out the flag.`,
      );
    }
    values.push(value);
  }
  const patterns = (flags.redactPattern ?? []).map((source) => {
    try {
      return new RegExp(source);
    } catch (error) {
      throw new WorkflowError(
        'cli-option-invalid',
        `june: --redact-pattern ${JSON.stringify(source)} is not a regular expression (${(error as Error).message}); pass one such as 'sk-[A-Za-z0-9]{20,}'.`,
      );
    }
  });
  const redact = values.length > 0 || patterns.length > 0 ? { values, patterns } : undefined;
  return { ...(secretProps ? { secretProps } : {}), ...(redact ? { redact } : {}) };
}

/**
 * The props of a run taken up again (`--resume`, `--replay`) without `--props`: its recorded
 * props (secret ones were stored as `[redacted]`) with `--secret-props` over them.
 *
 * @throws {WorkflowError} `cli-option-invalid` when a recorded prop was secret and
 *   `--secret-props` does not give it again.
 */
export function resumedProps(
  recorded: Record<string, unknown> | undefined,
  secretProps: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!recorded) return secretProps;
  const missing = Object.keys(recorded).filter(
    (name) => recorded[name] === REDACTED && !(secretProps && name in secretProps),
  );
  if (missing.length > 0) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: the run was started with the secret props ${missing.join(', ')}, which its journal does not keep; pass them again with --secret-props.`,
    );
  }
  return { ...recorded, ...secretProps };
}

function secretPropsText(value: string): string {
  if (!value.startsWith('@')) return value;
  const file = value.slice(1);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new WorkflowError(
      'cli-props-invalid',
      `june: --secret-props ${value}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass a JSON object, or @ and the path of a file holding one.`,
    );
  }
}
