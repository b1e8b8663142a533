import type {
  LanguageModel,
  LanguageModelUsage,
  ModelMessage,
  TelemetryOptions,
  ToolSet,
} from 'ai';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix, notation } from '../elements/notation.js';
import type { AgentProps } from '../components/agent.js';
import type { ApprovalDecision } from '../approvals/approval-request.js';
import type { StepPrompt, StepProps } from '../components/step.js';
import { JuneError, WorkflowError } from '../errors/june-error.js';
import { emptyUsage, sumUsage, plainUsage } from '../models/usage.js';
import { modelIdentity } from '../models/model-identity.js';
import { callCost, modelPrice, type ModelPrice } from '../models/price.js';
import { recordedPrice } from '../models/replayed-call.js';
import { settingsFrom } from '../models/settings-from.js';
import {
  runStep,
  type PendingToolApproval,
  type StepRunInput,
  type ToolApprovalAnswer,
} from '../steps/run-step.js';
import { toolAnswerCheck } from '../steps/tool-answer-check.js';
import { questionFields } from '../approvals/question-tool.js';
import { toolAnswerSchemas } from '../steps/tool-answer-schemas.js';
import { toolCallTools } from '../engine/durable-tools.js';
import { stepToolApproval } from '../engine/tool-approval.js';
import type { DurableCalls } from '../engine/durable-calls.js';
import type { ApprovalAnswer, DurablePlace, OutsideAnswer } from '../engine/durable-engine.js';
import { plainJson } from '../json/json-form.js';
import { errorData } from '../errors/error-data.js';
import { guardsOf, type AgentFrame, type EvalContext, type RunFrame } from './run-state.js';
import type { NodePlace } from './node-place.js';
import type { RunServices } from './run-services.js';
import { statusOf } from './settle.js';
import { stepPartHandler } from './step-parts.js';
import { withCallRequests } from './call-requests.js';
import { ToolNodes } from './tool-nodes.js';
import { sdkTelemetry } from '../telemetry/sdk-telemetry.js';
import type { Redactor } from '../redaction/redactor.js';
import { errorMessage } from '../errors/error-message.js';
import { isStepPrompt, promptShown } from './step-prompt.js';
import { budgetsIn, type PolicyEntry } from './guard-entry.js';
import { StepGuards, withPolicies } from './guarded-tools.js';
import { budgetedModel, countSpent } from './budget-gate.js';
import { isCompositeOutput } from '../trace/composite-result.js';
import { subtreeCost } from '../trace/subtree-cost.js';
import { checkStepGuards } from './step-guards.js';
import type { EventInput } from './event-input.js';
import { compactBeforeStep, compactInStep, type StepCompaction } from './compact-agent.js';

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
      { details: { id: props.id, steps: [stepPlace(earlier, stepAgents.get(earlier)), shown()] } },
    );
  }
  if (props.children !== undefined && typeof props.children !== 'function') {
    throw new WorkflowError(
      'step-children-not-function',
      `june: ${shown()} has children that are not a function; a step's only child is (result) => JSX, rendered after the step.`,
    );
  }
  if (!isStepPrompt(props.prompt) && typeof props.prompt !== 'function') {
    throw new WorkflowError(
      'step-prompt-invalid',
      `june: ${shown()} needs prompt="...", prompt={[{ type: 'text', text: '...' }, { type: 'file', mediaType, data }]} or prompt={({ steps }) => "..."}.`,
    );
  }
  ctx.run.stepElements.set(props.id, element);
  for (const ids of ctx.attempts ?? []) ids.add(props.id);
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
 * The step's prompt: the string or parts, or what its prompt function returns for the results so far.
 * @throws {WorkflowError} `step-prompt-failed` when the function throws (the error as `cause`),
 *   `step-prompt-invalid` when it returns something other than a string or content parts.
 */
