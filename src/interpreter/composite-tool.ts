import type { JuneNode } from '../elements/element.js';
import type { CollectedDeclaration } from '../capabilities/collect.js';
import type { AnyTool, CompositeToolSpec } from '../capabilities/declaration.js';
import type { CompositeToolFactory } from '../capabilities/resolve.js';
import type { ResolvedScope } from '../capabilities/scope.js';
import { JuneError, RunAbortedError } from '../errors/june-error.js';
import { sumUsage } from '../models/usage.js';
import { compositeToolMarker } from '../engine/durable-tools.js';
import { releaseToolCall, toolCallContext } from '../engine/tool-call-context.js';
import type { CompositeToolResult } from '../trace/composite-result.js';
import type { Trace } from '../trace/trace-node.js';
import { createRunFrame, type AgentFrame, type EvalContext, type RunFrame } from './run-state.js';
import { CheckPass } from './check-pass.js';
import { RunPass } from './run-pass.js';
import { evaluateFrame, frameTrace } from './run-frame.js';
import type { PolicyEntry } from './guard-entry.js';
import { callGuards } from './guarded-tools.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/** What a composite tool's `execute` returns (its tool node's `output`). */
export type { CompositeToolResult };

/**
 * Makes the factory that turns the composite declarations of one agent (composite
 * `<Tool>`s, defined agents) into AI SDK tools. Each call of such a tool:
 *
 * - renders the workflow for the call's input and checks it (as `run()` checks a tree)
 *   before its first model call, then runs it as a child run of `run`;
 * - shares the run's approval channel and event stream; its step paths start with the tool's
 *   name as the model calls it (`research:findings`, `a:b:s` when nested);
 * - stops with the call's abort signal (which aborts with the run), and settles only once the
 *   child run has settled: its model calls and tool executions have ended;
 * - lets `<Inherit>` in the workflow's top agents read the calling agent's scope;
 * - adds the child run's usage to the calling run's usage, whatever the outcome.
 *
 * A failure becomes a {@link JuneError} `composite-tool-failed`,
 * `june: the tool "research" failed: <message>`, which the AI SDK hands to the calling model
 * as a tool error (the calling step goes on). An abort rethrows as `run-aborted`. Either
 * way the calling tool node's `output` keeps the child's `{ trace, usage }`.
 *
 * @example
 * ```ts
 * // in evaluateAgent, once per agent:
 * resolveCapabilities({ children, parent, compositeTool: compositeToolFactory(() => frame, ctx.run, evaluate) });
 * ```
 */
export function compositeToolFactory(
  getAgent: () => AgentFrame,
  run: RunFrame,
  evaluate: Evaluate,
  guards: readonly PolicyEntry[] = [],
): CompositeToolFactory {
  return (spec: CompositeToolSpec, declaration: CollectedDeclaration): AnyTool => {
    const name = toolNameOf(spec.name, declaration);
    run.pass.compositeFound?.({
      name,
      prefix: [...run.prefix, name],
      render: spec.render,
      caller: () => getAgent().scope,
      ...(guards.length ? { guards } : {}),
    });
    return {
      [compositeToolMarker]: true,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      inputSchema: spec.inputSchema as AnyTool['inputSchema'],
      execute: (input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }) =>
        callComposite({
          guards: callGuards(options) ?? guards,
          run: runningFrame(run, name),
          spec,
          name,
          input,
          toolCallId: options.toolCallId,
          signal: options.abortSignal ?? run.signal,
          caller: getAgent().scope,
          evaluate,
        }),
      toModelOutput: ({ output }: { output: unknown }) => {
        const value = (output as CompositeToolResult).output;
        return typeof value === 'string'
          ? { type: 'text', value }
          : { type: 'json', value: (value ?? null) as never };
      },
    } as AnyTool;
  };
}

interface CompositeCall {
  spec: CompositeToolSpec;
  /** The tool's name as the calling model sees it (after namespaces). */
  name: string;
  input: unknown;
  toolCallId: string;
  signal: AbortSignal;
  caller: ResolvedScope;
  run: RunFrame<RunPass>;
  evaluate: Evaluate;
  /** The guards over the calling step: they cover the child run too. */
  guards: readonly PolicyEntry[];
}

