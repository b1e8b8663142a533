import type { TextStreamPart, ToolSet } from 'ai';
import { plainUsage } from '../models/usage.js';
import { isReplayedCall, recordedPrice } from '../models/replayed-call.js';
import { callCost, type ModelPrice } from '../models/price.js';
import type { ModelIdentity } from '../models/model-identity.js';
import { plainJson } from '../json/json-form.js';
import { errorData } from '../errors/error-data.js';
import { thrownByTool } from '../engine/tool-failure.js';
import type { NodePlace } from './node-place.js';
import type { RunFrame } from './run-state.js';
import type { RunLog } from './run-log.js';
import type { ToolNodes } from './tool-nodes.js';
import type { EventInput } from './event-input.js';

/**
 * Turns the AI SDK's stream parts of one step into run events: model calls (a `start-step`
 * to its `finish-step`), text and reasoning deltas, tool calls and their results, errors and
 * denials; an approval request's part notes which node the request's events concern. Each
 * model call is priced at `price` (a replayed call at the price it was recorded with) and
 * its `model-finish` says what it cost. With `held`, text and reasoning deltas are kept there
 * instead of emitted (a `<Guard>` checks the step's output before any of its text is shown).
 *
 * @example
 * ```ts
 * const onPart = stepPartHandler(run, services.log, 'research:findings', { nodeId: 'n7', parentId: 'n3' }, tools);
 * ```
 */
export function stepPartHandler(
  run: RunFrame,
  log: RunLog,
  step: string,
  stepNode: NodePlace,
  tools: ToolNodes,
  identity: ModelIdentity = {},
  price?: ModelPrice,
  held?: EventInput[],
): (part: TextStreamPart<ToolSet>) => void {
  const runId = run.runId;
  const start = modelStart(runId, step, identity);
  let model: string | undefined;
  // a delta concerns the model call it comes from
  const deltaPlace = (): NodePlace =>
    model === undefined ? stepNode : { nodeId: model, parentId: stepNode.nodeId };
  return (part) => {
    switch (part.type) {
      case 'start-step': {
        const { nodeId, ...record } = tools.modelStarted();
        model = nodeId;
        log.emit({ ...start, ...record, ...deltaPlace() });
        break;
      }
      case 'finish-step':
        if (model === undefined) break;
        log.emit({
          ...modelFinish(part, price),
          runId,
          step,
          nodeId: model,
          parentId: stepNode.nodeId,
        });
        model = undefined;
        break;
      case 'text-delta':
      case 'reasoning-delta': {
        const event = { type: part.type, runId, step, delta: part.text, ...deltaPlace() };
        // a guarded output's text (and reasoning) waits for the guards' decision
        if (held) held.push(event);
        else log.emit(event);
        break;
      }
      case 'tool-call':
        tools.called(part.toolCallId, part.toolName, part.input);
        break;
      case 'tool-approval-request':
        log.placeApproval(
          part.approvalId,
          tools.find(part.toolCall.toolCallId, part.toolCall.toolName),
          tools.toolRecord(part.toolCall.toolCallId, part.toolCall.toolName),
        );
        break;
      case 'tool-result':
      case 'tool-error':
      case 'tool-output-denied':
        if (part.type === 'tool-result' && part.preliminary) break;
        toolOutcome(part, run.signal, log, callPlace(runId, step, part, tools), tools);
        break;
    }
  };
}

/** A tool call's fields and place in its events. */
function callPlace(
  runId: string,
  step: string,
  part: { toolCallId: string; toolName: string },
  tools: ToolNodes,
) {
  const { toolCallId, toolName: tool } = part;
  return { runId, step, toolCallId, tool, ...tools.find(toolCallId, tool) };
}

/**
 * What a `model-finish` says of its call: the model's id, usage, finish reason, and its
 * price and cost. A replayed call costs what it cost when it was made (one recorded without
 * a price is priced now).
 */
function modelFinish(
  part: Extract<TextStreamPart<ToolSet>, { type: 'finish-step' }>,
  price: ModelPrice | undefined,
) {
  const usage = plainUsage(part.usage);
  const replayed = isReplayedCall(part.providerMetadata);
  const charged = recordedPrice(part.providerMetadata) ?? price;
  const costUsd = callCost(usage, charged);
  return {
    type: 'model-finish' as const,
    model: part.response.modelId || 'model',
    usage,
    finishReason: part.finishReason,
    ...(replayed ? { replayed: true as const } : {}),
    ...(charged ? { price: charged } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** What every `model-start` of a step says, besides its node: its model's provider and id. */
function modelStart(runId: string, step: string, identity: ModelIdentity) {
  return {
    type: 'model-start' as const,
    runId,
    step,
    ...(identity.provider !== undefined ? { provider: identity.provider } : {}),
    ...(identity.modelId !== undefined ? { model: identity.modelId } : {}),
  };
}

type ToolOutcomePart = Extract<
  TextStreamPart<ToolSet>,
  { type: 'tool-result' | 'tool-error' | 'tool-output-denied' }
>;

/** How a tool call ended: its (final) result, its error, or its denial, as an event. */
function toolOutcome(
  part: ToolOutcomePart,
  signal: AbortSignal,
  log: RunLog,
  event: NodePlace & { runId: string; step: string; toolCallId: string; tool: string },
  tools: ToolNodes,
): void {
  if (part.type === 'tool-result') {
    log.emit({ type: 'tool-result', ...event, output: plainJson(part.output) });
  } else if (part.type === 'tool-error') {
    const status = signal.aborted ? 'aborted' : 'failed';
    log.emit({ type: 'tool-error', ...event, error: errorData(thrownByTool(part.error)), status });
  } else log.emit({ type: 'tool-denied', ...event });
  tools.closed(part.toolCallId, event.nodeId);
}
