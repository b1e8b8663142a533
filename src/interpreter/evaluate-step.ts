import type { LanguageModelUsage, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix, notation } from '../elements/notation.js';
import type { AgentProps } from '../components/agent.js';
import type { ApprovalDecision } from '../approvals/approval-request.js';
import type { StepProps } from '../components/step.js';
import { JuneError, WorkflowError } from '../errors/june-error.js';
import { emptyUsage, sumUsage, plainUsage } from '../models/usage.js';
import { runStep, type PendingToolApproval } from '../steps/run-step.js';
import { stepModel } from '../steps/step-model.js';
import { toolCallTools } from '../engine/durable-tools.js';
import type { DurableCalls } from '../engine/durable-calls.js';
import type { DurablePlace } from '../engine/durable-engine.js';
import { closeNode, openNode, plainJson, traceError } from '../trace/trace-builder.js';
import type { TraceNode, TraceStatus } from '../trace/trace-node.js';
import type { EvalContext, RunFrame } from './run-state.js';
import { settleOnError } from './settle.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/**
 * Checks a `<Step>` where it stands: inside an agent, with a unique id and, if it has
 * children, one function. Done before any model call.
 *
 * @throws {WorkflowError} `step-outside-agent`, `step-id-invalid`, `step-id-duplicate`,
 *   `step-children-not-function`, `step-prompt-invalid`.
 */
export function checkStep(element: JuneElement, ctx: EvalContext): StepProps & { id: string } {
  const props = element.props as StepProps;
  const shown = () => stepPlace(element, ctx.agent?.path);
  if (!ctx.agent) {
    throw new WorkflowError(
      'step-outside-agent',
      `june: ${shown()} has no <Agent> around it; a step runs with an agent's model and tools, so put it in an <Agent>'s children.`,
    );
  }
  if (typeof props.id !== 'string' || props.id === '' || props.id.includes(':')) {
    throw new WorkflowError(
      'step-id-invalid',
      `june: ${shown()} needs an id: a non-empty string without ":" (e.g. id="summary").`,
    );
  }
  const earlier = ctx.run.stepElements.get(props.id);
  if (earlier && earlier !== element) {
    // without source locations (compiled with "jsx": "react-jsx") the agents' paths tell the two apart
    const hint = element.source
      ? ''
      : ' (compile with "jsx": "react-jsxdev" to see their files and lines)';
    throw new WorkflowError(
      'step-id-duplicate',
      `june: two steps have the id "${props.id}": ${stepPlace(earlier, stepAgents.get(earlier))} and ${shown()}. Step ids are unique within a run; rename one${hint}.`,
    );
  }
  if (props.children !== undefined && typeof props.children !== 'function') {
    throw new WorkflowError(
      'step-children-not-function',
      `june: ${shown()} has children that are not a function; a step's only child is (result) => JSX, rendered after the step.`,
    );
  }
  if (typeof props.prompt !== 'string' && typeof props.prompt !== 'function') {
    throw new WorkflowError(
      'step-prompt-invalid',
      `june: ${shown()} needs prompt="..." or prompt={({ steps }) => "..."}.`,
    );
  }
  ctx.run.stepElements.set(props.id, element);
  stepAgents.set(element, ctx.agent.path);
  return props as StepProps & { id: string };
}

/** The path of the agent each checked step stands in, for messages about steps without a source location. */
const stepAgents = new WeakMap<JuneElement, string>();

/** `<Step id="a"> at flow.tsx:9:7`, or, with no source location, `<Step id="a"> in the agent "triage > helper"`. */
function stepPlace(element: JuneElement, agentPath: string | undefined): string {
  const at = element.source
    ? locationSuffix(element.source)
    : agentPath !== undefined
      ? ` in the agent "${agentPath}"`
      : '';
  return `${notation(element, ['id'])}${at}`;
}

/**
 * The step's prompt: the string, or what its prompt function returns for the results so far.
 * @throws {WorkflowError} `step-prompt-failed` when the function throws (the error as `cause`),
 *   `step-prompt-invalid` when it returns something other than a string.
 */
