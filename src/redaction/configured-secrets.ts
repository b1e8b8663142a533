import { KNOWN_KEY_VARIABLES, KNOWN_URL_VARIABLES } from './known-credentials.js';
import { REDACTED, Redactor } from './redactor.js';

/**
 * Environment variables whose values are not secrets: what ordinary programs need to find
 * programs, a home, a locale and a terminal. Their values are not redacted when a whole
 * environment (`env: process.env`) is given to a tool.
 */
const ORDINARY_ENV = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TZ',
  'TMPDIR',
  'PWD',
  'OLDPWD',
  'SHLVL',
  'HOSTNAME',
  '_',
  'NODE_ENV',
  'CI',
  'COLUMNS',
  'LINES',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'COLORTERM',
  'TERM_PROGRAM',
]);

/** The shortest environment or query value treated as a secret, in characters: `CI=1` or `debug=true` are not. */
export const MIN_SECRET_LENGTH = 6;

const key = Symbol.for('june.configured-secrets');

/**
 * The credentials configured in this process (URL credentials, header values, `env` values
 * given to MCP servers and `<Bash>`), removed from every record June writes: trace, journal,
 * events and messages, inside `cause` chains too. Kept on `globalThis` so two copies of June
 * in one process share it.
 */
export const configuredSecrets: Redactor =
  ((globalThis as Record<symbol, unknown>)[key] as Redactor | undefined) ?? new Redactor();
(globalThis as Record<symbol, unknown>)[key] = configuredSecrets;

/**
 * Registers the secrets of a configured URL: its userinfo, query and fragment. The whole URL,
 * as given and as normalized, is then shown as `http://[redacted]@host/path?[redacted]`;
 * its parts alone (a password, a query value of {@link MIN_SECRET_LENGTH}+ characters) are
 * redacted wherever they appear.
 *
 * @example
 * ```ts
 * registerUrlSecrets('https://bot:s3cret-pass@example.com/mcp?token=abcdef123');
 * ```
 */
export function registerUrlSecrets(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    configuredSecrets.add(url);
    return;
  }
  const hasUser = parsed.username !== '' || parsed.password !== '';
  if (!hasUser && parsed.search === '' && parsed.hash === '') return;
  const shown = `${parsed.protocol}//${hasUser ? `${REDACTED}@` : ''}${parsed.host}${parsed.pathname}${parsed.search ? `?${REDACTED}` : ''}${parsed.hash ? `#${REDACTED}` : ''}`;
  for (const form of new Set([url, parsed.href])) configuredSecrets.add(form, shown);
  const userinfo = url.match(/^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i)?.[1];
  if (userinfo) configuredSecrets.add(`${userinfo}@`, `${REDACTED}@`);
  if (parsed.password.length >= 4) addEncodedForms(parsed.password);
  if (parsed.search.length > 1) configuredSecrets.add(parsed.search, `?${REDACTED}`);
  for (const value of parsed.searchParams.values())
    if (value.length >= MIN_SECRET_LENGTH) addEncodedForms(value);
  if (parsed.hash.length > 1) configuredSecrets.add(parsed.hash, `#${REDACTED}`);
}

/** Registers header values (an `Authorization` token, an API key header) as secrets. */
export function registerHeaderSecrets(headers: Readonly<Record<string, string>> | undefined): void {
  for (const value of Object.values(headers ?? {})) {
    if (typeof value !== 'string') continue;
    configuredSecrets.add(value);
    // `Bearer <token>`: the token alone is a secret too
    const token = value.match(/^\S+\s+(\S{4,})$/)?.[1];
    if (token) configuredSecrets.add(token);
  }
}

/**
 * Registers the values of an environment given to a tool (an MCP server, `<Bash>`) as
 * secrets: every value of {@link MIN_SECRET_LENGTH}+ characters, except those of ordinary
 * variables such as `PATH` and `HOME`.
 */
export function registerEnvSecrets(
  env: Readonly<Record<string, string | undefined>> | undefined,
): void {
  for (const [name, value] of Object.entries(env ?? {})) {
    if (
      typeof value !== 'string' ||
      value.length < MIN_SECRET_LENGTH ||
      ORDINARY_ENV.has(name) ||
      name.startsWith('LC_')
    )
      continue;
    configuredSecrets.add(value);
  }
}

/**
 * Registers the credentials of the environment that June knows about, whatever model a run
 * uses: the value of each provider key variable ({@link KNOWN_KEY_VARIABLES}, such as
 * `OPENAI_API_KEY`) of {@link MIN_SECRET_LENGTH}+ characters, and the secret parts of each
 * provider URL variable ({@link KNOWN_URL_VARIABLES}, `OPENAI_BASE_URL`). Done when this
 * module loads and again when a run starts, so a variable set after June was imported counts
 * too. Variables that are unset or empty are skipped; nothing is ever removed.
 *
 * @param env the variables to read
 * @default env `process.env`
 * @example
 * ```ts
 * registerKnownCredentials({ OPENAI_API_KEY: 'sk-proj-abc123' });
 * configuredSecrets.text('key sk-proj-abc123'); // 'key [redacted]'
 * ```
 */
export function registerKnownCredentials(
  env: Readonly<Record<string, string | undefined>> = process.env,
): void {
  for (const name of KNOWN_KEY_VARIABLES) {
    const value = env[name];
    if (typeof value !== 'string') continue;
    // providers send the key trimmed (`OPENAI_API_KEY=" sk-..."` sends `sk-...`)
    for (const form of new Set([value, value.trim()]))
      if (form.trim().length >= MIN_SECRET_LENGTH) configuredSecrets.add(form);
  }
  for (const name of KNOWN_URL_VARIABLES) {
    const value = env[name]?.trim();
    if (value && URL.canParse(value)) registerUrlSecrets(value);
  }
}

/** Registers one secret value (a provider's API key), whatever its length. */
export function registerSecretValue(value: string | undefined): void {
  if (typeof value === 'string' && value.trim() !== '') configuredSecrets.add(value);
}

function addEncodedForms(value: string): void {
  configuredSecrets.add(value);
  const encoded = encodeURIComponent(value);
  if (encoded !== value) configuredSecrets.add(encoded);
}

// a bundle for a browser has no process: nothing to read there
if (typeof process !== 'undefined') registerKnownCredentials();
