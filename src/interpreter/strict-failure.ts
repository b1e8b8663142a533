import { WorkflowError } from '../errors/june-error.js';
import { traceFailureList } from '../trace/trace-failures.js';
import type { TraceNode } from '../trace/trace-node.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * What fails a run under `strict`, though it succeeded: a workflow error (an error whose
 * blame is the workflow's author, such as an `<Inherit>` typo in a composite tool's body)
 * anywhere in the tree, even one a calling model saw as a tool error or a `<Catch>` caught;
 * or a scripted model (`june/testing`) given as the run's `model` with turns that never ran.
 * `undefined` when there is none.
 *
 * @example
 * ```ts
 * const error = strictFailure(frame.trace, options.model);
 * if (error) throw error;
 * ```
 */
export function strictFailure(root: TraceNode, model: unknown): WorkflowError | undefined {
  for (const failure of traceFailureList(root)) {
    const found = [failure.error, ...failure.causes].find(
      (error) => error.name === 'WorkflowError',
    );
    if (!found) continue;
    const where =
      failure.kind === 'tool'
        ? `the tool "${failure.name}" failed`
        : `a <Catch> caught a failure (${failure.name})`;
    const code = found.code ? ` (${found.code})` : '';
    return new WorkflowError(
      'run-strict-failed',
      `june: strict: ${where} with a workflow error${code}: ${found.message.replace(/^june: /, '')} Without strict, the run goes on past it; fix the workflow.`,
    );
  }
  const scripted = model as { assertAllTurnsUsed?: unknown } | undefined;
  if (scripted && typeof scripted.assertAllTurnsUsed === 'function') {
    try {
      (scripted.assertAllTurnsUsed as () => void)();
    } catch (error) {
      const message = errorMessage(error);
      return new WorkflowError(
        'run-strict-failed',
        `june: strict: ${message.replace(/^june: /, '')}`,
        { cause: error },
      );
    }
  }
  return undefined;
}
