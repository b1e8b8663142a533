import { z } from 'zod';
import { StudioRequestError } from './studio-request-error.js';

/**
 * Checks props sent from Studio's page: a JSON object and, when the workflow exports a props
 * schema (`WorkflowEntry.propsSchema`, JSON Schema), valid against it (read with zod's
 * `z.fromJSONSchema`).
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
  if (schema === undefined) return props as Record<string, unknown>;
  const parsed = z.fromJSONSchema(schema as never).safeParse(props);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(props)'}: ${issue.message}`)
    .join('; ');
  throw new StudioRequestError(
    'studio-props-invalid',
    `june: the props do not fit ${workflowId}'s props schema: ${problems}. Fix them in the form and start again.`,
    400,
  );
}
