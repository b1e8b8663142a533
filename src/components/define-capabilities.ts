import { markBundleBody } from '../capabilities/bundle-body.js';
import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Options of {@link defineCapabilities}. */
export interface DefineCapabilitiesOptions {
  /** The name errors and provenance use: `<Files>`. @default the function's name, else "Capabilities" */
  name?: string;
}

/**
 * Makes a reusable bundle of capabilities: a component that adds what it returns to the
 * agent it stands in. A bundle is transparent (no scope of its own), may return other
 * bundles, `<Tool>`s, wrappers, fragments and conditions on its props, and must be a pure
 * function of its props: June calls it while the agent resolves.
 *
 * @throws {WorkflowError} (when the agent resolves) `bundle-content-invalid` when it returns
 *   a `<Step>`, an `<Agent>` or a component of your own; `bundle-cycle` when it contains itself.
 * @example
 * ```tsx
 * export const Files = defineCapabilities(
 *   ({ writable = false }: { writable?: boolean }) => (
 *     <>
 *       <Tool name="readFile" value={readFile} />
 *       {writable && <Tool name="writeFile" value={writeFile} />}
 *     </>
 *   ),
 *   { name: 'Files' },
 * );
 * // <Agent model={model}><Files writable /> ...</Agent>
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a bundle without props
export function defineCapabilities<P extends object = {}>(
  body: (props: P) => JuneNode,
  options: DefineCapabilitiesOptions = {},
): (props: P) => JuneNode {
  const name = options.name ?? (body.name || 'Capabilities');
  const component = builtin('bundle', name, (props: P): JuneNode => body(props));
  markBundleBody(component, body);
  return component;
}
