import type { ApprovalSource } from '../approvals/approval-source.js';
import type { GivenAnswer } from '../approvals/given-answer.js';
import type { ModelScript } from './script-format.js';

/** What {@link scriptAnswers} leaves out. */
export interface ScriptAnswersOptions {
  /**
   * How many of each step's turns the script was given without (earlier runs or a journal
   * took them): a turn's default call ids count them, as the scripted model's do.
   */
  taken?: Record<string, number>;
  /**
   * The requests answered already (a journal's approval answers, by step path and tool call
   * id): each takes the script's first answer for its call, which is not given again.
   */
  answered?: ReadonlyArray<{ step: string; toolCallId: string }>;
}

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
export function scriptAnswers(
  script: ModelScript,
  options: ScriptAnswersOptions = {},
): ApprovalSource {
  const answers = new Map<string, GivenAnswer[]>();
  for (const [step, turns] of Object.entries(script.steps)) {
    const first = (options.taken?.[step] ?? 0) + 1;
    turns.forEach((turn, index) =>
      (turn.toolCalls ?? []).forEach((call, n) => {
        if (call.answer === undefined) return;
        const id = call.id ?? `call_${step}_${first + index}_${n + 1}`;
        const key = `${step}\u0000${id}`;
        answers.set(key, [...(answers.get(key) ?? []), { ...call.answer }]);
      }),
    );
  }
  for (const { step, toolCallId } of options.answered ?? [])
    answers.get(`${step}\u0000${toolCallId}`)?.shift();
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
