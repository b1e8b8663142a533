import type { ToolSet } from 'ai';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import type { CollidingDeclaration } from '../errors/june-error-details.js';
import {
  chainNotation,
  collectCapabilities,
  declarationPlace,
  type CollectedDeclaration,
  type Frame,
} from './collect.js';
import { declareInherit } from './declare-inherit.js';
import { sourceTools } from './source-tools.js';
import {
  declarationOf,
  type AnyTool,
  type CompositeToolSpec,
  type DeclaredTool,
  type ToolSource,
} from './declaration.js';
import type { CapabilityProvenance, ResolvedCapability, ResolvedScope } from './scope.js';

/** How the caller turns a composite declaration into an AI SDK tool (the interpreter runs it). */
export type CompositeToolFactory = (
  spec: CompositeToolSpec,
  declaration: CollectedDeclaration,
) => AnyTool;

/** Input of {@link resolveCapabilities}. */
export interface ResolveInput {
  /** The agent's children. */
  children: JuneNode;
  /** The agent's `tools` prop. */
  toolsProp?: ToolSet;
  /**
   * The enclosing agent's resolved scope, for `<Inherit>`. `undefined` when no agent
   * encloses this one (then `<Inherit>` fails).
   */
  parent?: ResolvedScope;
  /** Makes composite tools executable; without it they resolve with no `execute`. */
  compositeTool?: CompositeToolFactory;
  /** How to name the agent in messages. @default "<Agent>" */
  agentNotation?: string;
  /** How to name the enclosing agent (`parent`'s) in messages. @default "<Agent>" */
  parentNotation?: string;
  /**
   * Tools of the tool sources already connected, by source. A declared source missing here
   * contributes no tools and is listed in the output's `waits`.
   */
  connected?: ReadonlyMap<ToolSource, ToolSet>;
}

/** A tool source the agent declares whose tools are not known yet. */
export interface PendingToolSource {
  source: ToolSource;
  /** The declaration with its bundles and wrappers: `<Filesystem> in <Namespace name="fs">`. */
  notation: string;
}

