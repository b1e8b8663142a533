import { asSchema, tool, type FlexibleSchema } from 'ai';
import { z } from 'zod';
import { asQuestionTool } from '../approvals/question-tool.js';
import { declarationComponent, type AnyTool } from '../capabilities/declaration.js';
import type { JuneNode } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import { jsonForm } from '../json/json-form.js';

/** The longest timeout a timer takes (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
const LONGEST_TIMEOUT_MS = 2_147_483_647;

/** Props of {@link Question}. */
export interface QuestionProps<ANSWER = any> {
  /** The tool name the model calls to ask: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /**
   * What an answer must be, as a zod schema (or any AI SDK `FlexibleSchema`): `z.enum([...])`
   * for a choice, `z.number()`, `z.string()`, `z.object({ ... })` for a form. Its JSON Schema
   * is in every request (`question.answerSchema`), so a UI can build the form; an answer
   * that does not fit is refused to whoever gave it.
   */
  answer: FlexibleSchema<ANSWER>;
  /**
   * The question, fixed. Without it the model writes the question in each call (its input is
   * `{ question: string }`); with it the model's input is `{}` and this is what is asked.
   */
  prompt?: string;
  /** What the model reads about the tool. @default "Ask a person ..." with the prompt, if any */
  description?: string;
  /**
   * How long a question waits, in milliseconds (1 to 2147483647), before it settles by
   * itself: with `onTimeout`, answered with its value; else denied, and the model reads
   * `no answer within <timeoutMs> ms`. The wait counts from when the run asks (again after
   * a resume). @default none: it waits until answered, denied or the run is aborted
   */
  timeoutMs?: number;
  /** With `timeoutMs`: the answer given when nobody answered in time (recorded as automatic, through `timeout`). */
  onTimeout?: { answer: NoInfer<ANSWER> };
}

/**
 * Declares a question the model may ask a person, as a capability of the enclosing agent
 * (beside `<Tool>`s, in an `<Agent>`'s children, a bundle or a wrapper). The model sees one
 * tool, `name`; a call pauses its step with an approval request of `kind: 'question'` whose
 * `question` holds the prompt and the JSON Schema of an answer. A person answers it with a
 * value (`handle.respond(id, value)`, or `{ approved: false, output: value }` from any
 * source, a policy's `answerQuestion(value)`, a script's `answer`), checked against
 * `answer`; the model reads that value as the tool's result. A denial's reason reaches the
 * model as for any tool. Approving a question is refused (`question-answer-missing`): there
 * is nothing to run. Recorded, resumed, replayed and nested as any approval is.
 *
 * @throws {WorkflowError} `question-invalid` (when the agent resolves) when `name` is not a
 *   string, `answer` is not a schema with a JSON Schema, `timeoutMs` is not a whole number
 *   of ms from 1 to 2147483647, or `onTimeout` comes without `timeoutMs` or has an answer
 *   that is not JSON or does not fit `answer`.
 * @example
 * ```tsx
 * <Agent model={model}>
 *   <Question name="ask_env" answer={z.enum(['staging', 'prod'])} prompt="Deploy where?" />
 *   <Tool name="deploy" value={deploy} />
 *   <Step id="release" prompt="Ask where to deploy, then deploy there" />
 * </Agent>
 * ```
 */
export const Question = declarationComponent<QuestionProps>(
  'Question',
  (props, element) => {
    const where = `${questionNotation(props)}${locationSuffix(element.source)}`;
    checkProps(props, where);
    return {
      notation: questionNotation(props),
      tools: { [props.name]: questionTool(props, where) },
    };
  },
  { shownProps: ['name'] },
) as <ANSWER = any>(props: QuestionProps<ANSWER>) => JuneNode;

/** `<Question name="ask_env">`, as provenance shows it. */
function questionNotation(props: QuestionProps): string {
  return typeof props.name === 'string'
    ? `<Question name=${JSON.stringify(props.name)}>`
    : '<Question>';
}

