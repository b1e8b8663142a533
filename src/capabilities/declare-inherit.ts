import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import { chainNotation, declarationPlace, type CollectedDeclaration } from './collect.js';
import type { DeclaredTool } from './declaration.js';
import type { ResolvedScope } from './scope.js';

/** How to name, in messages, the agent an `<Inherit>` stands in and the agent it takes from. */
export interface InheritAgents {
  /** The agent holding the `<Inherit>`: `<Agent name="writer"> at flow.tsx:12:5`. */
  agent?: string;
  /** The enclosing agent it takes tools from. @default "<Agent>" */
  parent?: string;
}

/**
 * The tools an `<Inherit capabilities={[...]}>` takes from the enclosing agent's resolved
 * scope: each the parent's own tool under the parent's name, wrappers and approvals
 * included, with `granted` saying what it was there (`<Tool name="files"> in the enclosing
 * <Agent>`). `inherited` collects the names taken so far by this agent's `<Inherit>`s.
 *
 * @throws {WorkflowError} `inherit-outside-agent` when `parent` is undefined;
 *   `inherit-capabilities-invalid` when `capabilities` is not an array of strings;
 *   `inherit-duplicate-name` when a name is taken twice (naming both `<Inherit>`s);
 *   `inherit-unknown-name` when the parent has no tool of a name (listing the ones it has);
 *   a name missing from a parent whose tool sources are still `pending` is skipped instead.
 * @example
 * ```ts
 * const inherited = new Map();
 * const [files] = declareInherit(declaration, parentScope, inherited);
 * // files: { name: 'files', tool: <the parent's tool>, granted: '<Tool name="files"> in the enclosing <Agent>' }
 * ```
 */
export function declareInherit(
  declaration: CollectedDeclaration,
  parent: ResolvedScope | undefined,
  inherited: Map<string, CollectedDeclaration>,
  agents: InheritAgents = {},
): DeclaredTool[] {
  const { element } = declaration;
  const names = (element.props as { capabilities?: unknown }).capabilities;
  const where = `${declarationPlace(declaration)}${agents.agent ? ` in ${agents.agent}` : ''}`;
  if (!parent) {
    throw new WorkflowError(
      'inherit-outside-agent',
      `june: ${where} stands in an agent that no other agent encloses, so there is nothing to inherit. Declare the tools in this agent, or nest it in the agent that has them.`,
    );
  }
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw new WorkflowError(
      'inherit-capabilities-invalid',
      `june: ${chainNotation(`<Inherit>${locationSuffix(element.source)}`, declaration.frames)} needs capabilities={["toolName", ...]}, an array of the parent's tool names.`,
    );
  }
  return (names as string[]).flatMap((name) => {
    const earlier = inherited.get(name);
    if (earlier) {
      const both =
        earlier === declaration
          ? `${where} lists it twice`
          : `${declarationPlace(earlier)} and ${where} both list it`;
      throw new WorkflowError(
        'inherit-duplicate-name',
        `june: the tool "${name}" is inherited twice: ${both}. Name each tool once.`,
      );
    }
    inherited.set(name, declaration);
    const granted = parent.byName.get(name);
    if (!granted) {
      // the parent's tool sources are not connected (inspect, the static check): a run checks the name
      if (parent.pending?.length) return [];
      throw unknownGrant(name, where, [...parent.byName.keys()], agents.parent);
    }
    return [
      {
        name,
        tool: granted.tool,
        granted: `${granted.provenance.source} in the enclosing <Agent>`,
        ...(granted.provenance.composite ? { composite: true as const } : {}),
      },
    ];
  });
}

const LISTED_NAMES_MAX = 30;

function unknownGrant(
  name: string,
  where: string,
  has: string[],
  parentAgent = '<Agent>',
): WorkflowError {
  const shown = has
    .slice(0, LISTED_NAMES_MAX)
    .map((n) => `"${n}"`)
    .join(', ');
  const more = has.length > LISTED_NAMES_MAX ? ` and ${has.length - LISTED_NAMES_MAX} more` : '';
  const namespaced = has.find((n) => n.endsWith(`_${name}`));
  const hint = namespaced
    ? ` Did you mean "${namespaced}"? A grant uses the name as the parent sees it, after its namespaces.`
    : ' Use a name the parent has, as it sees it (after its namespaces), or declare the tool in the parent.';
  return new WorkflowError(
    'inherit-unknown-name',
    `june: ${where} names "${name}", but the enclosing ${parentAgent} has no tool of that name; it has ${has.length ? `${shown}${more}` : 'no tools'}.${hint}`,
  );
}
