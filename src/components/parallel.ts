import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link Parallel}. */
export interface ParallelProps {
  /** How many branches run at once (a whole number, 1 or more). @default all of them */
  limit?: number;
  /**
   * What a failed branch does. `fail-fast` (the default) aborts the other branches and fails
   * with the first failure; `settle-all` lets every branch finish, then fails with a
   * `parallel-failed` error naming the branches that failed (their errors in `details`).
   */
  mode?: 'fail-fast' | 'settle-all';
  /** The branches: steps, agents, components, or a list rendered from data (each with a `key`). */
  children?: JuneNode;
}

/**
 * Runs its children at the same time, each as a branch of its own: at most `limit` at once,
 * joined when all have ended. A branch is known by its `key` (else its position), which
 * names its records, so a run taken up again finds each branch's calls whatever order they
 * start in. Inside an agent, each branch talks in a copy of the agent's conversation; after
 * the join the agent's conversation holds each branch's exchange in declaration order.
 * Step results are read by step id as anywhere else (`steps`, a step's render function).
 *
 * @throws {WorkflowError} `parallel-limit-invalid`, `parallel-mode-invalid`,
 *   `parallel-key-duplicate`; `parallel-failed` when branches failed in `settle-all` mode.
 * @example
 * ```tsx
 * <Agent model={model}>
 *   <Parallel limit={3}>
 *     {files.map((file) => (
 *       <Step key={file} id={`review-${file}`} prompt={`Review ${file}`} />
 *     ))}
 *   </Parallel>
 *   <Step id="summary" prompt="Sum up the reviews" />
 * </Agent>
 * ```
 */
export const Parallel = builtin('parallel', 'Parallel', (_props: ParallelProps): JuneNode => null);