/** Output of {@link resolveCapabilities}: the scope, and the children that are not capabilities. */
export interface ResolveOutput {
  scope: ResolvedScope;
  others: JuneNode[];
  /** Tool sources to connect before the scope is complete; resolve again with `connected`. */
  waits: PendingToolSource[];
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Resolves one agent's capabilities, in the order June documents: collect declarations
 * (through fragments, arrays, bundles and wrappers), look up grants in the parent's resolved
 * scope, apply wrappers innermost first, add the `tools` prop, then check that every name is
 * valid and unique. Pure and synchronous: no model is called.
 *
 * @throws {WorkflowError} `capability-collision` (names both declarations with their
 *   bundles and wrappers, and what an `<Inherit>` brought), `tool-name-invalid`,
 *   `tool-value-invalid`, every error of `declareInherit` (`inherit-*`) and of
 *   `collectCapabilities`.
 * @example
 * ```tsx
 * const { scope, others } = resolveCapabilities({
 *   children: (
 *     <Namespace name="github">
 *       <Tool name="search" value={searchIssues} />
 *     </Namespace>
 *   ),
 * });
 * Object.keys(scope.tools); // ['github_search']
 * scope.capabilities; // [{ name: 'github_search', source: '<Tool name="search"> in <Namespace name="github">' }]
 * ```
 */
export function resolveCapabilities(input: ResolveInput): ResolveOutput {
  const agentNotation = input.agentNotation ?? '<Agent>';
  const { declarations, others } = collectCapabilities(input.children, agentNotation);
  const byName = new Map<string, ResolvedCapability>();
  const inherited = new Map<string, CollectedDeclaration>();
  const waits: PendingToolSource[] = [];

  const add = (entry: ResolvedCapability) => {
    const existing = byName.get(entry.name);
    if (existing) {
      throw new WorkflowError(
        'capability-collision',
        `june: two capabilities of ${agentNotation} expose the tool name "${entry.name}": ${describeEntry(existing)} and ${describeEntry(entry)}. A tool name appears once per agent: rename one, put one in a <Namespace>, or remove one.`,
        {
          details: {
            agent: agentNotation,
            name: entry.name,
            declarations: [collidingDeclaration(existing), collidingDeclaration(entry)],
          },
        },
      );
    }
    byName.set(entry.name, entry);
  };

  for (const declaration of declarations) {
    for (const base of declare(declaration, input, inherited, waits)) {
      add(declaredCapability(base, declaration));
    }
  }

  for (const [name, tool] of Object.entries(input.toolsProp ?? {})) {
    if (!TOOL_NAME.test(name)) {
      throw new WorkflowError(
        'tool-name-invalid',
        `june: the tools prop of ${agentNotation} has a tool named ${JSON.stringify(name)}; tool names are letters, digits, "_" and "-", 1 to 64 characters. Rename it.`,
      );
    }
    add({
      name,
      tool: tool as AnyTool,
      provenance: { name, source: `tools={{ ${name} }}` },
      declared: false,
    });
  }

  const tools: ToolSet = {};
  for (const [name, entry] of byName) tools[name] = entry.tool;
  const scope: ResolvedScope = { tools, byName };
  if (declarations.length > 0)
    scope.capabilities = [...byName.values()].map((entry) => entry.provenance);
  const pending = [
    ...waits.map((wait) => wait.notation),
    ...(declarations.some((d) => d.kind === 'inherit') ? (input.parent?.pending ?? []) : []),
  ];
  if (pending.length > 0) scope.pending = pending;
  return { scope, others, waits };
}

/** A declared tool under its final name (namespaces applied), with where it came from. */
function declaredCapability(
  base: DeclaredTool,
  declaration: CollectedDeclaration,
): ResolvedCapability {
  const { name, tool } = applyFrames(base.name, base.tool, declaration.frames);
  checkName(name, declaration);
  const provenance: CapabilityProvenance = {
    name,
    source: chainNotation(declaration.notation, declaration.frames),
  };
  if (base.granted) provenance.granted = base.granted;
  if (base.composite) provenance.composite = true;
  if (base.original !== undefined) provenance.original = base.original;
  return {
    name,
    tool,
    provenance,
    declared: true,
    location: locationSuffix(declaration.element.source),
  };
}

function declare(
  declaration: CollectedDeclaration,
  input: ResolveInput,
  inherited: Map<string, CollectedDeclaration>,
  waits: PendingToolSource[],
): DeclaredTool[] {
  const { element } = declaration;
  switch (declaration.kind) {
    case 'tool':
      return [declareTool(element, declaration, input)];
    case 'inherit':
      return declareInherit(declaration, input.parent, inherited, {
        ...(input.agentNotation !== undefined ? { agent: input.agentNotation } : {}),
        ...(input.parentNotation !== undefined ? { parent: input.parentNotation } : {}),
      });
    case 'declaration': {
      const declared = declarationOf(element.type)!(element.props, element);
      if (declared.composite) {
        return [
          {
            name: declared.composite.name,
            tool: compositeTool(declared.composite, declaration, input),
            composite: true,
          },
        ];
      }
      let tools = declared.tools;
      if (declared.source) {
        tools = input.connected?.get(declared.source);
        if (!tools) {
          waits.push({
            source: declared.source,
            notation: chainNotation(declaration.notation, declaration.frames),
          });
          return [];
        }
      }
      if (declared.source)
        return sourceTools(
          tools ?? {},
          declared.source,
          chainNotation(declaration.notation, declaration.frames),
        );
      return Object.entries(tools ?? {}).map(([name, tool]) => ({ name, tool: tool as AnyTool }));
    }
  }
}

function declareTool(
  element: JuneElement,
  declaration: CollectedDeclaration,
  input: ResolveInput,
): DeclaredTool {
  const props = element.props as {
    name?: unknown;
    value?: unknown;
    children?: unknown;
    description?: string;
    input?: unknown;
    output?: (r: unknown) => unknown;
  };
  const where = declarationPlace(declaration);
  if (typeof props.name !== 'string') {
    throw new WorkflowError(
      'tool-name-invalid',
      `june: ${chainNotation(`<Tool>${locationSuffix(element.source)}`, declaration.frames)} has no name; give it name="..." (letters, digits, "_" and "-").`,
    );
  }
  if (typeof props.children === 'function') {
    if (props.value !== undefined) {
      throw new WorkflowError(
        'tool-value-invalid',
        `june: ${where} has both a value and a function child; give an AI SDK tool as value, or a workflow as its child, not both.`,
      );
    }
    if (props.input === undefined) {
      throw new WorkflowError(
        'tool-value-invalid',
        `june: ${where} runs a workflow but has no input schema; add input={z.object({ ... })}.`,
      );
    }
    const spec: CompositeToolSpec = {
      name: props.name,
      description: props.description,
      inputSchema: props.input,
      render: props.children as CompositeToolSpec['render'],
      output: props.output,
    };
    return { name: props.name, tool: compositeTool(spec, declaration, input), composite: true };
  }
  const value = props.value;
  if (typeof value !== 'object' || value === null || !('inputSchema' in value)) {
    throw new WorkflowError(
      'tool-value-invalid',
      `june: ${where} has no AI SDK tool as its value (got ${value === null ? 'null' : typeof value}); pass value={tool({ description, inputSchema, execute })}.`,
    );
  }
  return { name: props.name, tool: value as AnyTool };
}

function compositeTool(
  spec: CompositeToolSpec,
  declaration: CollectedDeclaration,
  input: ResolveInput,
): AnyTool {
  if (input.compositeTool) return input.compositeTool(spec, declaration);
  return { description: spec.description, inputSchema: spec.inputSchema } as AnyTool;
}

function applyFrames(
  name: string,
  tool: AnyTool,
  frames: Frame[],
): { name: string; tool: AnyTool } {
  // Innermost first: each namespace puts its prefix in front of what the inner ones made, so
  // the outermost ends up first; any <RequireApproval> makes the tool wait.
  let prefixed = name;
  let approval = false;
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i]!;
    if (frame.kind === 'namespace') prefixed = `${frame.name}_${prefixed}`;
    else if (frame.kind === 'require-approval') approval = true;
  }
  const waits = approval && (tool as { needsApproval?: unknown }).needsApproval !== true;
  return { name: prefixed, tool: waits ? ({ ...tool, needsApproval: true } as AnyTool) : tool };
}

function checkName(name: string, declaration: CollectedDeclaration): void {
  if (!TOOL_NAME.test(name)) {
    throw new WorkflowError(
      'tool-name-invalid',
      `june: ${declarationPlace(declaration)} exposes the tool name ${JSON.stringify(name)}; tool names are letters, digits, "_" and "-", 1 to 64 characters.`,
    );
  }
}

/** One side of a collision: its provenance, where it stands, and what an `<Inherit>` brought. */
/** One side of a `capability-collision`, as the error's details hold it. */
function collidingDeclaration(entry: ResolvedCapability): CollidingDeclaration {
  const { source, granted, original } = entry.provenance;
  const location = entry.location?.trim().replace(/^at /, '');
  return {
    source,
    ...(original !== undefined ? { original } : {}),
    ...(location ? { location } : {}),
    ...(granted ? { granted } : {}),
  };
}

function describeEntry(entry: ResolvedCapability): string {
  const { source, granted, original } = entry.provenance;
  const notes = [
    original !== undefined ? `its tool ${JSON.stringify(original)}` : '',
    entry.location?.trim() ?? '',
    granted ? `it brought ${granted}` : '',
  ].filter(Boolean);
  return notes.length ? `${source} (${notes.join('; ')})` : source;
}
