import type { LanguageModel, LanguageModelUsage, ToolSet } from 'ai';
import type {
  ApprovalDecision,
  AskedQuestion,
  GuardEscalation,
} from '../approvals/approval-request.js';
import { answerToolCalls } from '../models/answer-forms.js';
import { isFailedAnswer } from '../models/failed-answer.js';
import { journaledModel, type RecordedModelCall } from '../models/journaled-model.js';
import { readModelAnswer } from '../models/read-model-answer.js';
import type { ModelPrice } from '../models/price.js';
import { CallIds } from './call-ids.js';
import type { ApprovalAnswerResult } from '../approvals/approval-answer-result.js';
import type {
  ApprovalAnswer,
  ApprovalQuestion,
  OutsideAnswer,
  DurableEngine,
  DurablePlace,
  ModelAnswer,
  ToolCallAt,
} from './durable-engine.js';
import { describePlace, placeKey } from './durable-place.js';
import { durableTools } from './durable-tools.js';
import { stepToolApproval, type StepToolApproval } from './tool-approval.js';

/** One approval request of a step, as the AI SDK made it. */
export interface StepApprovalRequest {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** A `<Question>`'s: what it asks (see `ApprovalRequest.question`). */
  question?: AskedQuestion;
  /** The `<Guard>` that escalated the call (see `ApprovalRequest.guard`). */
  guard?: GuardEscalation;
}

/**
 * How the run asks for an approval in this process: `ask()` asks (policy, run handle,
 * prompt), `ask(decision)` gives a recorded answer again at once; `answer(decision)` answers
 * the pending request as a person would (`handle.approve`), for answers from outside.
 */
export interface ApprovalAsking {
  ask(replayed?: ApprovalAnswer | ApprovalDecision): Promise<ApprovalAnswer>;
  answer(decision: OutsideAnswer): ApprovalAnswerResult;
  /** The tool's schemas as JSON Schema (see {@link ApprovalQuestion.schemas}). */
  schemas?: ApprovalQuestion['schemas'];
}

/**
 * What the interpreter hands to one run's {@link DurableEngine}, and the bookkeeping that is
 * the same for every engine: model calls counted per place (their `index`), tool calls given
 * their call id from the model answer that asked for them ({@link CallIds}), each call's
 * approval decided once, and a composite call answered from the record adding its recorded
 * usage. Shared by the outermost run and its child runs.
 *
 * @example
 * ```ts
 * const calls = new DurableCalls(await engineFactory({ runId, workflow, redactor, stop }));
 * const model = calls.model(agentModel, { step: 'release' });
 * const tools = calls.tools(agent.tools, { step: 'release' }, (usage) => addToRun(usage));
 * ```
 */
export class DurableCalls {
  readonly #ids = new CallIds();
  readonly #next = new Map<string, number>();
  /** Tool calls (by key) that needed approval in this process: a call is asked once. */
  readonly #asked = new Set<string>();

  constructor(readonly engine: DurableEngine) {}

  get runId(): string {
    return this.engine.runId;
  }

  get decidesApprovals(): boolean {
    return this.engine.decidesApprovals;
  }

  /**
   * The model for one step's calls, each handed to the engine under `place`
   * ({@link journaledModel}), whatever its provider specification. Each answer made in this
   * process is recorded with `price` (`ModelAnswer.price`), the price its call was made at,
   * so a replay reports the cost the call had.
   *
   * @throws {WorkflowError} `model-spec-unsupported` or `model-invalid` for a model that
   *   cannot be wrapped: its calls would go unrecorded, so it does not run.
   */
  model(model: LanguageModel, place: DurablePlace, price?: ModelPrice): LanguageModel {
    return journaledModel(model, {
      modelCall: (call, work) =>
        this.modelCall(place, call, price ? async () => pricedAnswer(await work(), price) : work),
    });
  }

