import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import type { AgentProps } from '../components/agent.js';
import {
  resolveCapabilities,
  type PendingToolSource,
  type ResolveInput,
} from '../capabilities/resolve.js';
import type { ToolSource } from '../capabilities/declaration.js';
import type { ToolSourcePool } from '../resources/tool-source-pool.js';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { ModelMessage, ToolSet } from 'ai';
import { JuneError, SystemError, WorkflowError } from '../errors/june-error.js';
import { errorData } from '../errors/error-data.js';
import { checkBudgetPrices } from './budget-price.js';
import { guardsOf, type AgentFrame, type EvalContext, type RunFrame } from './run-state.js';
import { guardedScope } from './guard-provenance.js';
import type { RunAbort } from './run-abort.js';
import { compositeToolFactory } from './composite-tool.js';
import { jsonToolOutput } from './json-tool-output.js';
import { statusOf } from './settle.js';
import { errorMessage } from '../errors/error-message.js';
import { checkCompact } from './compact-agent.js';
import { branchPathOf } from './branch-place.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/**
 * Renders an `<Agent>`: resolves its capabilities (before anything else, so a step never sees
 * a partial set), records them on its trace node, then evaluates its other children in order
 * with a fresh conversation.
 *
 * @throws {WorkflowError} `agent-model-missing`; `model-spec-unsupported` or `model-invalid`
 *   for a model June cannot run; and every capability resolution error.
 */
export async function evaluateAgent(
  element: JuneElement,
  ctx: EvalContext,
  evaluate: Evaluate,
): Promise<void> {
  const props = element.props as AgentProps;
  const name = props.name ?? 'agent';
  const where = `${props.name !== undefined ? `<Agent name=${JSON.stringify(props.name)}>` : '<Agent>'}${locationSuffix(element.source)}`;
  const pass = ctx.run.pass;
  checkAgentProps(props, where, ctx);
  const node = { nodeId: pass.nodeId(ctx.parentId, `agent:${name}`), parentId: ctx.parentId };
  const finish = { type: 'agent-finish' as const, runId: ctx.run.runId, agent: name, ...node };
  let started = false;
  try {
    const { frame, others } = await agentFrame({
      element,
      name,
      where,
      ctx,
      evaluate,
      nodeId: node.nodeId,
    });
    pass.agentResolved?.(frame);
    const history = threadHistory(frame, ctx);
    pass.emit({
      type: 'agent-start',
      runId: ctx.run.runId,
      agent: name,
      model: modelName(pass.services?.settings.model ?? props.model),
      tools: Object.keys(frame.scope.tools),
      ...(frame.scope.capabilities ? { capabilities: frame.scope.capabilities } : {}),
      ...node,
    });
    started = true;
    await evaluate(others, {
      run: ctx.run,
      agent: frame,
      parentId: node.nodeId,
      ...(ctx.guards ? { guards: ctx.guards } : {}),
      ...(ctx.attempts ? { attempts: ctx.attempts } : {}),
    });
    if (history) pass.services?.engine.keepConversation(name, frame.messages);
    pass.emit({ ...finish, status: 'succeeded' });
  } catch (error) {
    const status = statusOf(error);
    pass.emit({
      ...finish,
      status,
      error: errorData(error),
      ...(started ? {} : { unstarted: true as const }),
    });
    throw error;
  }
}

/**
 * Checks an agent's model and `compact` before anything of it runs: a model June cannot run
 * fails the tree before the first model call (`inspect()` calls none), and a `<Budget usd>`
 * over the agent counts its calls in USD, so its model needs a price.
 * @throws {WorkflowError} `agent-model-missing`, what `pass.checkModel`, `checkBudgetPrices`
 *   and `checkCompact` throw.
 */
function checkAgentProps(props: AgentProps, where: string, ctx: EvalContext): void {
  const pass = ctx.run.pass;
  if (props.model === undefined || props.model === null) {
    throw new WorkflowError(
      'agent-model-missing',
      `june: ${where} has no model; pass model={...}, e.g. model={openai('gpt-5-mini')} from june/sdk/openai.`,
    );
  }
  pass.checkModel?.(props.model, `the model of ${where}`);
  if (pass.priceSettings) checkBudgetPrices(props.model, where, guardsOf(ctx), pass.priceSettings);
  checkCompact(props.compact, where);
}

/**
 * A thread's agent starts from the conversation the thread's runs before it left, before
 * its own `messages`: the history it was given, or `undefined` for any other agent.
 */
