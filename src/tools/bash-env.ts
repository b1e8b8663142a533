/**
 * The variables `bashTool()` copies from the parent process's environment by default (when
 * they are set): what most commands need to find programs, a home directory, a locale and a
 * temp directory. Everything else, API keys and tokens included, stays out unless passed
 * with the `env` option.
 *
 * @example
 * ```ts
 * // Also let the command see the proxy settings:
 * bashTool({ inheritEnv: [...BASH_TOOL_DEFAULT_INHERIT_ENV, 'HTTPS_PROXY'] });
 * ```
 */
export const BASH_TOOL_DEFAULT_INHERIT_ENV: readonly string[] = Object.freeze([
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
]);

/**
 * Builds a command's environment: the variables named in `inheritEnv` that the parent process
 * has, then `env` on top (a value of `undefined` removes a variable).
 *
 * @example
 * ```ts
 * buildBashEnv(['PATH'], { CI: '1' }); // { PATH: '/usr/bin:/bin', CI: '1' }
 * ```
 */
export function buildBashEnv(
  inheritEnv: readonly string[],
  env: Readonly<Record<string, string | undefined>> | undefined,
  parentEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of inheritEnv) {
    const value = parentEnv[name];
    if (value !== undefined) result[name] = value;
  }
  for (const [name, value] of Object.entries(env ?? {})) {
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}