async function promptOf(element: JuneElement, steps: Record<string, unknown>): Promise<string> {
  const { prompt } = element.props as StepProps;
  if (typeof prompt !== 'function') return prompt;
  const shown = `${notation(element, ['id'])}${locationSuffix(element.source)}`;
  let text: unknown;
  try {
    text = await prompt({ steps: readOnly(steps) });
  } catch (error) {
    if (JuneError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new WorkflowError(
      'step-prompt-failed',
      `june: the prompt function of ${shown} threw: ${message}`,
      { cause: error },
    );
  }
  if (typeof text !== 'string') {
    throw new WorkflowError(
      'step-prompt-invalid',
      `june: the prompt function of ${shown} returned ${text === null ? 'null' : typeof text}; it must return a string (or a promise of one).`,
    );
  }
  return text;
}

/**
 * The run's step results as a prompt function sees them: a read-only view, made once per
 * run, not a copy per step (a long run of steps with prompt functions would copy its
 * results once a step). A result is set once, so a view kept for later only gains entries.
 */
function readOnly(steps: Record<string, unknown>): Record<string, unknown> {
  let view = views.get(steps);
  if (!view) {
    view = new Proxy(steps, {
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
      setPrototypeOf: () => false,
    });
    views.set(steps, view);
  }
  return view;
}

const views = new WeakMap<Record<string, unknown>, Record<string, unknown>>();

/** Runs a `<Step>`: one tool loop with the agent's tools, then its render-prop child. */
export async function evaluateStep(
  element: JuneElement,
  ctx: EvalContext,
  evaluate: Evaluate,
): Promise<void> {
  const props = checkStep(element, ctx);
  const root = ctx.run.root;
  if (root.mode !== 'run') return;
  const agent = ctx.agent!;
  const run = ctx.run;
  const path = [...run.prefix, props.id].join(':');
  const node = openNode('step', props.id, ctx.parentTrace, { step: path });
  let status: TraceStatus = 'succeeded';
  let result: unknown;
  let usage = emptyUsage();
  let started = false;
  // each model call's usage as soon as it finished (the AI SDK's comes after the tools ran)
  const callUsages: LanguageModelUsage[] = [];
  try {
    const prompt = await promptOf(element, run.steps);
    node.prompt = prompt;
    root.emit({ type: 'step-start', runId: run.runId, step: path, agent: agent.name, prompt });
    started = true;
    const agentProps = agent.element.props as AgentProps;
    const {
      model,
      name: _n,
      instructions,
      tools: _t,
      stopWhen,
      output,
      messages: _m,
      providerOptions,
      children: _c,
      ...callSettings
    } = agentProps;
    const userMessage: ModelMessage = { role: 'user', content: prompt };
    const parts = partHandler(run, path, node);
    // with a durable engine, finished model and tool calls are recorded (or answered from its record when resuming)
    const durable = root.durable;
    const place = { step: path, calls: run.calls };
    const out = await runStep({
      step: path,
      model: stepModel(
        root.modelOverride ?? model,
        (used) => callUsages.push(used),
        durable && ((explained) => durable.model(explained, place)),
      ),
      system: instructions,
      tools: durable
        ? durable.tools(agent.tools, place, (used) => (run.usage = sumUsage(run.usage, used)))
        : toolCallTools(agent.tools, place, root.runId),
      messages: [...agent.messages, userMessage],
      output: props.output ?? output,
      stopWhen,
      callSettings,
      providerOptions: {
        ...providerOptions,
        june: { ...(providerOptions?.june ?? {}), step: path },
      },
      abortSignal: run.signal,
      stream: root.stream,
      onPart: parts,
      approve: (requests) =>
        Promise.all(
          requests.map(async (request) => {
            const ask = (replayed?: ApprovalDecision) =>
              root.broker.request(
                {
                  id: request.approvalId,
                  tool: request.toolName,
                  input: plainJson(request.input),
                  step: path,
                  toolCallId: request.toolCallId,
                  key: callKey(root.runId, place, request.toolCallId, durable),
                },
                run.signal,
                run.runId,
                replayed,
              );
            // an answer from outside the process settles the request as a person's would
            const answer = (decision: ApprovalDecision) =>
              root.broker.answerIfPending(request.approvalId, decision);
            const decision = durable
              ? await durable.approval(place, request, { ask, answer })
              : await ask();
            return {
              approvalId: request.approvalId,
              approved: decision.approved,
              ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
            };
          }),
        ),
    });
    result = out.result;
    usage = plainUsage(out.usage);
    agent.messages.push(userMessage, ...out.responseMessages);
    run.steps[props.id] = result;
    run.usage = sumUsage(run.usage, usage);
    node.result = plainJson(result);
    node.messages = plainJson(out.responseMessages) as unknown[];
    node.usage = usage;
    withdrawUnasked(out.unaskedApprovals, root.approvalNodes);
    closeNode(node, 'succeeded');
  } catch (error) {
    // the model calls that finished before the failure were paid for: count them, even when
    // the failure (an abort) came while the tools they asked for ran
    usage = callUsages.reduce(sumUsage, emptyUsage());
    node.children
      .filter((child) => child.kind === 'model')
      .forEach((child, i) => (child.usage ??= callUsages[i]));
    node.usage = usage;
    run.usage = sumUsage(run.usage, usage);
    status = settleOnError(node, error);
    if (started) root.emit({ type: 'step-finish', runId: run.runId, step: path, status, usage });
    throw error;
  }
  root.emit({
    type: 'step-finish',
    runId: run.runId,
    step: path,
    status,
    result: node.result,
    usage,
  });
  if (props.children) {
    const rendered = await props.children(result);
    await evaluate(rendered, { ...ctx, renderedBy: undefined });
  }
}

/**
 * A tool call's key, as `toolCallContext().key` gives it: the outermost run's id, the
 * composite calls on the way and the call's id at its step. With a journal the call id comes
 * from the model answer that asked (the same on every resume); without one it is
 * `<step id>#<toolCallId>`.
 */
function callKey(
  runId: string,
  place: DurablePlace,
  toolCallId: string,
  durable: DurableCalls | undefined,
): string {
  const call = durable
    ? durable.callId(place, toolCallId)
    : `${place.step.slice(place.step.lastIndexOf(':') + 1)}#${toolCallId}`;
  return [runId, ...(place.calls ?? []), call].join('/');
}

/** Closes the tool nodes of approval requests nobody was asked (the step's `stopWhen` ended it first). */
function withdrawUnasked(
  requests: PendingToolApproval[] | undefined,
  nodes: Map<string, TraceNode>,
): void {
  for (const request of requests ?? []) {
    const node = nodes.get(request.approvalId);
    if (!node) continue;
    node.approval = {
      id: request.approvalId,
      status: 'withdrawn',
      reason: "the step's stopWhen ended it before anyone was asked",
    };
    closeNode(node, 'aborted');
  }
}

/** Turns the AI SDK's stream parts into trace nodes and run events. */
function partHandler(
  run: RunFrame,
  step: string,
  stepNode: TraceNode,
): (part: TextStreamPart<ToolSet>) => void {
  const root = run.root;
  // tool nodes by call id; a provider may repeat an id (across turns, or within one), so
  // each id keeps its nodes in order, and a part goes to the first one still open
  const tools = new Map<string, TraceNode[]>();
  const openTool = (toolCallId: string, toolName: string, input?: unknown) => {
    const node = openNode('tool', toolName, stepNode, { toolCallId, input: plainJson(input) });
    tools.set(toolCallId, [...(tools.get(toolCallId) ?? []), node]);
    // a composite call that started before its node: its child run, live
    const live = run.liveCalls.get(toolCallId);
    if (live !== undefined) {
      node.output = live;
      run.liveCalls.delete(toolCallId);
    }
    return node;
  };
  const toolNode = (toolCallId: string, toolName: string, input?: unknown) => {
    const nodes = tools.get(toolCallId) ?? [];
    const open = nodes.filter((node) => !node.endedAt);
    return (
      open.find((node) => node.name === toolName) ??
      open[0] ??
      openTool(toolCallId, toolName, input)
    );
  };
  let model: TraceNode | undefined;
  return (part) => {
    switch (part.type) {
      case 'start-step':
        model = openNode('model', 'model', stepNode);
        break;
      case 'finish-step':
        if (model) {
          model.name = part.response.modelId || 'model';
          model.usage = plainUsage(part.usage);
          model.finishReason = part.finishReason;
          closeNode(model, 'succeeded');
        }
        break;
      case 'text-delta':
        root.emit({ type: 'text-delta', runId: run.runId, step, delta: part.text });
        break;
      case 'tool-call': {
        const node = openTool(part.toolCallId, part.toolName, part.input);
        root.emit({
          type: 'tool-call',
          runId: run.runId,
          step,
          toolCallId: part.toolCallId,
          tool: part.toolName,
          input: node.input,
        });
        break;
      }
      case 'tool-approval-request': {
        const node = toolNode(
          part.toolCall.toolCallId,
          part.toolCall.toolName,
          part.toolCall.input,
        );
        node.approval = { id: part.approvalId, status: 'pending' };
        node.status = 'waiting';
        root.approvalNodes.set(part.approvalId, node);
        break;
      }
      case 'tool-result': {
        if (part.preliminary) break;
        const node = toolNode(part.toolCallId, part.toolName, part.input);
        node.output = plainJson(part.output);
        closeNode(node, 'succeeded');
        root.emit({
          type: 'tool-result',
          runId: run.runId,
          step,
          toolCallId: part.toolCallId,
          tool: part.toolName,
          output: node.output,
        });
        break;
      }
      case 'tool-error': {
        const node = toolNode(part.toolCallId, part.toolName, part.input);
        const error = traceError(part.error);
        closeNode(node, run.signal.aborted ? 'aborted' : 'failed', part.error);
        root.emit({
          type: 'tool-error',
          runId: run.runId,
          step,
          toolCallId: part.toolCallId,
          tool: part.toolName,
          error,
        });
        break;
      }
      case 'tool-output-denied': {
        const node = toolNode(part.toolCallId, part.toolName);
        closeNode(node, 'denied');
        break;
      }
    }
  };
}
