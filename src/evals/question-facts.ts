import type { Trace } from '../trace/trace-node.js';
import { toolCallsIn } from './trace-facts.js';

/**
 * One question a run asked (a `<Question>` the model called), found in a trace, child runs
 * included:
 *
 * - `name`: the question's tool name; `step`: the step path that asked (`release:ship:go`
 *   three levels down);
 * - `prompt`, `answerSchema`: what was asked, and the JSON Schema an answer had to fit;
 * - `status`: `answered` (the answer is `answer`), `denied` (the model read `reason`; a
 *   timeout without `onTimeout` says `no answer within <timeoutMs> ms`), `pending` (still
 *   waiting when the trace was taken), `withdrawn` (the run was aborted first);
 * - `source`, `answeredBy`, `answeredAt`: through which way, who and when (`timeout` for a
 *   question its timeout settled); `automatic`: a policy or the timeout answered, not a
 *   person; `replayed`: the answer came from the run's journal.
 */
export interface EvalQuestion {
  name: string;
  step: string | undefined;
  prompt: string;
  answerSchema: Record<string, unknown>;
  status: 'pending' | 'answered' | 'denied' | 'withdrawn';
  answer?: unknown;
  reason?: string;
  source?: string;
  answeredBy?: string;
  answeredAt?: string;
  automatic: boolean;
  replayed?: true;
}

/**
 * Every question a run asked, in the order of `toolCallsIn` (child runs at any depth
 * included), with its answer: what a scorer reads to check what was asked and answered.
 *
 * @param trace - a run's trace (`result.trace`, a trace file's content, `WorkflowEvalOutput.trace`).
 * @example
 * ```ts
 * const [env] = questionsIn(output.trace);
 * env.status === 'answered' && env.answer === 'staging';
 * ```
 */
export function questionsIn(trace: Trace): EvalQuestion[] {
  return toolCallsIn(trace).flatMap((call): EvalQuestion[] => {
    const approval = call.approval;
    if (approval?.kind !== 'question' || approval.question === undefined) return [];
    const status =
      approval.status === 'responded'
        ? 'answered'
        : approval.status === 'denied' || approval.status === 'withdrawn'
          ? approval.status
          : 'pending';
    return [
      {
        name: call.tool,
        step: call.step,
        prompt: approval.question.prompt,
        answerSchema: approval.question.answerSchema,
        status,
        ...(approval.output !== undefined ? { answer: approval.output } : {}),
        ...(approval.reason !== undefined ? { reason: approval.reason } : {}),
        ...(approval.source !== undefined ? { source: approval.source } : {}),
        ...(approval.answeredBy !== undefined ? { answeredBy: approval.answeredBy } : {}),
        ...(approval.answeredAt !== undefined ? { answeredAt: approval.answeredAt } : {}),
        automatic: approval.automatic === true,
        ...(approval.replayed ? { replayed: true as const } : {}),
      },
    ];
  });
}
