import { asSchema } from 'ai';
import type { Component, JuneElement } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import { createElement, isElement } from '../elements/element.js';
import { isReactElement, reactElementError } from '../elements/jsx-setup.js';
import { approvalFlag } from '../capabilities/scope.js';
import { budgetsIn, guardsIn } from './guard-entry.js';
import type { CapabilityProvenance, ResolvedCapability } from '../capabilities/scope.js';
import { WorkflowError } from '../errors/june-error.js';
import { evaluate } from './evaluate.js';
import { createRunFrame } from './run-state.js';
import { InspectPass } from './inspect-pass.js';
import { inspectComposites } from './inspect-composites.js';
import { findingDeclarations } from './find-declarations.js';

/** One tool of an inspected agent: its name, whether it waits for approval, and where it came from. */
export interface InspectedTool {
  name: string;
  /** `true`, `false`, or `"dynamic"` when a function decides per call. */
  needsApproval: boolean | 'dynamic';
  /** As in the trace's `capabilities`; for a `tools` prop entry: `tools={{ name }}`. */
  source: string;
  granted?: string;
  composite?: true;
  /** The `<Guard>`s that check its calls, outermost first, by declaration (`<Guard name="no-prod">`). */
  guards?: string[];
  /** The `<Budget>`s that cap the model calls of the steps that call it, outermost first, by declaration. */
  budgets?: string[];
  /**
   * Where the tool was declared, `file:line:column` (the file from the current directory):
   * as `jsxDEV` recorded it, or, for an element from `jsx` (`"jsx": "react-jsx"`), the line
   * that made it while `inspect()` rendered; with `details` only, and only when known.
   */
  declaration?: string;
  /** The tool's input schema as JSON Schema; with `details` only. */
  inputSchema?: Record<string, unknown>;
  /**
   * The tool's output schema as JSON Schema, when it declares one (`outputSchema`); with
   * `details` only. Studio's fork form builds the new result's fields from it.
   */
  outputSchema?: Record<string, unknown>;
}

/** One agent the tree renders, with its resolved tools. */
export interface InspectedAgent {
  /** The agent's name and those of the agents around it, joined by ` > ` (`agent > agent`). */
  path: string;
  name: string;
  tools: InspectedTool[];
  /**
   * Tool sources (`defineToolSource`, `defineMCPServer`) the agent declares: their tools are
   * known only once a run connects, so `inspect()` lists the declarations instead.
   */
  toolSources?: string[];
  /**
   * The `<Guard>`s over the agent, outermost first, by declaration: they check every tool
   * call of its steps, its tool sources' tools included.
   */
  guards?: string[];
  /** The `<Budget>`s over the agent, outermost first, by declaration: they cap its steps' model calls. */
  budgets?: string[];
  /** Where the `<Agent>` was declared, `file:line:column`; with `details` only, when known. */
  declaration?: string;
  /**
   * The `<Parallel>` branch the agent runs in: its key (a child's `key`, else its position),
   * the keys of nested branches joined by ` > `. Absent outside any branch.
   */
  branch?: string;
}

/** Options of {@link inspect}. */
export interface InspectOptions {
  /** Props for the root component, when `workflow` is a component. */
  props?: Record<string, unknown>;
  /**
   * Sample inputs for composite tools (a `<Tool>` with a function child, a `defineAgent`
   * agent), by the name the calling model sees (`research`) or by path
   * (`research:summarize`): each named tool's body is rendered for its input and its agents
   * are added to the report (`research:agent`). Without it, composite bodies are not looked
   * into, since what they render depends on the input.
   */
  compositeInputs?: Record<string, unknown>;
  /**
   * Adds, for tools that know them, each tool's `declaration` (`file:line:column`) and
   * `inputSchema` (JSON Schema), and each agent's `declaration`: what a picture of the scopes
   * links to and builds input forms from (Studio's capability map). A declaration is where
   * `jsxDEV` (`"jsx": "react-jsxdev"`) recorded the element, or, for an element from `jsx`
   * (`"jsx": "react-jsx"`, as `june init` writes) made while `inspect()` renders, the line
   * that made it, from a stack trace: the `.tsx` line where source maps are on (tsx, vitest,
   * `node --enable-source-maps`). An element made before `inspect()` was called (at a
   * module's top level) has none then. Without `details` the report holds neither field, so
   * snapshots of it stay as they are, and no stack trace is taken. @default false
   */
  details?: boolean;
}

/** What {@link inspect} returns: plain data, made for `toMatchSnapshot()`. */
export interface InspectReport {
  agents: InspectedAgent[];
}

