import type { UIMessage, UIMessageChunk } from 'ai';
import type { TraceError, TraceStatus } from '../trace/trace-node.js';
import type { AskedQuestion, BudgetAsk, GuardEscalation } from '../approvals/approval-request.js';

/**
 * What a run's assistant message carries as metadata: the run's id (the server reads it back
 * from the messages the browser sends, to continue that run) and whether the stream ended
 * because the run waits for approval answers (`waiting`).
 */
export interface JuneMessageMetadata {
  runId: string;
  waiting: boolean;
}

/** A run or child run (a composite tool's call) as a data part: `data-june-run`. */
export interface JuneRunData {
  /** The step path of the composite call that started it (absent for the outermost run). */
  step?: string;
  /** The UI tool call id of the composite call that started it. */
  toolCallId?: string;
  workflow?: string;
  status: TraceStatus;
  error?: TraceError;
}

/** An `<Agent>` as a data part: `data-june-agent`, with the tool names its model sees. */
export interface JuneAgentData {
  agent: string;
  /** The step path of the composite call it runs in, if any. */
  in?: string;
  tools: string[];
  status: TraceStatus;
}

/** A `<Step>` as a data part: `data-june-step`, keyed by its step path. */
export interface JuneStepData {
  step: string;
  agent: string;
  status: TraceStatus;
  error?: TraceError;
}

/** A `<Catch>` that caught a failure: `data-june-catch`. */
export interface JuneCatchData {
  error: TraceError;
  attempt: number;
  willRetry: boolean;
  fallback?: true;
}

/**
 * A call's approval answer: `data-june-approval`, transient (`useChat`'s `onData` gets it;
 * the message keeps the tool part's outcome). `toolCallId` is the tool part's id; `source`,
 * `answeredBy` and `answeredAt` say through which way, who and when (ISO 8601) it was answered.
 */
export interface JuneApprovalData {
  toolCallId: string;
  approved: boolean;
  reason?: string;
  automatic: boolean;
  source?: string;
  answeredBy?: string;
  answeredAt?: string;
}

/** The data parts a run's UI message stream has (`data-june-run`, ...). */
/**
 * A `<Question>` the run asks: `data-june-question`, kept in the message beside the tool
 * part it belongs to (`toolCallId`), sent when the question is asked. The page shows
 * `question.prompt` and a form from `question.answerSchema` (JSON Schema draft-07), and
 * answers with `addToolApprovalResponse({ id: approvalId, approved: false })` plus
 * `approvalWith(approvalId, { output: value })` in the next request's body; a denial
 * declines it.
 */
export interface JuneQuestionData {
  toolCallId: string;
  /** The tool part's `approval.id`. */
  approvalId: string;
  question: AskedQuestion;
}

/**
 * A call a `<Guard>` escalated: `data-june-guard`, kept in the message beside the tool part
 * it belongs to (`toolCallId`), sent when the call starts to wait. Show `guard.reason` to
 * whoever approves or denies the call (`approvalId`, the tool part's `approval.id`).
 */
export interface JuneGuardData {
  toolCallId: string;
  approvalId: string;
  guard: GuardEscalation;
}

/**
 * A `<Budget>`'s request to allow more: `data-june-budget`, kept in the message beside the
 * request's tool part (`tool-june-budget`, `toolCallId`), sent when it starts to wait. Show
 * what was spent, the cap and what approving adds to whoever answers it (`approvalId`).
 */
export interface JuneBudgetData {
  toolCallId: string;
  approvalId: string;
  budget: BudgetAsk;
}

export type JuneDataParts = {
  'june-question': JuneQuestionData;
  'june-guard': JuneGuardData;
  'june-budget': JuneBudgetData;
  'june-run': JuneRunData;
  'june-agent': JuneAgentData;
  'june-step': JuneStepData;
  'june-catch': JuneCatchData;
  'june-approval': JuneApprovalData;
};

/**
 * The UI message a June run streams: `useChat<JuneUIMessage>()` types its metadata and data
 * parts. Tool parts are `tool-<name>` under the names the model sees.
 */
export type JuneUIMessage = UIMessage<JuneMessageMetadata, JuneDataParts>;

/** One chunk of a run's UI message stream. */
export type JuneUIMessageChunk = UIMessageChunk<JuneMessageMetadata, JuneDataParts>;
