/**
 * Collects the values of a flag given more than once (commander's argument parser for a
 * repeatable option, with `[]` as its default): `--redact-env A --redact-env B` → `['A', 'B']`.
 *
 * @example
 * ```ts
 * command.option('--redact-env <name>', 'keep this variable out (repeatable)', repeatedFlag, []);
 * ```
 */
export function repeatedFlag(value: string, previous: string[]): string[] {
  return [...previous, value];
}
