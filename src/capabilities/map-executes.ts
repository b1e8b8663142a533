import type { ToolSet } from 'ai';
import type { AnyTool } from './declaration.js';

/** The `execute` of an AI SDK tool, as June wraps it. */
export type ToolExecute = NonNullable<AnyTool['execute']>;

/**
 * A copy of `tools` whose `execute` functions are replaced by `wrap(execute, name, tool)`;
 * tools without `execute` stay as they are. The original tools are not changed (a grant
 * must still carry the parent's own tool).
 *
 * @example
 * ```ts
 * const logged = mapExecutes(tools, (execute, name) => (input, options) => {
 *   console.log('calling', name);
 *   return execute(input, options);
 * });
 * ```
 */
export function mapExecutes(
  tools: ToolSet,
  wrap: (execute: ToolExecute, name: string, tool: AnyTool) => ToolExecute,
): ToolSet {
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as ToolExecute | undefined;
    out[name] = execute
      ? ({
          ...tool,
          execute: wrap(
            (input, options) => execute.call(tool, input, options),
            name,
            tool as AnyTool,
          ),
        } as typeof tool)
      : tool;
  }
  return out;
}