async function promptOf(element: JuneElement, steps: Record<string, unknown>): Promise<StepPrompt> {
  const { prompt } = element.props as StepProps;
  if (typeof prompt !== 'function') return prompt;
  const shown = `${notation(element, ['id'])}${locationSuffix(element.source)}`;
  let text: unknown;
  try {
    text = await prompt({ steps: readOnly(steps) });
  } catch (error) {
    if (JuneError.isInstance(error)) throw error;
    const message = errorMessage(error);
    throw new WorkflowError(
      'step-prompt-failed',
      `june: the prompt function of ${shown} threw: ${message}`,
      { cause: error },
    );
  }
  if (!isStepPrompt(text)) {
    const kind =
      text === null ? 'null' : Array.isArray(text) ? 'an array of other things' : typeof text;
    throw new WorkflowError(
      'step-prompt-invalid',
      `june: the prompt function of ${shown} returned ${kind}; it must return a string or text, image and file parts (or a promise of one).`,
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
  // the static check and inspect() check steps, only a run runs them
  const services = ctx.run.pass.services;
  if (!services) return;
  const result = await runStepNode(element, props, ctx, services);
  if (props.children) {
    const rendered = await props.children(result);
    await evaluate(rendered, { ...ctx, renderedBy: undefined });
  }
}

/**
 * A tool call's key, as `toolCallContext().key` gives it: the outermost run's id, the
 * composite calls on the way and the call's id at its step. With a durable engine the call id comes
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

/** One running step: where it stands, and the usage of each model call that finished. */
interface StepCall {
  run: RunFrame;
  services: RunServices;
  agent: AgentFrame;
  /** The step path (`research:findings`). */
  path: string;
  node: NodePlace;
  /** Each model call's usage as soon as it finished (the AI SDK's comes after the tools ran). */
  callUsages: LanguageModelUsage[];
  /** Each of those calls' cost, in USD (`null`: its model has no price). */
  callCosts: Array<number | null>;
  /** The `<Guard>`s over the step, outermost first. */
  guards: readonly PolicyEntry[];
  /** The guards over the step's tool calls, when it has any. */
  guarded?: StepGuards;
  /** The step's text deltas, held back while a guard checks its output. */
  held?: EventInput[];
  /** The compaction of the step's requests and of the conversation it leaves (`<Agent compact>`). */
  compaction: StepCompaction | undefined;
}

/**
 * Runs a step's tool loop between its `step-start` and `step-finish` events, and records its
 * result, messages and usage. Returns the result.
 */
async function runStepNode(
  element: JuneElement,
  props: StepProps & { id: string },
  ctx: EvalContext,
  services: RunServices,
): Promise<unknown> {
  const [run, log] = [ctx.run, services.log];
  const path = [...run.prefix, props.id].join(':');
  const step: StepCall = {
    run,
    services,
    agent: ctx.agent!,
    path,
    node: { nodeId: log.nodeId(ctx.parentId, `step:${props.id}`), parentId: ctx.parentId },
    callUsages: [],
    callCosts: [],
    ...guardsAndHeld(guardsOf(ctx)),
    compaction: compactInStep({ run, services, agent: ctx.agent!, path }),
  };
  const base = { type: 'step-finish' as const, runId: run.runId, step: path, ...step.node };
  let started = false;
  try {
    const prompt = await promptOf(element, run.steps);
    const telemetry = await stepTelemetry(step.agent, log.redactor);
    log.emit({
      type: 'step-start',
      runId: run.runId,
      step: path,
      agent: step.agent.name,
      ...promptShown(prompt),
      ...step.node,
    });
    started = true;
    const userMessage: ModelMessage = { role: 'user', content: prompt };
    const out = await guardedStep(step, userMessage, () =>
      runStep({ ...stepRunInput(step, props, userMessage), ...telemetry }),
    );
    const usage = plainUsage(out.usage);
    run.steps[props.id] = out.result;
    run.usage = sumUsage(run.usage, usage);
    withdrawUnasked(step, out.unaskedApprovals);
    const messages = plainJson(out.responseMessages) as unknown[];
    log.emit({ ...base, status: 'succeeded', result: plainJson(out.result), usage, messages });
    return out.result;
  } catch (error) {
    // the model calls that finished before the failure were paid for: count them, even when
    // the failure (an abort) came while the tools they asked for ran
    const usage = step.callUsages.reduce(sumUsage, emptyUsage());
    run.usage = sumUsage(run.usage, usage);
    log.emit({
      ...base,
      status: statusOf(error),
      usage,
      error: errorData(error),
      ...paidCalls(step),
      ...(started ? {} : { unstarted: true as const }),
    });
    throw error;
  } finally {
    run.toolNodes.delete(path);
  }
}

/** The usage of each model call a failed step paid for, and their costs when any had a price. */
function paidCalls(step: StepCall) {
  const priced = step.callCosts.some((cost) => cost !== null);
  return { modelUsage: step.callUsages, ...(priced ? { modelCostUsd: step.callCosts } : {}) };
}

/**
 * Runs a step's tool loop between the guards' checks of its prompt and of its output; the
 * agent's conversation is compacted (`<Agent compact>`) after the prompt passed its guards,
 * and goes on with the step's prompt and the messages its loop added once the output passed.
 */
async function guardedStep<T extends { result: unknown; responseMessages: ModelMessage[] }>(
  step: StepCall,
  userMessage: ModelMessage,
  loop: () => Promise<T>,
): Promise<T> {
  await checkStepGuards(step, 'user-input', userMessage.content);
  // the conversation is compacted (<Agent compact>) before the step's prompt joins it
  await compactBeforeStep(step, userMessage);
  const out = await step.services.log.within(step.node.nodeId, loop);
  await checkStepGuards(step, 'output', out.result, step.held);
  // the conversation goes on with the step's exchange, as far as a compaction left it; in a
  // <Parallel> branch, the branch's exchange gains it whole, for the join
  const exchange = [userMessage, ...out.responseMessages];
  const conversation = [...step.agent.messages, ...exchange];
  step.agent.messages = step.compaction?.conversation(conversation) ?? conversation;
  step.agent.exchange?.push(...exchange);
  return out;
}

/** The AI SDK's own telemetry for an agent's model calls (its `experimental_telemetry`), if any. */
async function stepTelemetry(
  agent: AgentFrame,
  redactor: Redactor,
): Promise<{ telemetry?: TelemetryOptions }> {
  const setting = (agent.element.props as AgentProps).experimental_telemetry;
  const telemetry = await sdkTelemetry(setting, { shown: `the agent "${agent.path}"`, redactor });
  return telemetry ? { telemetry } : {};
}

/**
 * The step's tools as the model calls them: the agent's, checked by the guards over the
 * step, recorded by the durable engine (or given call ids without one), with the approval
 * each needs (its own, and a guard's escalation).
 */
function stepToolSet(step: StepCall, place: { step: string; calls: string[] }, tools: ToolNodes) {
  const { run, services, agent } = step;
  const durable = services.engine.durable;
  const guarded = stepGuards(step, place, tools);
  // the policies over the step go with each tool call, to the child runs of composite tools;
  // a tool that needs a person's answer while it runs asks it as this run's request
  const policed = guarded ? guarded.tools(agent.tools) : withPolicies(agent.tools, step.guards);
  const agentTools = withCallRequests(policed, {
    services,
    runId: run.runId,
    signal: run.signal,
    step: step.path,
    place,
    nodes: tools,
    key: (toolCallId) => callKey(services.runId, place, toolCallId, durable),
  });
  const stepTools = durable
    ? durable.tools(agentTools, place, (used, output) => {
        run.usage = sumUsage(run.usage, used);
        // a composite call answered from the record: its child run's calls count for the budgets
        const child = isCompositeOutput(output) ? output.trace : undefined;
        countSpent(budgetsIn(step.guards), used, child ? subtreeCost(child.root).usd : undefined);
      })
    : toolCallTools(agentTools, place, services.runId);
  const ownApproval = durable
    ? durable.toolApproval(stepTools, place)
    : stepToolApproval(stepTools);
  const toolApproval = guarded ? guarded.approval(ownApproval, stepTools) : ownApproval;
  return { guarded, stepTools, toolApproval };
}

/** The model a step calls: a fork's changed model, else the run's `model`, else its agent's. */
function stepModel(step: StepCall, model: LanguageModel): LanguageModel {
  const { services, run, agent, path } = step;
  const forked = services.settings.forkModel({ step: path, calls: run.calls, agent: agent.path });
  return forked ?? services.settings.model ?? model;
}

/**
 * The step's model through its durable engine, and, when a fork changed the call settings
 * of this step's calls, with them from the changed call on (outside the engine's wrapper, so
 * the changed requests are the recorded ones, and the calls before keep their records').
 */
function durableModel(
  step: StepCall,
  place: DurablePlace,
  price: ModelPrice | undefined,
): (explained: LanguageModel) => LanguageModel {
  const { services, run, agent, path } = step;
  const durable = services.engine.durable!;
  const forked = services.settings.forkSettings({
    step: path,
    calls: run.calls,
    agent: agent.path,
  });
  return (explained) => {
    const recorded = durable.model(explained, place, price);
    return forked ? settingsFrom(recorded, forked.from, forked.settings) : recorded;
  };
}

/** What `runStep` needs for one step: the agent's model and settings, tools, events and approvals. */
function stepRunInput(step: StepCall, props: StepProps, userMessage: ModelMessage): StepRunInput {
  const { run, services, agent, path } = step;
  const {
    model,
    name: _n,
    instructions,
    tools: _t,
    stopWhen,
    output,
    messages: _m,
    compact: _compact,
    providerOptions,
    children: _c,
    experimental_telemetry: _telemetry,
    ...callSettings
  } = agent.element.props as AgentProps;
  // with a durable engine, finished model and tool calls are recorded (or answered from its record when resuming)
  const durable = services.engine.durable;
  const place = { step: path, calls: run.calls };
  const tools = stepToolNodes(step, place);
  run.toolNodes.set(path, tools);
  const { guarded, stepTools, toolApproval } = stepToolSet(step, place, tools);
  const chosen = stepModel(step, model);
  const identity = modelIdentity(chosen);
  // the step's calls are priced once, here: the journal records this price with each answer
  const price = modelPrice(identity, services.settings.prices);
  const parts = [run, services.log, path, step.node, tools, identity, price, step.held] as const;
  const onPart = stepPartHandler(...parts);
  return {
    step: path,
    model: chosen,
    onUsage: (used, metadata) => {
      step.callUsages.push(used);
      step.callCosts.push(callCost(used, recordedPrice(metadata) ?? price) ?? null);
    },
    ...(durable ? { wrapModel: durableModel(step, place, price) } : {}),
    gateModel: (model) => budgeted(step, place, price, model),
    instructions,
    tools: stepTools,
    toolApproval,
    onToolStart: (call) => tools.started(call.toolCallId, call.toolName, call.input),
    messages: [...agent.messages, userMessage],
    ...(step.compaction ? { compactMessages: step.compaction.request } : {}),
    output: props.output ?? output,
    stopWhen,
    callSettings,
    providerOptions: {
      ...providerOptions,
      june: { ...(providerOptions?.june ?? {}), step: path },
    },
    abortSignal: run.signal,
    stream: services.settings.stream,
    onPart: guarded ? guarded.parts(onPart) : onPart,
    approve: (requests) => {
      // the turn's requests are answered together: one answered first is held until then
      services.approvals.turn(
        requests.map((request) => callKey(services.runId, place, request.toolCallId, durable)),
      );
      return Promise.all(requests.map((request) => askApproval(step, request, stepTools)));
    },
  };
}

/** The tool call nodes of a step; with a durable engine, they carry their record names. */
function stepToolNodes(step: StepCall, place: DurablePlace): ToolNodes {
  const { services, run, path } = step;
  const durable = services.engine.durable;
  return new ToolNodes(
    services.log,
    run.runId,
    path,
    step.node.nodeId,
    durable
      ? { calls: run.calls, callId: (toolCallId) => durable.callId(place, toolCallId) }
      : undefined,
  );
}

/**
 * Asks for one approval (answered from the durable engine's record when it holds the answer).
 * An answer's edited input and its answer instead of the tool are checked against the
 * tool's schemas (of `tools`) before they are applied.
 */
async function askApproval(
  step: StepCall,
  request: PendingToolApproval,
  tools: ToolSet,
): Promise<ToolApprovalAnswer> {
  const { run, services, path } = step;
  const place = { step: path, calls: run.calls };
  const durable = services.engine.durable;
  const tool = Object.hasOwn(tools, request.toolName) ? tools[request.toolName] : undefined;
  // a <Question>'s request says what it asks (kind, question); any other tool's adds nothing
  const asks = await questionFields(tool, request.input);
  const guard = step.guarded?.escalation(request.toolCallId, request.toolName, request.input);
  const ask = (replayed?: ApprovalAnswer | ApprovalDecision) =>
    services.approvals.request(
      {
        id: request.approvalId,
        tool: request.toolName,
        input: plainJson(request.input),
        step: path,
        toolCallId: request.toolCallId,
        key: callKey(services.runId, place, request.toolCallId, durable),
        ...asks,
        ...(guard ? { guard } : {}),
      },
      run.signal,
      run.runId,
      replayed,
      toolAnswerCheck(tool),
    );
  // an answer from outside the process (through the engine's store) settles the request as a person's would
  const answer = ({ source, ...given }: OutsideAnswer) =>
    services.approvals.answer(request.approvalId, given, source ?? 'database');
  const decision = durable
    ? await durable.approval(
        place,
        { ...request, ...asks, ...(guard ? { guard } : {}) },
        { ask, answer, schemas: toolAnswerSchemas(tool) },
      )
    : await ask();
  return {
    approvalId: request.approvalId,
    approved: decision.approved,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.input !== undefined ? { input: decision.input } : {}),
    ...(decision.output !== undefined ? { output: decision.output } : {}),
  };
}

/**
 * The step's model with the budgets over the step checking each call before it starts
 * (and before it shows as started), outside the journal, so a resumed or replayed run counts
 * its recorded calls as the first run did.
 */
function budgeted(
  step: StepCall,
  place: DurablePlace,
  price: ModelPrice | undefined,
  model: LanguageModel,
): LanguageModel {
  return budgetedModel(model, {
    services: step.services,
    run: step.run,
    budgets: budgetsIn(step.guards),
    place,
    step: step.path,
    stepNode: step.node.nodeId,
    price,
    count: true,
  });
}

/** A step's guards, and where its text waits when one of them checks its output. */
function guardsAndHeld(guards: readonly PolicyEntry[]): Pick<StepCall, 'guards' | 'held'> {
  return guards.some((guard) => guard.on.has('output')) ? { guards, held: [] } : { guards };
}

/** The guards over a step's tool calls, when any `<Guard>` over it checks them. */
function stepGuards(step: StepCall, place: DurablePlace, tools: ToolNodes): StepGuards | undefined {
  if (!step.guards.some((guard) => guard.on.has('tool-input'))) return undefined;
  const { services, run, path, agent } = step;
  step.guarded = new StepGuards(step.guards, {
    services,
    run,
    step: path,
    stepNode: step.node.nodeId,
    agent: agent.path,
    place,
    tools,
  });
  return step.guarded;
}

/** Withdraws the approval requests nobody was asked (the step's `stopWhen` ended it first); their calls end as aborted. */
function withdrawUnasked(step: StepCall, requests: PendingToolApproval[] | undefined): void {
  const log = step.services.log;
  for (const request of requests ?? []) {
    const place = log.approvalPlace(request.approvalId);
    if (!place) continue;
    log.emit({
      type: 'approval-withdraw',
      runId: step.run.runId,
      id: request.approvalId,
      reason: "the step's stopWhen ended it before anyone was asked",
      unasked: true,
      ...place,
    });
  }
}
