export { ApprovalInbox } from './approval-inbox.js';
export { HeldAnswers, type HeldApproval } from './held-answers.js';
export { answerOrigin, recordedOrigin } from './answer-origin.js';
export { policyAnswer } from './policy-answer.js';
export { withReason } from './with-reason.js';
export { localUser } from './local-user.js';
export { answerQuestion } from './answer-question.js';
export { asQuestionTool, questionOf, questionFields } from './question-tool.js';
export type { QuestionSpec } from './question-tool.js';
export { timeoutAnswer } from './question-timeout.js';
export type { ApprovalInboxOptions, ApprovalListener } from './approval-inbox.js';
export type { ApprovalAnswerResult, SettledAnswer } from './approval-answer-result.js';
export type {
  AnswerOrigin,
  ApprovalSource,
  ApprovalSourceName,
  GivenAnswer,
  SourceDisconnect,
  SourceInbox,
} from './approval-source.js';
export type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalPolicyAnswer,
  ApprovalRequest,
  AskedQuestion,
  BudgetAsk,
} from './approval-request.js';
export {
  BUDGET_REQUEST_TOOL,
  budgetQuestion,
  isEscalation,
  isQuestion,
} from './approval-request.js';
export type { AnswerCheck, SchemaCheck } from './answer-check.js';
