import {
  declarationComponent,
  type ToolSource,
  type ToolSourceConnection,
} from '../capabilities/declaration.js';
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
  /**
   * Only these of the source's tools, by the source's own names (`["search", "files.read"]`);
   * the others are not offered to the model. @default every tool
   */
  pick?: readonly string[];
  /**
   * New names for some tools: the source's own name to the name the model sees, before any
   * `<Namespace>` (`{ "files.read": "read_file" }`). A name a model cannot call (MCP allows
   * `files.read`) that is not renamed becomes a valid one: each other character turns into
   * `_` (`files_read`). Calls still reach the source under its own name, and the agent's
   * provenance records it as `original`. @default no renames
   */
  rename?: Readonly<Record<string, string>>;
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
 * Tool names: `pick` keeps some of the source's tools, `rename` gives some another name,
 * and a name a model cannot call (`files.read`) becomes a valid one (`files_read`); calls
 * still reach the source under its own name, and two tools that end up with one name fail
 * with `capability-collision`, naming both.
 *
 * @throws {WorkflowError} `tool-source-invalid` when `name` is not a non-empty string,
 *   `connect` is not a function, `pick` is not a list of names or `rename` does not map
 *   names to valid tool names; and (when a run connects) when `connect` resolves to
 *   something other than `{ tools, close? }`, or `pick` or `rename` names a tool the source
 *   does not have.
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
    throw new WorkflowError(
      'tool-source-invalid',
      `june: defineToolSource() needs a name (a non-empty string, shown as <Name> in errors and traces); got ${JSON.stringify(name) ?? 'undefined'}.`,
    );
  }
  if (typeof options.connect !== 'function') {
    throw new WorkflowError(
      'tool-source-invalid',
      `june: defineToolSource({ name: ${JSON.stringify(name)} }) needs connect: ({ signal }) => Promise<{ tools, close? }>.`,
    );
  }
  checkSelection(name, options);
  const source: ToolSource = {
    name,
    connect: async ({ signal }) => checkConnection(name, await options.connect({ signal })),
    ...(options.pick !== undefined ? { pick: [...options.pick] } : {}),
    ...(options.rename !== undefined ? { rename: { ...options.rename } } : {}),
  };
  const component = declarationComponent<Record<string, never>>(name, () => ({
    notation: `<${name}>`,
    source,
  }));
  Object.defineProperty(component, 'source', { value: source, enumerable: true });
  return component as unknown as ToolSourceComponent;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `pick` is a list of names, `rename` maps names to valid tool names. */
function checkSelection(name: string, options: DefineToolSourceOptions): void {
  const where = `defineToolSource({ name: ${JSON.stringify(name)} })`;
  const { pick, rename } = options;
  if (
    pick !== undefined &&
    !(Array.isArray(pick) && pick.every((item) => typeof item === 'string' && item !== ''))
  ) {
    throw new WorkflowError(
      'tool-source-invalid',
      `june: ${where} has a pick that is not a list of tool names; pass pick: ["search", "files.read"], the source's own names.`,
    );
  }
  if (rename === undefined) return;
  if (typeof rename !== 'object' || rename === null || Array.isArray(rename)) {
    throw new WorkflowError(
      'tool-source-invalid',
      `june: ${where} has a rename that is not an object; pass rename: { "files.read": "read_file" }, the source's own name to the new one.`,
    );
  }
  for (const [from, to] of Object.entries(rename)) {
    if (typeof to !== 'string' || !TOOL_NAME.test(to)) {
      throw new WorkflowError(
        'tool-source-invalid',
        `june: ${where} renames ${JSON.stringify(from)} to ${JSON.stringify(to)}; tool names are letters, digits, "_" and "-", 1 to 64 characters.`,
      );
    }
  }
}

function checkConnection(name: string, connection: unknown): ToolSourceConnection {
  const value = connection as Partial<ToolSourceConnection> | null | undefined;
  const toolsOk =
    typeof value?.tools === 'object' && value.tools !== null && !Array.isArray(value.tools);
  const closeOk = value?.close === undefined || typeof value.close === 'function';
  if (typeof value === 'object' && value !== null && toolsOk && closeOk)
    return value as ToolSourceConnection;
  if (closeOk && typeof value?.close === 'function')
    void Promise.resolve()
      .then(() => value.close!())
      .catch(() => {});
  const got =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? `an object with keys ${JSON.stringify(Object.keys(value))}`
          : typeof value;
  throw new WorkflowError(
    'tool-source-invalid',
    `june: the connect function of <${name}> resolved to ${got}; it must resolve to { tools, close? }, with tools an object of AI SDK tools by name and close a function.`,
  );
}
