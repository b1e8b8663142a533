import { SpanKind, type Attributes } from '@opentelemetry/api';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import { modelOutputOf } from '../trace/composite-result.js';
import type { TraceNode } from '../trace/trace-node.js';
import { subtreeCost } from '../trace/subtree-cost.js';
import { genAiFinishReason, genAiProviderName } from './genai-provider.js';

/**
 * What a run's spans may carry beyond their shape: prompts, answers, tool inputs and outputs.
 * Both off by default, as in the AI SDK's `experimental_telemetry`, since they can hold
 * personal data; the run's `redact` option applies to what they record.
 */
export interface TelemetryContent {
  /** Step prompts (`june.step.prompt`) and tool inputs (`gen_ai.tool.call.arguments`). @default false */
  recordInputs?: boolean;
  /** Step results (`june.step.result`) and tool outputs (`gen_ai.tool.call.result`). @default false */
  recordOutputs?: boolean;
}

/**
 * A span's name and attributes for a trace node, following the OpenTelemetry GenAI semantic
 * conventions where they name the thing (`invoke_agent`, `chat`, `execute_tool` and their
 * `gen_ai.*` attributes) and `june.*` for the rest (runs, steps, `<Catch>` attempts,
 * provenance). Called when the node opens and again when it closes (with what is known then).
 *
 * `capabilities` are the provenance of the tools of the agent the node runs under, so a tool
 * span says where its tool came from. Content (prompts, results, tool inputs and outputs)
 * only as `content` allows; never env, cwd, headers or keys (a trace node has none).
 */
export function spanAttributes(
  node: TraceNode,
  runId: string,
  content: TelemetryContent,
  capabilities?: CapabilityProvenance[],
): { name: string; kind: SpanKind; attributes: Attributes } {
  const attributes: Attributes = {
    'june.run.id': runId,
    'june.node.id': node.id,
    'june.node.kind': node.kind,
    'june.status': node.status,
  };
  const name = kindAttributes[node.kind](node, attributes, content, capabilities);
  if (node.error) attributes['error.type'] = node.error.code ?? node.error.name;
  return { name, kind: spanKind(node), attributes };
}

/**
 * The span kind the GenAI conventions give each node: `CLIENT` for a call to a model (it
 * leaves the process), `INTERNAL` for a model that answers in the process (June's scripted
 * model) and for everything else (agents, steps, tool executions).
 */
function spanKind(node: TraceNode): SpanKind {
  if (node.kind !== 'model') return SpanKind.INTERNAL;
  return node.provider === 'june.scripted' ? SpanKind.INTERNAL : SpanKind.CLIENT;
}

/** The first model call under `node` (an agent's), depth first: whose provider the agent's span names. */
function firstModel(node: TraceNode): TraceNode | undefined {
  for (const child of node.children) {
    if (child.kind === 'model') return child;
    if (child.kind === 'run') continue;
    const found = firstModel(child);
    if (found) return found;
  }
  return undefined;
}

type KindAttributes = (
  node: TraceNode,
  into: Attributes,
  content: TelemetryContent,
  capabilities?: CapabilityProvenance[],
) => string;

