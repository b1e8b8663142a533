import type { LanguageModelUsage } from 'ai';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import type { TraceError, TraceStatus } from '../trace/trace-node.js';
import type { ApprovalRequest } from '../approvals/approval-request.js';

/**
 * The events of a run, in order. Names are noun then verb. `step` is the step path
 * (`research:findings` inside a composite tool `research`). Events from child runs (composite
 * tools, defined agents) flow into the outermost run's stream, with their own `runId`.
 */
export type RunEvent =
  | { type: 'run-start'; runId: string; parentToolCallId?: string; workflow?: string }
  | { type: 'run-finish'; runId: string; status: TraceStatus; usage: LanguageModelUsage; error?: TraceError }
  | { type: 'agent-start'; runId: string; agent: string; capabilities?: CapabilityProvenance[]; tools: string[] }
  | { type: 'agent-finish'; runId: string; agent: string; status: TraceStatus }
  | { type: 'step-start'; runId: string; step: string; agent: string; prompt: string }
  | { type: 'step-finish'; runId: string; step: string; status: TraceStatus; result?: unknown; usage: LanguageModelUsage }
  | { type: 'text-delta'; runId: string; step: string; delta: string }
  | { type: 'tool-call'; runId: string; step: string; toolCallId: string; tool: string; input: unknown }
  | { type: 'tool-result'; runId: string; step: string; toolCallId: string; tool: string; output: unknown }
  | { type: 'tool-error'; runId: string; step: string; toolCallId: string; tool: string; error: TraceError }
  | { type: 'approval-request'; runId: string; request: ApprovalRequest }
  | { type: 'approval-response'; runId: string; id: string; approved: boolean; reason?: string; automatic: boolean }
  | { type: 'approval-withdraw'; runId: string; id: string; reason: string }
  | { type: 'error'; runId: string; error: TraceError };

/** The `type` of every event. */
export type RunEventType = RunEvent['type'];
