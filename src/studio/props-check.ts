import { fitProps, propsMisfitMessage } from '../workflows/index.js';
import { StudioRequestError } from '../host/studio-request-error.js';

/**
 * Checks props sent from Studio's page: a JSON object and, when the workflow exports a props
 * schema (`WorkflowEntry.propsSchema`, JSON Schema), valid against it ({@link fitProps}, as
 * `june run --props` is checked).
 *
 * @returns the props, as parsed by the schema (defaults filled in) or as given without one
 * @throws {StudioRequestError} `studio-props-invalid` (400) naming each field that does not fit.
 */
export function checkProps(
  props: unknown,
  schema: Record<string, unknown> | undefined,
  workflowId: string,
): Record<string, unknown> {
  if (typeof props !== 'object' || props === null || Array.isArray(props))
    throw new StudioRequestError(
      'studio-props-invalid',
      `june: the props of ${workflowId} must be a JSON object, e.g. { "version": "1.2.0" }.`,
      400,
    );
  const fit = fitProps(props as Record<string, unknown>, schema);
  if ('props' in fit) return fit.props;
  throw new StudioRequestError(
    'studio-props-invalid',
    propsMisfitMessage(workflowId, fit.problems, 'Fix them in the form and start again.'),
    400,
  );
}
