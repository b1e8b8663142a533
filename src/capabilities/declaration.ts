import type { Tool as AiTool, ToolSet } from 'ai';
import { builtin } from '../elements/builtin.js';
import type { JuneElement, JuneNode } from '../elements/element.js';

const DECLARE = Symbol.for('june.declare');

/**
 * A workflow exposed as one tool: what a composite `<Tool>` or a `defineAgent` agent declares.
 * The interpreter turns it into an AI SDK tool whose `execute` starts a child run.
 */
export interface CompositeToolSpec {
  /** The name the calling model sees. */
  name: string;
  description?: string;
  /** A zod schema (or any AI SDK `FlexibleSchema`) for the model's input. */
  inputSchema: unknown;
  /** Renders the workflow for one call's parsed input. */
  render: (input: any) => JuneNode | Promise<JuneNode>;
  /** Picks what the calling model gets from the child run's result. */
  output?: (result: any) => unknown;
}

/**
 * What a capability component declares: tools it knows now, or a composite tool. Internal
 * extension point used by `<Bash>`, defined agents and async capabilities.
 */
export interface CapabilityDeclaration {
  /** How the declaration is written in errors and provenance, e.g. `<Bash>`. */
  notation: string;
  /** Tools known at once, by name. */
  tools?: ToolSet;
  /** A tool that runs a workflow of its own. */
  composite?: CompositeToolSpec;
  /** Tools that arrive later, from a source the run connects to (see `defineToolSource`). */
  source?: ToolSource;
}

/** What a tool source's `connect` gives back: its tools, and how to release what it opened. */
export interface ToolSourceConnection {
  /** The tools, by name, as the source names them (wrappers and namespaces still apply). */
  tools: ToolSet;
  /** Called once when the run ends, however it ends (success, failure or abort). */
  close?: () => void | Promise<void>;
}

/**
 * A source of tools that takes time to reach: a server to connect to, a list to fetch.
 * Connected at most once per run (by identity), shared by every agent that declares it.
 */
export interface ToolSource {
  /** How it is named in errors and provenance: `GitHub` shows as `<GitHub>`. */
  readonly name: string;
  /** Opens the source. `signal` aborts when the run does: reject promptly then, releasing anything half-opened. */
  connect(options: { signal: AbortSignal }): Promise<ToolSourceConnection>;
  /** Only these of its tools, by the source's own names. @default every tool */
  readonly pick?: readonly string[];
  /** New names for some of its tools: the source's own name to the name the model sees (before namespaces). */
  readonly rename?: Readonly<Record<string, string>>;
}

/**
 * Makes a component that declares capabilities from its props. Internal. `shownProps` are
 * the props its notation shows in provenance and errors (`['name']` gives
 * `<Question name="ask_env">`); none by default (`<Bash>`), since a component's props may
 * hold what must stay out of traces.
 */
export function declarationComponent<P>(
  displayName: string,
  declare: (props: P, element: JuneElement<P>) => CapabilityDeclaration,
  options: { shownProps?: readonly string[] } = {},
) {
  const component = builtin('declaration', displayName, (_props: P): JuneNode => null);
  Object.defineProperty(component, DECLARE, { value: declare });
  if (options.shownProps) Object.defineProperty(component, SHOWN, { value: options.shownProps });
  return component;
}

const SHOWN = Symbol.for('june.shownProps');

/** The props the notation of a declaration component shows (see {@link declarationComponent}). Internal. */
export function shownPropsOf(type: unknown): readonly string[] {
  return (
    (typeof type === 'function'
      ? (type as unknown as Record<symbol, readonly string[] | undefined>)[SHOWN]
      : undefined) ?? []
  );
}

/** The declare function of a declaration component. Internal. */
export function declarationOf(
  type: unknown,
): ((props: any, element: JuneElement) => CapabilityDeclaration) | undefined {
  return typeof type === 'function' ? (type as unknown as Record<symbol, any>)[DECLARE] : undefined;
}

/**
 * One tool a declaration gives, before the wrappers around it apply: its own name, the tool,
 * and for provenance what an `<Inherit>` took it from (`granted`) and whether it runs a
 * workflow (`composite`).
 */
export interface DeclaredTool {
  name: string;
  tool: AnyTool;
  granted?: string;
  composite?: boolean;
  /** The tool's own name at its source, when the agent knows it by another (see `sourceTools`). */
  original?: string;
}

/** An AI SDK tool as June stores it: any tool, static or dynamic. */
export type AnyTool = AiTool<any, any>;