function threadHistory(frame: AgentFrame, ctx: EvalContext): readonly unknown[] | undefined {
  const outermost = !ctx.agent && ctx.run.prefix.length === 0;
  const history = ctx.run.pass.services?.engine.claimThread(frame.name, outermost);
  if (history) frame.messages = [...(history as ModelMessage[]), ...frame.messages];
  return history;
}

/** What {@link agentFrame} makes an agent's frame from. */
interface AgentFrameInput {
  element: JuneElement;
  name: string;
  /** The agent in messages: `<Agent name="triage"> at flow.tsx:12:5`. */
  where: string;
  ctx: EvalContext;
  evaluate: Evaluate;
  /** The agent's trace node. */
  nodeId: string;
}

/**
 * Resolves an agent's capabilities (waiting for the tool sources it declares when the run
 * runs) and makes its frame: scope, tools (instrumented when running), a fresh conversation.
 * `others` are its children that are not declarations, evaluated next.
 */
async function agentFrame(
  agent: AgentFrameInput,
): Promise<{ frame: AgentFrame; others: ReturnType<typeof resolveCapabilities>['others'] }> {
  const { element, name, where, ctx } = agent;
  const props = element.props as AgentProps;
  const services = ctx.run.pass.services;
  let frame: AgentFrame | undefined;
  const input: ResolveInput = {
    children: props.children,
    toolsProp: props.tools,
    parent: ctx.agent ? ctx.agent.scope : ctx.run.callerScope,
    agentNotation: where,
    ...(ctx.agent ? { parentNotation: ctx.agent.notation } : {}),
    compositeTool: compositeToolFactory(() => frame!, ctx.run, agent.evaluate, guardsOf(ctx)),
  };
  let resolved = resolveCapabilities(input);
  if (resolved.waits.length > 0 && services) {
    resolved = resolveCapabilities({
      ...input,
      connected: await connectSources(resolved.waits, ctx, services.sources),
    });
  }
  const { others } = resolved;
  const scope = guardedScope(resolved.scope, guardsOf(ctx));
  frame = {
    element,
    name,
    path: ctx.agent ? `${ctx.agent.path} > ${name}` : [...ctx.run.prefix, name].join(':'),
    notation: where,
    scope,
    tools: services ? instrument(scope.tools, services.abort, ctx.run) : scope.tools,
    messages: [...(props.messages ?? [])],
    nodeId: agent.nodeId,
    ...(resolved.waits.length > 0 ? { waiting: resolved.waits.map((w) => w.notation) } : {}),
    ...(guardsOf(ctx).length > 0 ? { guards: guardsOf(ctx) } : {}),
    ...branchOf(ctx),
  };
  return { frame, others };
}

/**
 * Waits for the tool sources an agent declares (shared per run), so its steps see every tool.
 * @throws {SystemError} `capability-connect-failed` naming the declaration, when a source's
 *   `connect` fails with an error that is not a JuneError (a JuneError is kept as it is).
 */
async function connectSources(
  waits: PendingToolSource[],
  ctx: EvalContext,
  sources: ToolSourcePool,
): Promise<Map<ToolSource, ToolSet>> {
  const connected = new Map<ToolSource, ToolSet>();
  await Promise.all(
    waits.map(async ({ source, notation }) => {
      try {
        connected.set(source, (await sources.acquire(source, ctx.run.signal)).tools);
      } catch (error) {
        if (JuneError.isInstance(error)) throw error;
        const why = errorMessage(error);
        throw new SystemError(
          'capability-connect-failed',
          `june: ${notation} could not be resolved: ${why}. Check the service it connects to, or wrap the agent in <Catch retries={n}> to try again.`,
          { cause: error },
        );
      }
    }),
  );
  return connected;
}

/** The `<Parallel>` branch an agent stands in, when it stands in one. */
function branchOf(ctx: EvalContext): { branch?: string } {
  const branch = branchPathOf(ctx.run.calls);
  return branch !== undefined ? { branch } : {};
}

function modelName(model: unknown): string {
  if (typeof model === 'string') return model;
  const m = model as { provider?: string; modelId?: string };
  return m.modelId ? (m.provider ? `${m.provider}:${m.modelId}` : m.modelId) : 'model';
}

/**
 * Wraps each tool's `execute` so the run knows which executions are still in flight, and so
 * its output has one JSON form for the model, the events, the trace and the journal.
 */
function instrument(tools: ToolSet, abort: RunAbort, run: RunFrame): ToolSet {
  return mapExecutes(tools, (execute, name) => (input, options) => {
    const value = execute(input, options);
    const tracked =
      value instanceof Promise
        ? abort.track(value, run.inflight, { tool: name, toolCallId: options?.toolCallId })
        : value;
    return jsonToolOutput(tracked, name) as ReturnType<typeof execute>;
  });
}
