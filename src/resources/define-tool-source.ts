import type { ToolSet } from 'ai';
import { declarationComponent } from '../capabilities/declaration.js';
import type { JuneNode } from '../elements/element.js';

/** What a tool source's `connect` gives back: its tools, and how to release what it opened. */
export interface ToolSourceConnection {
  /** The tools, by name, as the source names them (wrappers and namespaces still apply). */
  tools: ToolSet;
  /** Called once when the run ends, however it ends (success, failure or abort). */
  close?: () => void | Promise<void>;
}

/**
 * A source of tools that takes time to reach: a server to connect to, a list to fetch.
 * Resolved at most once per run, shared by every agent that declares it.
 */
export interface ToolSource {
  /** How it is named in errors and provenance: `<GitHub>`. */
  readonly name: string;
  /**
   * Opens the source. `signal` aborts when the run does; reject promptly then (and release
   * anything half-opened).
   */
  connect(options: { signal: AbortSignal }): Promise<ToolSourceConnection>;
}

/** Options of {@link defineToolSource}. */
export interface DefineToolSourceOptions {
  /** The component's name in errors and provenance, e.g. `"GitHub"` shows as `<GitHub>`. */
  name: string;
  /** Opens the source; see {@link ToolSource.connect}. */
  connect: (options: { signal: AbortSignal }) => Promise<ToolSourceConnection>;
}

const SOURCE = Symbol.for('june.tool-source');

/**
 * Defines a capability whose tools arrive later: place the returned component in an agent's
 * children like any capability. Before the agent's steps start, June awaits `connect` (the
 * run stays open meanwhile); several agents of one run that declare the same component share
 * one connection; aborting the run aborts the wait; a failure fails the run (or the nearest
 * `<Catch>`, which connects afresh on retry); `close` runs when the run ends.
 *
 * @example
 * ```tsx
 * const Weather = defineToolSource({
 *   name: 'Weather',
 *   connect: async ({ signal }) => {
 *     const client = await connectToWeatherService({ signal });
 *     return { tools: { forecast: client.forecastTool() }, close: () => client.close() };
 *   },
 * });
 * // <Agent model={model}><Weather /><Step id="plan" prompt="Plan a picnic" /></Agent>
 * ```
 */
export function defineToolSource(options: DefineToolSourceOptions): (() => JuneNode) & { readonly source: ToolSource } {
  const source: ToolSource = { name: options.name, connect: options.connect };
  const component = declarationComponent<Record<string, never>>(options.name, () => ({ notation: `<${options.name}>`, source }));
  Object.defineProperty(component, SOURCE, { value: source });
  Object.defineProperty(component, 'source', { value: source, enumerable: true });
  return component as unknown as (() => JuneNode) & { readonly source: ToolSource };
}
