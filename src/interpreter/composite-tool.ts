import type { JuneNode } from '../elements/element.js';
import type { AnyTool, CompositeToolSpec } from '../capabilities/declaration.js';
import type { CompositeToolFactory } from '../capabilities/resolve.js';
import { JuneError, RunAbortedError } from '../errors/june-error.js';
import { sumUsage } from '../models/usage.js';
import { openNode } from '../trace/trace-builder.js';
import { createRunFrame, type AgentFrame, type EvalContext, type RunFrame } from './run-state.js';
import { evaluateFrame, type FrameOutcome } from './run-frame.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/** What a composite tool's `execute` returns: what the model gets, and the child run's trace and usage. */
export type CompositeToolResult = Pick<FrameOutcome, 'output' | 'trace' | 'usage'>;

/**
 * Makes the factory that turns composite declarations of one agent into AI SDK tools. Each
 * call of such a tool renders its workflow as a child run of `run`: same approval channel
 * and event stream, the call's abort signal, `<Inherit>` reading the calling agent's scope,
 * and step paths prefixed with the tool's name (`research:findings`).
 */
export function compositeToolFactory(getAgent: () => AgentFrame, run: RunFrame, evaluate: Evaluate): CompositeToolFactory {
  return (spec: CompositeToolSpec): AnyTool => ({
    description: spec.description,
    inputSchema: spec.inputSchema as AnyTool['inputSchema'],
    execute: async (input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }): Promise<CompositeToolResult> => {
      const signal = options.abortSignal ?? run.signal;
      const root = run.root;
      const runId = root.childRunId();
      const frame = createRunFrame(root, runId, [...run.prefix, spec.name], signal, openNode('run', spec.name, undefined, { toolCallId: options.toolCallId }), getAgent().scope);
      try {
        const workflow = await spec.render(input);
        const outcome = await evaluateFrame(frame, workflow, evaluate, spec.output, spec.name, options.toolCallId);
        return { output: outcome.output ?? null, trace: outcome.trace, usage: outcome.usage };
      } catch (error) {
        if (signal.aborted) throw new RunAbortedError(signal.reason);
        const message = error instanceof Error ? error.message.replace(/^june: /, '') : String(error);
        const failure = new JuneError('composite-tool-failed', `june: the tool "${spec.name}" failed: ${message}`, { cause: error, blame: JuneError.isInstance(error) ? error.blame : 'system' });
        const trace = (error as { trace?: unknown }).trace;
        if (trace) Object.defineProperty(failure, 'trace', { value: trace, enumerable: false });
        throw failure;
      } finally {
        run.usage = sumUsage(run.usage, frame.usage);
      }
    },
    toModelOutput: ({ output }: { output: unknown }) => {
      const value = (output as CompositeToolResult).output;
      return typeof value === 'string' ? { type: 'text', value } : { type: 'json', value: (value ?? null) as never };
    },
  }) as AnyTool;
}
