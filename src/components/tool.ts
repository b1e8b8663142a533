import type { Tool as AiTool } from 'ai';
import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link Tool} declaring an existing AI SDK tool. */
export interface ToolProps {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** An AI SDK tool, e.g. made with `tool({ description, inputSchema, execute })`. */
  value: AiTool<any, any>;
  children?: never;
}

/**
 * Declares one tool as a capability of the enclosing agent. Place it directly in an
 * `<Agent>`'s children, or in a fragment, array, bundle or wrapper there.
 *
 * @throws {WorkflowError} `capability-collision` when another capability of the agent
 *   exposes the same name; `capability-outside-agent-children` when rendered from a component.
 * @example
 * ```tsx
 * <Agent model={model}>
 *   <Tool name="readFile" value={readFile} />
 * </Agent>
 * ```
 */
export const Tool = builtin('tool', 'Tool', (_props: ToolProps): JuneNode => null);
