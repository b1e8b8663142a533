import { answerSchemaSummary } from './answer-schema-summary.js';
import { WorkflowError } from '../errors/june-error.js';
import { jsonForm } from '../json/json-form.js';
import type { AnswerCheck } from './answer-check.js';
import type { ApprovalRequest } from './approval-request.js';
import type { SettledAnswer } from './approval-answer-result.js';
import type { GivenAnswer } from './given-answer.js';

/** An answer's edit (`input`) or its answer instead of the tool (`output`), as JSON. */
export type AnswerEdits = { input?: unknown; output?: unknown };

/**
 * An answer's own fields, checked before it is applied: `answeredAt` must be a time, an
 * `input` comes with an approval and an `output` with a denial, each a JSON value.
 * @returns the answer's `input` and `output` in their JSON form, those given.
 * @throws {WorkflowError} `approval-answer-invalid` naming the request `ref` and what to change.
 */
export function checkAnswer(ref: string, given: GivenAnswer): AnswerEdits {
  const at = given.answeredAt;
  const ms =
    at === undefined
      ? 0
      : at instanceof Date
        ? at.getTime()
        : typeof at === 'string'
          ? Date.parse(at)
          : NaN;
  const invalid = (what: string) =>
    new WorkflowError(
      'approval-answer-invalid',
      `june: the answer to approval request "${ref}" ${what}`,
    );
  if (Number.isNaN(ms))
    throw invalid(
      `has answeredAt ${JSON.stringify(String(at))}, which is not a time; give an ISO 8601 string such as "2026-12-01T09:30:00Z" or a Date, or leave it out (now).`,
    );
  const edits: AnswerEdits = {};
  if (given.input !== undefined) {
    if (given.approved !== true)
      throw invalid(
        'denies the call and gives an input; an edited input comes with an approval ({ approved: true, input }). To answer instead of the tool, give output.',
      );
    edits.input = jsonOf(given.input, 'input', invalid);
  }
  if (given.output !== undefined) {
    if (given.approved !== false)
      throw invalid(
        'approves the call and gives an output; an answer instead of the tool comes with approved: false ({ approved: false, output }), as the tool does not run. To run it with another input, give input.',
      );
    edits.output = jsonOf(given.output, 'output', invalid);
  }
  return edits;
}

/** `value` in its JSON form (answers are recorded); else `approval-answer-invalid`. */
function jsonOf(value: unknown, field: string, invalid: (what: string) => WorkflowError): unknown {
  const form = jsonForm(value);
  if (form.ok) return form.value;
  throw invalid(
    `has an ${field} with no JSON form (${form.problem}); answers are recorded, so give a JSON value.`,
  );
}

/**
 * The answer against what the request may take: a question is answered with a value or
 * denied, never approved; an edit is checked against the tool's input schema, an answer
 * instead of the tool (a question's answer) against its output schema. A value that does
 * not fit is refused, and the request still waits.
 *
 * @throws {WorkflowError} `question-answer-missing` when a question is approved (it has
 *   no call to run: the answer is the value); `approval-input-invalid`,
 *   `approval-output-invalid` when a value does not fit its schema.
 */
export function checkEdits(
  request: ApprovalRequest,
  check: AnswerCheck | undefined,
  given: { approved: boolean } & AnswerEdits,
): void {
  if (request.kind === 'question' && given.approved) throw questionApproved(request);
  const call = `the "${request.tool}" call of approval request "${request.id}" in step "${request.step}"`;
  const inputProblem = given.input !== undefined ? check?.input?.(given.input) : undefined;
  if (inputProblem !== undefined)
    throw new WorkflowError(
      'approval-input-invalid',
      `june: the edited input for ${call} does not fit the tool's input schema: ${inputProblem}. Nothing changed and the request still waits: approve with an input the schema accepts, approve without one, or deny.`,
    );
  const outputProblem = given.output !== undefined ? check?.output?.(given.output) : undefined;
  if (outputProblem === undefined) return;
  if (request.kind === 'question')
    throw new WorkflowError(
      'approval-output-invalid',
      `june: the answer to the question "${request.tool}" (approval request "${request.id}" in step "${request.step}") does not fit its answer schema: ${outputProblem}. Nothing changed and the question still waits: answer with a value the schema accepts (${schemaShown(request)}), or deny it with a reason.`,
    );
  throw new WorkflowError(
    'approval-output-invalid',
    `june: the output given instead of ${call} does not fit the tool's output schema: ${outputProblem}. Nothing changed and the request still waits: give an output the schema accepts, or approve or deny the call.`,
  );
}

/** A question approved without a value: there is no call to run, so nothing would answer it. */
function questionApproved(request: ApprovalRequest): WorkflowError {
  return new WorkflowError(
    'question-answer-missing',
    `june: the question "${request.tool}" in step "${request.step}" (approval request "${request.id}": ${JSON.stringify(request.question?.prompt ?? '')}) was approved without an answer, but a question is answered with a value that fits its answer schema (${schemaShown(request)}), and approving gives none (june run --approve all approves tool calls, not questions). Answer it with handle.respond("${request.id}", value), { approved: false, output: value } from a source or a script, or answerQuestion(value) from an onApproval policy; or deny it with a reason the model reads. Nothing changed and the question still waits.`,
  );
}

/** A question's answer schema, short enough for a message. */
function schemaShown(request: ApprovalRequest): string {
  return answerSchemaSummary(request.question?.answerSchema ?? {});
}

/** How an answer reads in a message: approved (with an edited input), denied, answered instead of the tool. */
export function answerWord(answer: SettledAnswer): string {
  if (answer.output !== undefined) return 'answered instead of the tool';
  if (!answer.approved) return 'denied';
  return answer.input !== undefined ? 'approved with an edited input' : 'approved';
}
