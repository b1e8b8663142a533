import type { ToolSet } from 'ai';
import { WorkflowError } from '../errors/june-error.js';
import type { AnyTool, DeclaredTool, ToolSource } from './declaration.js';

/**
 * A tool name the model can call for a name a source gives (MCP allows names such as
 * `files.read`): every character other than a letter, digit, `_` or `-` becomes `_`, and
 * the name is cut to 64 characters. A valid name stays as it is. Deterministic, so a run
 * and its resume see the same names.
 *
 * @example
 * ```ts
 * validToolName('files.read'); // 'files_read'
 * validToolName('search'); // 'search'
 * ```
 */
export function validToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/**
 * The tools of a connected source as an agent declares them: only those `source.pick`
 * names (all when it has none), each under `source.rename`'s name for it, else under
 * {@link validToolName}. A tool whose name changed keeps its own as `original` (for
 * provenance and collision errors); its `execute` is the source's, so a call reaches the
 * source under the original name.
 *
 * @throws {WorkflowError} `tool-source-invalid` when `pick` or `rename` names a tool the source
 *   does not have (the message lists the ones it has).
 * @example
 * ```ts
 * sourceTools({ 'files.read': read, search }, source, '<Docs>');
 * // [{ name: 'files_read', tool: read, original: 'files.read' }, { name: 'search', tool: search }]
 * ```
 */
export function sourceTools(tools: ToolSet, source: ToolSource, notation: string): DeclaredTool[] {
  const names = Object.keys(tools);
  const asked = [...(source.pick ?? []), ...Object.keys(source.rename ?? {})];
  const missing = asked.filter((name) => !Object.hasOwn(tools, name));
  if (missing.length > 0) {
    throw new WorkflowError(
      'tool-source-invalid',
      `june: ${notation} has no tool named ${missing.map((name) => JSON.stringify(name)).join(', ')} (named in its pick or rename); it has ${names.map((name) => JSON.stringify(name)).join(', ') || 'no tools'}.`,
    );
  }
  const picked = source.pick ? names.filter((name) => source.pick!.includes(name)) : names;
  return picked.map((original) => {
    const name = source.rename?.[original] ?? validToolName(original);
    return { name, tool: tools[original] as AnyTool, ...(name !== original ? { original } : {}) };
  });
}
