import { SystemError } from '../errors/index.js';

/**
 * A clear error for a database June cannot use (the URL's password is never shown):
 * `database-unreachable` (no server answers at the address), `database-auth-failed` (the
 * server refused the user or password), `database-missing` (no such database and no right to
 * create it); other errors pass through unchanged.
 *
 * @example
 * ```ts
 * await client.listWorkflows({}).catch((error) => { throw databaseError(error, url); });
 * ```
 */
export function databaseError(error: unknown, url: string): unknown {
  const where = safeUrl(url);
  const found = causes(error);
  const code = (e: unknown) => (e as { code?: unknown } | undefined)?.code;
  if (
    found.some((e) =>
      ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT'].includes(String(code(e))),
    )
  )
    return new SystemError(
      'database-unreachable',
      `june: cannot reach the database at ${where}: nothing answers there (${messageOf(found)}). Start PostgreSQL, or fix the host and port of --database.`,
      { cause: error },
    );
  if (found.some((e) => code(e) === '28P01' || code(e) === '28000'))
    return new SystemError(
      'database-auth-failed',
      `june: the database at ${where} refused the connection: wrong user or password (${messageOf(found)}). Fix the user and password in --database.`,
      { cause: error },
    );
  if (found.some((e) => code(e) === '3D000'))
    return new SystemError(
      'database-missing',
      `june: the database at ${where} does not exist and could not be created (${messageOf(found)}). Create it, or let a worker create it with a user that may.`,
      { cause: error },
    );
  return error;
}

/** The URL without its password, for messages. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the given --database URL';
  }
}

function causes(error: unknown): unknown[] {
  const all: unknown[] = [];
  for (let e = error, depth = 0; e && depth < 6; depth++) {
    all.push(e);
    if (e instanceof AggregateError) all.push(...e.errors);
    e = (e as { cause?: unknown }).cause;
  }
  return all;
}

function messageOf(errors: unknown[]): string {
  const first = errors.find((e) => e instanceof Error && e.message);
  return first instanceof Error ? first.message.split('\n')[0]! : 'no details';
}