/** The AI SDK tool a question is: always waits, never runs (it is answered or denied). */
function questionTool(props: QuestionProps, where: string): AnyTool {
  const answerSchema = jsonSchemaOf(props.answer, where);
  const asked = tool({
    description:
      props.description ??
      (props.prompt !== undefined
        ? `Ask a person: ${JSON.stringify(props.prompt)}. Their answer is the result.`
        : 'Ask a person a question and wait for their answer, which is the result.'),
    inputSchema:
      props.prompt !== undefined
        ? z.object({})
        : z.object({ question: z.string().describe('The question, as the person will read it') }),
    outputSchema: props.answer,
    needsApproval: true,
    execute: async () => {
      throw new WorkflowError(
        'question-answer-missing',
        `june: ${where} ran without an answer; a question is answered with a value (handle.respond) or denied, never approved.`,
      );
    },
  }) as AnyTool;
  return asQuestionTool(asked, {
    answerSchema,
    ...(props.prompt !== undefined ? { prompt: props.prompt } : {}),
    ...(props.timeoutMs !== undefined ? { timeoutMs: props.timeoutMs } : {}),
    ...(props.onTimeout !== undefined ? { onTimeout: { answer: props.onTimeout.answer } } : {}),
  });
}

/** The answer schema's JSON Schema (a promise when the schema gives one). */
function jsonSchemaOf(
  answer: FlexibleSchema<unknown>,
  where: string,
): Record<string, unknown> | PromiseLike<Record<string, unknown>> {
  try {
    return asSchema(answer).jsonSchema as Record<string, unknown>;
  } catch (error) {
    throw invalid(
      where,
      `has an answer schema with no JSON Schema (${error instanceof Error ? error.message : String(error)}); UIs build their form from it, so use a schema that has one (zod, valibot, or jsonSchema())`,
      error,
    );
  }
}

function checkProps(props: QuestionProps, where: string): void {
  const { name, answer, prompt, timeoutMs, onTimeout } = props;
  if (typeof name !== 'string')
    throw invalid(
      where,
      'has no name; give it name="..." (letters, digits, "_" and "-"), the tool name the model calls',
    );
  if (typeof answer !== 'object' && typeof answer !== 'function')
    throw invalid(
      where,
      'has no answer schema; give it answer={z.enum([...])}, z.number(), z.string() or z.object({ ... })',
    );
  if (prompt !== undefined && typeof prompt !== 'string')
    throw invalid(where, 'has a prompt that is not a string');
  if (
    timeoutMs !== undefined &&
    !(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= LONGEST_TIMEOUT_MS)
  )
    throw invalid(
      where,
      `has timeoutMs ${String(timeoutMs)}; give a whole number of milliseconds from 1 to ${LONGEST_TIMEOUT_MS}`,
    );
  if (onTimeout === undefined) return;
  if (timeoutMs === undefined)
    throw invalid(
      where,
      'has onTimeout but no timeoutMs; say how long it waits, e.g. timeoutMs={600_000}',
    );
  if (typeof onTimeout !== 'object' || onTimeout === null || !('answer' in onTimeout))
    throw invalid(where, 'has an onTimeout without an answer; give onTimeout={{ answer: value }}');
  const form = jsonForm(onTimeout.answer);
  if (!form.ok)
    throw invalid(
      where,
      `has an onTimeout answer with no JSON form (${form.problem}); answers are recorded, so give a JSON value`,
    );
  const problem = syncIssue(answer, onTimeout.answer);
  if (problem !== undefined)
    throw invalid(where, `has an onTimeout answer that does not fit its answer schema: ${problem}`);
}

/** The first issue a Standard Schema reports for `value`, when it checks synchronously. */
function syncIssue(schema: unknown, value: unknown): string | undefined {
  const standard = (schema as { '~standard'?: { validate?: (v: unknown) => unknown } })[
    '~standard'
  ];
  const result = standard?.validate?.(value) as { issues?: Array<{ message: string }> } | undefined;
  if (!result || typeof (result as { then?: unknown }).then === 'function') return undefined;
  return result.issues?.[0]?.message;
}

function invalid(where: string, what: string, cause?: unknown): WorkflowError {
  return new WorkflowError(
    'question-invalid',
    `june: ${where} ${what}.`,
    cause === undefined ? {} : { cause },
  );
}
