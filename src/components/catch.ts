import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link Catch}. */
export interface CatchProps {
  /** How many times to render the children again after a failure. @default 0 */
  retries?: number;
  /** Rendered (in place of the children) when the last attempt failed; without it the error fails the run. */
  fallback?: (error: unknown) => JuneNode | Promise<JuneNode>;
  children?: JuneNode;
}

/**
 * An error boundary for a part of a workflow. When evaluating its children fails (a step, a
 * capability that could not be resolved), it renders them again, up to `retries` times, each
 * attempt resolving capabilities afresh; then it renders `fallback`, or the run fails.
 * An abort is never caught. Each failure and retry is an event and a trace node.
 *
 * @throws {WorkflowError} `catch-retries-invalid` when `retries` is not a whole number >= 0.
 * @example
 * ```tsx
 * <Catch retries={2} fallback={(error) => <Agent model={model}><Step id="apology" prompt="Say sorry" /></Agent>}>
 *   <Agent model={model}><Flaky /><Step id="work" prompt="Do it" /></Agent>
 * </Catch>
 * ```
 */
export const Catch = builtin('catch', 'Catch', (_props: CatchProps): JuneNode => null);
