import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link Inherit}. */
export interface InheritProps {
  /** Names of tools of the enclosing agent (as that agent sees them) to grant to this one. */
  capabilities: readonly string[];
}

/**
 * Grants named tools of the directly enclosing agent to this nested agent. Nothing crosses
 * into a nested agent otherwise. What arrives is the parent's tool as the parent sees it:
 * renamed by its `<Namespace>`, still waiting for approval under its `<RequireApproval>`.
 *
 * @throws {WorkflowError} `inherit-unknown-name` when the parent has no tool of a name
 *   (the message lists the names it has); `inherit-duplicate-name` when a name is listed
 *   twice; `inherit-outside-agent` when no agent encloses the agent it stands in.
 * @example
 * ```tsx
 * <Agent model={big}>
 *   <Tool name="readFile" value={readFile} />
 *   <Agent model={small}>
 *     <Inherit capabilities={['readFile']} />
 *     <Step id="summarize" prompt="Summarize README.md" />
 *   </Agent>
 * </Agent>
 * ```
 */
export const Inherit = builtin('inherit', 'Inherit', (_props: InheritProps): JuneNode => null);
