/**
 * A branch's part of a place among a run's calls: its key in brackets (`[a]`), with `/`,
 * `|`, `[`, `]` and `%` escaped as in a URL, so places stay unambiguous.
 *
 * @example
 * ```ts
 * branchSegment('a'); // '[a]'
 * ```
 */
export function branchSegment(key: string): string {
  return `[${key.replace(/[/|[\]%]/g, (c) => encodeURIComponent(c))}]`;
}

/**
 * The `<Parallel>` branches among a place's calls, outermost first, as their keys joined by
 * ` > `; `undefined` outside any branch.
 *
 * @example
 * ```ts
 * branchPathOf(['[a]', 'fetch#0.1', '[2]']); // 'a > 2'
 * ```
 */
export function branchPathOf(calls: readonly string[]): string | undefined {
  const keys = calls
    .filter((call) => call.startsWith('[') && call.endsWith(']'))
    .map((call) => decodeURIComponent(call.slice(1, -1)));
  return keys.length > 0 ? keys.join(' > ') : undefined;
}