/**
 * The calling run's frame, which a tool's execution always has: the static check and
 * `inspect()` resolve composite tools but never execute them.
 * @throws {JuneError} `composite-tool-failed` if one is executed outside a run all the same.
 */
function runningFrame(run: RunFrame, name: string): RunFrame<RunPass> {
  if (run.pass instanceof RunPass) return run as RunFrame<RunPass>;
  throw new JuneError(
    'composite-tool-failed',
    `june: the tool "${name}" was executed outside a run; composite tools run only inside run().`,
  );
}

async function callComposite(call: CompositeCall): Promise<CompositeToolResult> {
  const { run, name, signal, evaluate } = call;
  const pass = run.pass;
  const prefix = [...run.prefix, name];
  // the calling step's node of this call (opened here when the step has not seen the call yet)
  const context = toolCallContext();
  const stepNodes = context
    ? run.toolNodes.get(context.step)
    : run.toolNodes.size === 1
      ? [...run.toolNodes.values()][0]
      : undefined;
  const parentId = stepNodes?.claim(call.toolCallId, name, call.input).nodeId;
  const frame = createRunFrame({
    pass,
    runId: pass.services.childRunId(),
    prefix,
    signal,
    callerScope: call.caller,
    ...(parentId !== undefined ? { parentId } : {}),
    guards: call.guards,
    // the call's place-based id (the durable engine's key for the child run), not the provider's toolCallId
    // (the calling step's calls: a step in a <Parallel> branch has the branch among them)
    calls: [...(context?.calls ?? run.calls), context?.call ?? call.toolCallId],
  });
  const renderThenEvaluate: Evaluate = async (_node, ctx) => {
    const workflow = await call.spec.render(call.input);
    // the child run needs no context of this call (its tools get their own): without one,
    // its promises skip async hooks
    releaseToolCall();
    await checkWorkflow(workflow, pass, prefix, signal, call, evaluate);
    await evaluate(workflow, ctx);
  };
  try {
    const outcome = await evaluateFrame(
      frame,
      null,
      renderThenEvaluate,
      call.spec.output,
      name,
      call.toolCallId,
    );
    return { output: outcome.output ?? null, trace: outcome.trace, usage: outcome.usage };
  } catch (error) {
    const trace = frameTrace(frame, name);
    if (signal.aborted) throw withTrace(new RunAbortedError(signal.reason), trace);
    const message = error instanceof Error ? error.message.replace(/^june: /, '') : String(error);
    const blame = JuneError.isInstance(error) ? error.blame : 'system';
    // the base class on purpose: it passes on the child run's blame, and readers (strict,
    // tool-error events) tell it from the child's own error by its name `JuneError`
    throw withTrace(
      new JuneError('composite-tool-failed', `june: the tool "${name}" failed: ${message}`, {
        cause: error,
        blame,
      }),
      trace,
    );
  } finally {
    run.usage = sumUsage(run.usage, frame.usage);
  }
}

/**
 * Checks a call's workflow as `run()` checks a tree, before its first model call: steps have
 * an agent and unique ids, agents have models, capabilities resolve (`<Inherit>` against the
 * calling agent). Components render here once; the child run reuses what they returned.
 */
async function checkWorkflow(
  workflow: JuneNode,
  run: RunPass,
  prefix: string[],
  signal: AbortSignal,
  call: Pick<CompositeCall, 'caller' | 'guards'>,
  evaluate: Evaluate,
): Promise<void> {
  const check = new CheckPass({
    renders: run.renders,
    rendering: run.services.abort.rendering,
    priceSettings: run.services.settings,
  });
  const frame = createRunFrame({
    pass: check,
    runId: 'validate',
    prefix,
    signal,
    callerScope: call.caller,
    guards: call.guards,
  });
  await evaluate(workflow, { run: frame, parentId: frame.nodeId });
}

/** The tool name the calling model sees: the declared name behind each `<Namespace>` around it. */
function toolNameOf(declared: string, declaration: CollectedDeclaration): string {
  const namespaces = declaration.frames.flatMap((frame) =>
    frame.kind === 'namespace' ? [frame.name] : [],
  );
  return [...namespaces, declared].join('_');
}

function withTrace<E extends JuneError>(error: E, trace: Trace): E {
  Object.defineProperty(error, 'trace', { value: trace, enumerable: false });
  return error;
}
