import type { AskedQuestion } from '../approvals/approval-request.js';

/** The `_meta` key of a `tools/call` that names its call, so a call made again finds its run. */
export const IDEMPOTENCY_KEY = 'june/idempotency-key';

/** The `_meta` key of a served June workflow's elicitation that says what it asks ({@link JuneRequestMeta}). */
export const REQUEST_META = 'june/request';

/** The `_meta` key of a served June workflow's elicitation that names the `tools/call` it is asked for (its JSON-RPC id). */
export const RELATED_META = 'june/related-request';

/**
 * How a form's fields map to an answer: an approval's edit (its input's own fields, one
 * `input` field of JSON text, or none), a question's answer (its fields, one `answer`
 * field, or `answer` as JSON text).
 */
export type JuneFormFields =
  | { kind: 'approval'; edit: 'fields' | 'json' | 'none'; editFields: string[] }
  | { kind: 'question'; answer: 'fields' | 'field' | 'json'; answerFields: string[] };

/**
 * What a served June workflow's elicitation asks, beside its form: the request as the served
 * run has it, so a June run that called the workflow can ask its own people the same thing
 * (an approval of `tool` with `input`, or `question`) and fill the form with their answer.
 * - `name`: the request's key within the served run (its key without the run id), the same
 *   on every resume; `~2`, `~3`... added when the served run asks again because an answer
 *   did not fit (an edited input its tool refused);
 * - `step`: the served run's step path.
 */
export interface JuneRequestMeta {
  name: string;
  tool: string;
  input: unknown;
  step: string;
  question?: AskedQuestion;
  form: JuneFormFields;
}

/** The {@link JuneRequestMeta} of an elicitation's `_meta`, when it carries one that reads as such. */
export function juneRequestOf(meta: unknown): JuneRequestMeta | undefined {
  const value = (meta as Record<string, unknown> | undefined)?.[REQUEST_META] as
    Partial<JuneRequestMeta> | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (typeof value.name !== 'string' || typeof value.tool !== 'string') return undefined;
  const form = value.form as Partial<JuneFormFields> | undefined;
  if (form?.kind !== 'approval' && form?.kind !== 'question') return undefined;
  return value as JuneRequestMeta;
}
