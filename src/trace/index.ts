export { openNode, closeNode, traceError, plainJson } from './trace-builder.js';
export type { Trace, TraceApproval, TraceError, TraceNode, TraceNodeKind, TraceStatus } from './trace-node.js';
