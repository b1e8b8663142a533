import { declarationComponent, type ToolSource, type ToolSourceConnection } from '../capabilities/declaration.js';
import type { JuneNode } from '../elements/element.js';

export type { ToolSource, ToolSourceConnection };

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