  /**
   * The next model call at `place`, handed to the engine with its index there. What the
   * engine gives back is read as a {@link ModelAnswer} (a record made before, by June 0.1,
   * too). A failed call's record (`answer.error`) takes its index like an answer does, so the
   * call after it (a retry) has the next index on every resume, and the failure is given back
   * for the model door to throw again.
   *
   * @throws {SystemError} `model-answer-unreadable` when the engine gives back an answer
   *   this June cannot read.
   */
  async modelCall(
    place: DurablePlace,
    call: RecordedModelCall,
    work: () => Promise<ModelAnswer>,
  ): Promise<ModelAnswer> {
    const key = placeKey(place);
    const index = this.#next.get(key) ?? 0;
    const given = await this.engine.modelCall({ place, index, ...call }, work);
    const answer = readModelAnswer(
      given,
      `model call ${index + 1} of ${describePlace(place)} in run ${this.runId}`,
    );
    this.#next.set(key, index + 1);
    // before the AI SDK sees the answer's tool calls: they are known by these ids
    if (!isFailedAnswer(answer)) this.#ids.register(place, index, answerToolCalls(answer));
    return answer;
  }

  /** One step's tools with their executions handed to the engine under `place`; `addUsage` gets a recorded composite call's usage (and its output). */
  tools(
    tools: ToolSet,
    place: DurablePlace,
    addUsage: (usage: LanguageModelUsage, output: unknown) => void,
  ): ToolSet {
    return durableTools(tools, place, {
      runId: this.runId,
      callId: (at, toolCallId) => this.callId(at, toolCallId),
      toolCall: (call, execute) => this.toolCall(call, execute, addUsage),
    });
  }

  /**
   * The `toolApproval` of one step's calls at `place` ({@link stepToolApproval}): each
   * tool's own requirement, with what the engine recorded deciding first.
   */
  toolApproval(tools: ToolSet, place: DurablePlace): StepToolApproval {
    return stepToolApproval(tools, { decider: this, place });
  }

  /** The call id of the tool call `toolCallId` at `place` (see {@link CallIds}). */
  callId(place: DurablePlace, toolCallId: string): string {
    return this.#ids.of(place, toolCallId);
  }

  /** Whether a tool call needs approval: the engine decides, once per call. */
  async needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean> {
    const key = `${placeKey(call.place)}|${call.call}`;
    if (this.#asked.has(key)) return true;
    const needed = await this.engine.needsApproval(call, decide);
    if (needed) this.#asked.add(key);
    return needed;
  }

  /** One tool execution, handed to the engine; a composite call it answers from its record adds the recorded usage. */
  toolCall(
    call: ToolCallAt,
    execute: () => unknown,
    addUsage: (usage: LanguageModelUsage, output: unknown) => void,
  ): unknown {
    let ran = false;
    const outcome = this.engine.toolCall(call, () => {
      ran = true;
      return execute();
    });
    if (!call.composite || !isPromiseLike(outcome)) return outcome;
    return Promise.resolve(outcome).then((output) => {
      const usage = (output as { usage?: LanguageModelUsage } | undefined)?.usage;
      // the child run did not run again: its recorded usage still counts for the calling run
      if (!ran && usage && typeof usage === 'object') addUsage(usage, output);
      return output;
    });
  }

  /**
   * The answer to one approval request, through the engine. `call` names a request that
   * came up while the tool ran (`go#0.1/ship#0.0`, see `CallRequest`); @default the tool
   * call's own id
   */
  approval(
    place: DurablePlace,
    request: StepApprovalRequest,
    asking: ApprovalAsking,
    call?: string,
  ): Promise<ApprovalAnswer> {
    return this.engine.approval({
      place,
      call: call ?? this.callId(place, request.toolCallId),
      id: request.approvalId,
      toolCallId: request.toolCallId,
      tool: request.toolName,
      input: request.input,
      ...(request.question !== undefined ? { question: request.question } : {}),
      ...(request.guard !== undefined ? { guard: request.guard } : {}),
      ...(asking.schemas ? { schemas: asking.schemas } : {}),
      ask: () => asking.ask(),
      replay: (decision) => asking.ask(decision),
      answer: (decision) => asking.answer(decision),
    });
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** A model answer with the price its call was made at; a failed call's record has none. */
function pricedAnswer(answer: ModelAnswer, price: ModelPrice): ModelAnswer {
  return isFailedAnswer(answer) ? answer : { ...answer, price };
}
