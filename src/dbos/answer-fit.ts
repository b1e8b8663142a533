import { answerProblem } from '../approvals/answer-problem.js';
import { WorkflowError } from '../errors/index.js';
import type { DbosAnswer } from './dbos-answer.js';
import type { DbosApprovalRequest } from './dbos-engine.js';

/**
 * Checks an answer given over the database before it is stored, as the run's inbox checks
 * one given in its process: an `input` comes with an approval and an `output` with a denial;
 * an edited input must fit the tool's input schema and an answer instead of the tool its
 * output schema, as the request published them in JSON Schema (a request without one takes
 * the value as it is; the worker checks again with the tool's own schema).
 * A question (`kind: 'question'`) is answered with an `output` or denied; approving one is
 * refused.
 * @throws {WorkflowError} `question-answer-missing` for an approved question;
 *   `approval-answer-invalid`, `approval-input-invalid` or `approval-output-invalid`, naming
 *   the tool, the request and what failed; nothing is stored.
 */
export function checkAnswerFits(request: DbosApprovalRequest, answer: DbosAnswer): void {
  if (request.kind === 'question' && answer.approved)
    throw new WorkflowError(
      'question-answer-missing',
      `june: the question "${request.tool}" in step "${request.step}" (approval request "${request.id}": ${JSON.stringify(request.question?.prompt ?? '')}) was approved without an answer, but a question is answered with a value that fits its answer schema, and approving gives none. Answer it with a value (june approve ... --answer <json>, or an "output" with "approved": false over Studio's API or RunClient.approve), or deny it with a reason the model reads. Nothing changed and the question still waits.`,
    );
  const call = `the "${request.tool}" call of approval request "${request.id}" in step "${request.step}"`;
  if (answer.input !== undefined && answer.approved !== true)
    throw new WorkflowError(
      'approval-answer-invalid',
      `june: the answer to ${call} denies the call and gives an input; an edited input comes with an approval. To answer instead of the tool, give output.`,
    );
  if (answer.output !== undefined && answer.approved !== false)
    throw new WorkflowError(
      'approval-answer-invalid',
      `june: the answer to ${call} approves the call and gives an output; an answer instead of the tool comes with approved: false, as the tool does not run. To run it with another input, give input.`,
    );
  const inputProblem = answerProblem(request.inputSchema, answer.input);
  if (inputProblem !== undefined)
    throw new WorkflowError(
      'approval-input-invalid',
      `june: the edited input for ${call} does not fit the tool's input schema: ${inputProblem}. Nothing changed and the request still waits: approve with an input the schema accepts, approve without one, or deny.`,
    );
  const outputProblem = answerProblem(
    request.outputSchema ?? request.question?.answerSchema,
    answer.output,
  );
  if (outputProblem !== undefined && request.kind === 'question')
    throw new WorkflowError(
      'approval-output-invalid',
      `june: the answer to the question "${request.tool}" (approval request "${request.id}" in step "${request.step}") does not fit its answer schema: ${outputProblem}. Nothing changed and the question still waits: answer with a value the schema accepts, or deny it with a reason.`,
    );
  if (outputProblem !== undefined)
    throw new WorkflowError(
      'approval-output-invalid',
      `june: the output given instead of ${call} does not fit the tool's output schema: ${outputProblem}. Nothing changed and the request still waits: give an output the schema accepts, or approve or deny the call.`,
    );
}
