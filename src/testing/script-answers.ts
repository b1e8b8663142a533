import type { ApprovalSource } from '../approvals/approval-source.js';
import type { GivenAnswer } from '../approvals/given-answer.js';
import type { ModelScript } from './script-format.js';

/**
 * The approval source of a script: it answers the approval request of each scripted tool
 * call that has an `answer` (see `ScriptApprovalAnswer`), as a person would, under the name
 * `script`. A request is matched by its step path and tool call id (the call's `id`, or
 * `call_<step>_<turn>_<n>`); one the script does not answer waits for another answer.
 *
 * @example
 * ```ts
 * const model = scriptedModel('test/fixtures/scripts/edit-deploy.json');
 * await run(<Release model={model} />, { approvalSources: [model.approvals] }).result;
 * ```
 */
export function scriptAnswers(script: ModelScript): ApprovalSource {
  const answers = new Map<string, GivenAnswer[]>();
  for (const [step, turns] of Object.entries(script.steps))
    turns.forEach((turn, index) =>
      (turn.toolCalls ?? []).forEach((call, n) => {
        if (call.answer === undefined) return;
        const id = call.id ?? `call_${step}_${index + 1}_${n + 1}`;
        const key = `${step}\u0000${id}`;
        answers.set(key, [...(answers.get(key) ?? []), { ...call.answer }]);
      }),
    );
  return {
    name: 'script',
    requested(request, inbox) {
      // a provider's ids may repeat: each answer goes to the next request with its id
      const waiting = answers.get(`${request.step}\u0000${request.toolCallId}`);
      const answer = waiting?.shift();
      if (answer !== undefined) inbox.answer(request.id, answer);
    },
  };
}
