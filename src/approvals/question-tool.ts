import type { AskedQuestion } from './approval-request.js';

const QUESTION = Symbol.for('june.question');

/**
 * What a question tool carries besides the AI SDK tool it is (see `<Question>`): the fixed
 * prompt, if any (else the model's `question` input is asked), the JSON Schema of an answer
 * (or a promise of it, as the AI SDK's `jsonSchema()` may give), and its timeout.
 */
export interface QuestionSpec {
  prompt?: string;
  answerSchema: Record<string, unknown> | PromiseLike<Record<string, unknown>>;
  timeoutMs?: number;
  onTimeout?: { answer: unknown };
}

/**
 * `tool` marked as a question: an enumerable symbol property, so the copies June makes of
 * a tool (wrappers, namespaces, durable execution) keep it.
 *
 * @example
 * ```ts
 * const asking = asQuestionTool(tool({ inputSchema, outputSchema, needsApproval: true }), { answerSchema });
 * ```
 */
export function asQuestionTool<T extends object>(tool: T, spec: QuestionSpec): T {
  return Object.assign(tool, { [QUESTION]: spec });
}

/** The question a tool asks, or `undefined` for any other tool. */
export function questionOf(tool: unknown): QuestionSpec | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  return (tool as { [QUESTION]?: QuestionSpec })[QUESTION];
}

/**
 * The fields an approval request of a call of `tool` with `input` adds when the tool is a
 * question: `kind: 'question'` and what it asks ({@link AskedQuestion}); none for another
 * tool. The prompt is the question's own, else the `question` the model gave.
 *
 * @example
 * ```ts
 * await questionFields(tools.ask_env, { question: 'Which environment?' });
 * // { kind: 'question', question: { prompt: 'Which environment?', answerSchema: { type: 'string', enum: [...] } } }
 * ```
 */
export async function questionFields(
  tool: unknown,
  input: unknown,
): Promise<{ kind?: 'question'; question?: AskedQuestion }> {
  const spec = questionOf(tool);
  if (!spec) return {};
  const asked = (input as { question?: unknown } | null)?.question;
  const question: AskedQuestion = {
    prompt: spec.prompt ?? (typeof asked === 'string' ? asked : ''),
    answerSchema: await spec.answerSchema,
    ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
    ...(spec.onTimeout !== undefined ? { onTimeout: spec.onTimeout } : {}),
  };
  return { kind: 'question', question };
}