const kindAttributes: Record<TraceNode['kind'], KindAttributes> = {
  run: (node, into) => {
    into['june.workflow'] = node.name;
    if (node.toolCallId !== undefined) into['june.run.parent_tool_call.id'] = node.toolCallId;
    Object.assign(into, usageAttributes('june.usage', node), costAttributes(node));
    return `run ${node.name}`;
  },
  agent: (node, into) => {
    into['gen_ai.operation.name'] = 'invoke_agent';
    into['gen_ai.agent.name'] = node.name;
    const model = firstModel(node);
    if (model?.provider !== undefined)
      into['gen_ai.provider.name'] = genAiProviderName(model.provider);
    if (model?.model !== undefined) into['gen_ai.request.model'] = model.model;
    if (node.capabilities) {
      into['june.agent.tools'] = node.capabilities.map((capability) => capability.name);
      into['june.agent.tool_sources'] = node.capabilities.map((capability) => capability.source);
    }
    return `invoke_agent ${node.name}`;
  },
  step: (node, into, content) => {
    into['june.step.id'] = node.name;
    into['june.step.path'] = node.step ?? node.name;
    Object.assign(into, usageAttributes('june.usage', node), costAttributes(node));
    if (content.recordInputs && node.prompt !== undefined) into['june.step.prompt'] = node.prompt;
    if (content.recordOutputs && node.result !== undefined)
      into['june.step.result'] = text(node.result);
    return `step ${node.step ?? node.name}`;
  },
  model: (node, into) => {
    into['gen_ai.operation.name'] = 'chat';
    if (node.provider !== undefined)
      into['gen_ai.provider.name'] = genAiProviderName(node.provider);
    // the id asked for (the model-start event's), and the one the answer gave (its name)
    const answered = node.name === 'model' ? undefined : node.name;
    const model = node.model ?? answered;
    if (model !== undefined) into['gen_ai.request.model'] = model;
    if (answered !== undefined) into['gen_ai.response.model'] = answered;
    if (node.finishReason !== undefined)
      into['gen_ai.response.finish_reasons'] = [genAiFinishReason(node.finishReason)];
    // a call answered from the record was counted by the process that made it
    if (node.replayed) into['june.replayed'] = true;
    else {
      Object.assign(into, usageAttributes('gen_ai.usage', node));
      if (node.costUsd !== undefined) into['june.cost.usd'] = node.costUsd;
    }
    return model === undefined ? 'chat' : `chat ${model}`;
  },
  tool: (node, into, content, capabilities) => {
    into['gen_ai.operation.name'] = 'execute_tool';
    into['gen_ai.tool.name'] = node.name;
    into['gen_ai.tool.type'] = 'function';
    if (node.toolCallId !== undefined) into['gen_ai.tool.call.id'] = node.toolCallId;
    const provenance = capabilities?.find((capability) => capability.name === node.name);
    if (provenance) Object.assign(into, provenanceAttributes(provenance));
    // an approval with an edited input: the call ran with the edit (the original is the node's input)
    const input = node.approval?.input ?? node.input;
    if (content.recordInputs && input !== undefined)
      into['gen_ai.tool.call.arguments'] = text(input);
    if (content.recordOutputs && node.output !== undefined && node.status === 'succeeded')
      into['gen_ai.tool.call.result'] = text(modelOutputOf(node.output));
    return `execute_tool ${node.name}`;
  },
  catch: (node, into) => {
    const attempt = /^attempt (\d+)$/.exec(node.name);
    if (attempt) into['june.catch.attempt'] = Number(attempt[1]);
    else into['june.catch.fallback'] = true;
    return `catch ${node.name}`;
  },
  parallel: (node, into) => {
    if (node.branches) into['june.parallel.branches'] = node.branches;
    if (node.mode !== undefined) into['june.parallel.mode'] = node.mode;
    if (node.limit !== undefined) into['june.parallel.limit'] = node.limit;
    return 'parallel';
  },
  branch: (node, into) => {
    into['june.branch.key'] = node.branch ?? node.name;
    return `branch ${node.name}`;
  },
};

/**
 * A run's or step's cost ({@link subtreeCost}: its model calls, child runs included, replayed
 * ones too, as `june.usage.*` counts them): `june.cost.usd` when a call had a price, and
 * `june.cost.unpriced_calls`, the calls whose cost is unknown, when there are any.
 */
function costAttributes(node: TraceNode): Attributes {
  const spent = subtreeCost(node);
  const out: Attributes = {};
  if (spent.usd !== undefined) out['june.cost.usd'] = spent.usd;
  if (spent.unpriced > 0) out['june.cost.unpriced_calls'] = spent.unpriced;
  return out;
}

/** `<prefix>.input_tokens` and `<prefix>.output_tokens` of a node's usage, when known. */
function usageAttributes(prefix: string, node: TraceNode): Attributes {
  const usage = node.usage;
  const out: Attributes = {};
  if (usage?.inputTokens !== undefined) out[`${prefix}.input_tokens`] = usage.inputTokens;
  if (usage?.outputTokens !== undefined) out[`${prefix}.output_tokens`] = usage.outputTokens;
  return out;
}

/** Where a tool came from: its source, the declaration that granted it, the name it had there. */
function provenanceAttributes(provenance: CapabilityProvenance): Attributes {
  return {
    'june.tool.source': provenance.source,
    ...(provenance.granted !== undefined ? { 'june.tool.granted': provenance.granted } : {}),
    ...(provenance.original !== undefined ? { 'june.tool.original': provenance.original } : {}),
    ...(provenance.composite ? { 'june.tool.composite': true } : {}),
    ...(provenance.guards?.length ? { 'june.tool.guards': provenance.guards } : {}),
  };
}

/** An attribute value for content: strings as they are, anything else as JSON. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}
