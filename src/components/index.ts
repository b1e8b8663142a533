export { Agent } from './agent.js';
export type { AgentProps, SdkTelemetrySetting } from './agent.js';
export type { CompactOptions } from './compact-options.js';
export { Step } from './step.js';
export type { StepProps, StepContext, StepPrompt } from './step.js';
export { Tool } from './tool.js';
export type {
  ToolProps,
  ValueToolProps,
  CompositeToolProps,
  CompositeToolRunResult,
} from './tool.js';
export { Question } from './question.js';
export type { QuestionProps } from './question.js';
export { Inherit } from './inherit.js';
export type { InheritProps } from './inherit.js';
export { Namespace } from './namespace.js';
export type { NamespaceProps } from './namespace.js';
export { RequireApproval } from './require-approval.js';
export type { RequireApprovalProps } from './require-approval.js';
export { defineCapabilities } from './define-capabilities.js';
export type { DefineCapabilitiesOptions } from './define-capabilities.js';
export { defineAgent, DEFINED_AGENT_STEP_ID } from './define-agent.js';
export type { DefineAgentOptions, DefinedAgent } from './define-agent.js';
export { Catch } from './catch.js';
export type { CatchProps } from './catch.js';
export { Parallel } from './parallel.js';
export type { ParallelProps } from './parallel.js';
export { Guard } from './guard.js';
export { Budget } from './budget.js';
export type { BudgetProps, BudgetExceed } from './budget.js';
export type {
  GuardProps,
  GuardAction,
  GuardDecision,
  GuardSubject,
  GuardCheck,
  GuardCheckKind,
  GuardJudge,
} from './guard.js';
