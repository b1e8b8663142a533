import { declarationComponent, type ToolSource, type ToolSourceConnection } from '../capabilities/declaration.js';
import type { JuneNode } from '../elements/element.js';
import { WorkflowError } from '../errors/june-error.js';

export type { ToolSource, ToolSourceConnection };

/** Options of {@link defineToolSource}. */
export interface DefineToolSourceOptions {
  /** The component's name in errors and provenance, e.g. `"GitHub"` shows as `<GitHub>`. */
  name: string;
  /**
   * Opens the source and lists its tools. `signal` aborts when the run does (or ends before
   * the connection is needed): reject promptly then, releasing anything half-opened.
   */
  connect: (options: { signal: AbortSignal }) => Promise<ToolSourceConnection>;
}

/** A component made by {@link defineToolSource}: no props; `source` is what a run connects to. */
export type ToolSourceComponent = (() => JuneNode) & { readonly source: ToolSource };

/**
 * Defines a capability whose tools arrive later: place the returned component in an agent's
 * children like any capability. Before the agent's steps start, June awaits `connect` (the
 * run stays open meanwhile); several agents of one run that declare the same component share
 * one connection; aborting the run aborts the wait; a failure fails the run (or the nearest
 * `<Catch>`, which connects afresh on retry); `close` runs once when the run ends, however it
 * ends. The tools then obey every scope rule: `<Namespace>`, `<RequireApproval>`,
 * `<Inherit>` and name collisions apply as to a `<Tool>`.
 *
 * @throws {WorkflowError} `tool-source-invalid` when `name` is not a non-empty string or
 *   `connect` is not a function; and (when a run connects) when `connect` resolves to
 *   something other than `{ tools, close? }`.
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
export function defineToolSource(options: DefineToolSourceOptions): ToolSourceComponent {
  const name = options?.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new WorkflowError('tool-source-invalid', `june: defineToolSource() needs a name (a non-empty string, shown as <Name> in errors and traces); got ${JSON.stringify(name) ?? 'undefined'}.`);
  }
  if (typeof options.connect !== 'function') {
    throw new WorkflowError('tool-source-invalid', `june: defineToolSource({ name: ${JSON.stringify(name)} }) needs connect: ({ signal }) => Promise<{ tools, close? }>.`);
  }
  const source: ToolSource = {
    name,
    connect: async ({ signal }) => checkConnection(name, await options.connect({ signal })),
  };
  const component = declarationComponent<Record<string, never>>(name, () => ({ notation: `<${name}>`, source }));
  Object.defineProperty(component, 'source', { value: source, enumerable: true });
  return component as unknown as ToolSourceComponent;
}

function checkConnection(name: string, connection: unknown): ToolSourceConnection {
  const value = connection as Partial<ToolSourceConnection> | null | undefined;
  const toolsOk = typeof value?.tools === 'object' && value.tools !== null && !Array.isArray(value.tools);
  const closeOk = value?.close === undefined || typeof value.close === 'function';
  if (typeof value === 'object' && value !== null && toolsOk && closeOk) return value as ToolSourceConnection;
  if (closeOk && typeof value?.close === 'function') void Promise.resolve().then(() => value.close!()).catch(() => {});
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? `an object with keys ${JSON.stringify(Object.keys(value))}` : typeof value;
  throw new WorkflowError(
    'tool-source-invalid',
    `june: the connect function of <${name}> resolved to ${got}; it must resolve to { tools, close? }, with tools an object of AI SDK tools by name and close a function.`,
  );
}
