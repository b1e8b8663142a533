import { childRunOf } from '../trace/composite-result.js';
import type { Trace, TraceApproval, TraceNode, TraceStatus } from '../trace/trace-node.js';

/**
 * One tool call found in a trace, child runs of composite tools included.
 *
 * - `tool`: the tool's name as the calling agent had it (`github_close` inside a `<Namespace>`);
 * - `step`: the step path of the step whose model asked for it (`release`, or
 *   `research:findings` inside the composite tool `research`);
 * - `input`, `output`: as the trace recorded them (a composite call's `output` holds its child run);
 * - `status`: `succeeded`, `failed`, `denied` (a person or policy refused it), `running`, `waiting`, `aborted`;
 * - `approval`: the approval the call waited for before it ran, and its answer; absent when
 *   the tool did not need one;
 * - `editedInput`: the input a person approved in place of the model's `input` (the call ran
 *   with it); absent when the call was not edited;
 * - `responded`: true when a person answered instead of the tool: it did not run, and the
 *   model read `output` as its result;
 * - `childRun`: the child run a composite tool call started, when it started one.
 */
export interface EvalToolCall {
  tool: string;
  step: string | undefined;
  input: unknown;
  output: unknown;
  status: TraceStatus;
  approval: TraceApproval | undefined;
  editedInput?: unknown;
  responded?: true;
  childRun: Trace | undefined;
}

/**
 * Every tool call of a run, in the order the trace holds them (document order, each
 * composite call's child run right after its call), child runs at any depth included.
 * Walks without recursion, so a deep tree is fine.
 *
 * @param trace - a run's trace (`result.trace`, a trace file's content, `WorkflowEvalOutput.trace`).
 * @param tool - only the calls of this tool. @default every tool
 * @example
 * ```ts
 * const deploys = toolCallsIn(output.trace, 'deploy');
 * deploys.every((call) => (call.input as { env: string }).env === 'staging');
 * ```
 */
export function toolCallsIn(trace: Trace, tool?: string): EvalToolCall[] {
  const calls: EvalToolCall[] = [];
  const stack: Array<{ node: TraceNode; step: string | undefined }> = [
    { node: trace.root, step: undefined },
  ];
  while (stack.length > 0) {
    const { node, step: outer } = stack.pop()!;
    const step = node.kind === 'step' ? (node.step ?? node.name) : outer;
    const childRun = childRunOf(node);
    if (node.kind === 'tool' && (tool === undefined || node.name === tool)) {
      calls.push({
        tool: node.name,
        step,
        input: node.input,
        output: node.output,
        status: node.status,
        approval: node.approval,
        ...(node.approval?.input !== undefined ? { editedInput: node.approval.input } : {}),
        ...(node.approval?.status === 'responded' ? { responded: true as const } : {}),
        childRun,
      });
    }
    // pushed in reverse, so they come off the stack in document order: children, then the child run
    const next = childRun ? [...node.children, childRun.root] : node.children;
    for (let index = next.length - 1; index >= 0; index--) stack.push({ node: next[index]!, step });
  }
  return calls;
}

/**
 * The child runs of a run: one per composite tool call (or `defineAgent` agent called as a
 * tool) that started one, at any depth, in the order of {@link toolCallsIn}.
 *
 * @example
 * ```ts
 * childRunsIn(output.trace).map((child) => child.status); // ['succeeded']
 * ```
 */
export function childRunsIn(trace: Trace): Trace[] {
  return toolCallsIn(trace).flatMap((call) => (call.childRun ? [call.childRun] : []));
}

/**
 * The model calls of a run (the AI SDK's steps: one round of a step's tool loop each),
 * child runs included, as their trace nodes.
 *
 * @example
 * ```ts
 * modelCallsIn(output.trace).length; // 3: read the changelog, deploy, answer
 * ```
 */
export function modelCallsIn(trace: Trace): TraceNode[] {
  const found: TraceNode[] = [];
  const stack: TraceNode[] = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'model') found.push(node);
    const childRun = childRunOf(node);
    const next = childRun ? [...node.children, childRun.root] : node.children;
    for (let index = next.length - 1; index >= 0; index--) stack.push(next[index]!);
  }
  return found;
}
