import { WorkflowError } from '../errors/june-error.js';
import type { TraceNode } from '../trace/trace-node.js';

/**
 * How long an aborted run waits for its work (tool executions, model calls, components) to
 * stop before it settles without it, in ms. `run(el, { abortGraceMs })` changes it.
 */
export const DEFAULT_ABORT_GRACE_MS = 5000;

/**
 * Checks the `abortGraceMs` option: a finite number of ms, 0 or more.
 *
 * @throws {WorkflowError} `run-abort-grace-invalid` for anything else.
 */
export function abortGraceOf(value: unknown): number {
  if (value === undefined) return DEFAULT_ABORT_GRACE_MS;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new WorkflowError(
    'run-abort-grace-invalid',
    `june: run()'s abortGraceMs must be a number of ms, 0 or more (default ${DEFAULT_ABORT_GRACE_MS}), got ${typeof value === 'number' ? value : typeof value}.`,
  );
}

/**
 * Settles like `work`, unless the run is aborted (`signal`) and `work` has still not settled
 * `graceMs` later: then it settles like `abandon()` instead (which must settle the run's
 * records without waiting for `work`). `work` is left to finish on its own, unobserved.
 */
export function settleWithinGrace<T>(
  work: Promise<T>,
  signal: AbortSignal,
  graceMs: number,
  abandon: () => Promise<never>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const start = () => {
      timer = setTimeout(() => abandon().then(resolve, reject), graceMs);
    };
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', start);
    };
    if (signal.aborted) start();
    else signal.addEventListener('abort', start, { once: true });
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** What an aborted run is still waiting for: open trace nodes, tool executions, components. */
export interface PendingWork {
  /** Tool executions still in flight (their nodes may already be closed). */
  calls: Iterable<{ tool: string; toolCallId: string | undefined }>;
  /** Async components still rendering, as `<Name> at file:line`. */
  components: Iterable<string>;
}

/**
 * What is still running under `root`, as a person would name it: tool executions in flight
 * (`the tool "deploy" in step "ship"`), the innermost open nodes, and the async components
 * still rendering; each named once. Walks without recursion.
 */
export function unstoppedWork(root: TraceNode, pending: PendingWork): string[] {
  const components = [...pending.components];
  const steps = stepsOfCalls(root);
  const found = new Set<string>();
  for (const call of pending.calls) {
    const step = call.toolCallId === undefined ? undefined : steps.get(call.toolCallId);
    found.add(`the tool "${call.tool}"${step === undefined ? '' : ` in step "${step}"`}`);
  }
  const stack: Array<{ node: TraceNode; step: string | undefined }> = [
    { node: root, step: undefined },
  ];
  while (stack.length > 0) {
    const { node, step } = stack.pop()!;
    if (node.endedAt) continue;
    const open = node.children.filter((child) => !child.endedAt);
    const inStep = node.kind === 'step' ? (node.step ?? node.name) : step;
    const innermost =
      open.length === 0 &&
      node !== root &&
      (components.length === 0 ||
        node.kind === 'tool' ||
        node.kind === 'model' ||
        node.kind === 'step');
    const label = innermost ? labelOf(node, step) : undefined;
    if (label !== undefined) found.add(label);
    for (let i = open.length - 1; i >= 0; i--) stack.push({ node: open[i]!, step: inStep });
  }
  return [...found, ...components.map((component) => `the component ${component}`)];
}

/** The step of each tool call in the tree, by `toolCallId`. */
function stepsOfCalls(root: TraceNode): Map<string, string> {
  const steps = new Map<string, string>();
  const stack: Array<{ node: TraceNode; step: string | undefined }> = [
    { node: root, step: undefined },
  ];
  while (stack.length > 0) {
    const { node, step } = stack.pop()!;
    if (node.kind === 'tool' && node.toolCallId !== undefined && step !== undefined)
      steps.set(node.toolCallId, step);
    const inStep = node.kind === 'step' ? (node.step ?? node.name) : step;
    for (const child of node.children) stack.push({ node: child, step: inStep });
  }
  return steps;
}

function labelOf(node: TraceNode, step: string | undefined): string | undefined {
  const where = step === undefined ? '' : ` in step "${step}"`;
  switch (node.kind) {
    case 'tool':
      return `the tool "${node.name}"${where}`;
    case 'model':
      return `the call to the model "${node.model ?? node.name}"${where}`;
    case 'step':
      return `the step "${node.step ?? node.name}"`;
    case 'agent':
      return `the agent "${node.name}"`;
    case 'run':
      return `the child run "${node.name}"`;
    default:
      return undefined;
  }
}
