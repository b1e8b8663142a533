import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link Namespace}. */
export interface NamespaceProps {
  /** The prefix: letters, digits and hyphens, starting with a letter. Tools become `name_tool`. */
  name: string;
  /** Capabilities only: tools, bundles, wrappers, `<Inherit>`, fragments. */
  children?: JuneNode;
}

/**
 * Puts `name_` in front of every tool declared inside it, so tools from different sources
 * can share an agent. Nested namespaces apply innermost first:
 * `<Namespace name="a"><Namespace name="b">` gives `a_b_tool`.
 *
 * @throws {WorkflowError} `namespace-name-invalid` for a name that is not letters, digits
 *   and hyphens starting with a letter; `wrapper-content-invalid` when it holds anything
 *   other than capabilities.
 * @example
 * ```tsx
 * <Namespace name="github">
 *   <Tool name="search" value={searchIssues} />
 * </Namespace>
 * ```
 */
export const Namespace = builtin(
  'namespace',
  'Namespace',
  (_props: NamespaceProps): JuneNode => null,
);
