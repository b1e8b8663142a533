export { ApprovalBroker } from './approval-broker.js';
export { withReason } from './with-reason.js';
export type { ApprovalListener } from './approval-broker.js';
export type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from './approval-request.js';