/**
 * Resolves the capabilities of every agent the tree renders, without calling a model: your
 * components render, steps are checked but not run, and a step's render-prop child is not
 * followed (it needs the step's result). The branches of a `<Parallel>` are walked one after
 * the other; an agent in one says which (`branch`). It does not see: composite tool bodies unless
 * `compositeInputs` gives a sample input, a `<Catch>` fallback, the tools of tool sources
 * (MCP servers: listed as `toolSources`), nor what a `needsApproval` function decides.
 *
 * @throws {WorkflowError} `inspect-composite-unknown` when `compositeInputs` names no composite tool.
 * @throws {WorkflowError} every tree and capability error a run would throw before its first model call.
 * @example
 * ```tsx
 * test('release scope', async () => {
 *   expect(await inspect(<Release />)).toMatchSnapshot();
 * });
 * ```
 */
export async function inspect(
  workflow: JuneElement | Component,
  options: InspectOptions = {},
): Promise<InspectReport> {
  const element =
    typeof workflow === 'function'
      ? createElement(workflow, { ...(options.props ?? {}) })
      : workflow;
  if (isReactElement(element)) throw reactElementError(element);
  if (!isElement(element))
    throw new WorkflowError(
      'run-workflow-invalid',
      'june: inspect() takes an element such as <Workflow /> or a component.',
    );
  const pass = new InspectPass(options.compositeInputs);
  const frame = createRunFrame({ pass, runId: 'inspect', prefix: [], signal: pass.signal });
  const details = options.details === true;
  const render = async () => {
    await evaluate(element, { run: frame, parentId: frame.nodeId });
    if (options.compositeInputs) await inspectComposites(pass, options.compositeInputs, evaluate);
  };
  await (details ? findingDeclarations(render) : render());
  return {
    agents: await Promise.all(
      pass.agents.map(async (agent) => ({
        path: agent.path,
        name: agent.name,
        tools: await Promise.all(
          [...agent.scope.byName.values()].map(async (entry) => ({
            ...tool(entry.provenance, approvalFlag(entry.tool)),
            ...(details ? await toolDetails(entry) : {}),
          })),
        ),
        ...(agent.waiting ? { toolSources: agent.waiting } : {}),
        ...declarationsOf('guards', guardsIn(agent.guards ?? [])),
        ...declarationsOf('budgets', budgetsIn(agent.guards ?? [])),
        ...(agent.branch !== undefined ? { branch: agent.branch } : {}),
        ...(details ? declarationOf(locationSuffix(agent.element.source)) : {}),
      })),
    ),
  };
}

/** A tool's `declaration`, `inputSchema` and `outputSchema` (JSON Schema), those it has. */
async function toolDetails(
  entry: ResolvedCapability,
): Promise<Pick<InspectedTool, 'declaration' | 'inputSchema' | 'outputSchema'>> {
  type Schema = Parameters<typeof asSchema>[0];
  const tool = entry.tool as { inputSchema?: Schema; outputSchema?: Schema };
  const jsonForm = async (schema: Schema | undefined) =>
    schema === undefined
      ? undefined
      : ((await asSchema(schema).jsonSchema) as Record<string, unknown>);
  const inputSchema = await jsonForm(tool.inputSchema);
  const outputSchema = await jsonForm(tool.outputSchema);
  return {
    ...declarationOf(entry.location),
    ...(inputSchema !== undefined ? { inputSchema } : {}),
    ...(outputSchema !== undefined ? { outputSchema } : {}),
  };
}

/** `{ declaration: 'file:line:column' }` from a location suffix (` at file:12:7`), or nothing. */
function declarationOf(location: string | undefined): { declaration?: string } {
  const declaration = location?.trim().replace(/^at /, '');
  return declaration ? { declaration } : {};
}

function tool(provenance: CapabilityProvenance, needsApproval: boolean | 'dynamic'): InspectedTool {
  return {
    name: provenance.name,
    needsApproval,
    source: provenance.source,
    ...(provenance.granted ? { granted: provenance.granted } : {}),
    ...(provenance.composite ? { composite: true } : {}),
    ...(provenance.guards ? { guards: provenance.guards } : {}),
    ...(provenance.budgets ? { budgets: provenance.budgets } : {}),
  };
}

/** `{ guards: [...] }` or `{ budgets: [...] }` with the entries' declarations, or nothing. */
function declarationsOf<K extends 'guards' | 'budgets'>(
  key: K,
  entries: ReadonlyArray<{ declaration: string }>,
): Partial<Record<K, string[]>> {
  if (entries.length === 0) return {};
  return { [key]: entries.map((entry) => entry.declaration) } as Partial<Record<K, string[]>>;
}
