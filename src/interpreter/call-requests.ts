import { randomUUID } from 'node:crypto';
import type { ToolSet } from 'ai';
import type { ApprovalDecision, ApprovalRequest } from '../approvals/approval-request.js';
import {
  callRequestsKey,
  type CallRequest,
  type CallRequests,
} from '../approvals/call-requests.js';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { DurablePlace, OutsideAnswer } from '../engine/durable-engine.js';
import { plainJson } from '../json/json-form.js';
import type { RunServices } from './run-services.js';
import type { ToolNodes } from './tool-nodes.js';

/** Where one step's tools run, as {@link withCallRequests} needs it. */
export interface CallRequestsAt {
  services: RunServices;
  /** The run (outermost or child) of the step, and what aborts it. */
  runId: string;
  signal: AbortSignal;
  /** The step path, and its place for the durable engine. */
  step: string;
  place: DurablePlace;
  /** The step's tool call nodes: a request goes on its call's node. */
  nodes: ToolNodes;
  /** The key of the step's tool call `toolCallId` (`<runId>/<calls…>/<call>`). */
  key(toolCallId: string): string;
}

/**
 * The step's tools, each execution given its call's {@link CallRequests} in its options
 * (`callRequestsOf(options)`): a tool that needs a person's answer while it runs (an MCP
 * server eliciting) asks it as an approval request of this run, on a node of its own under
 * the call's (named by the request's tool, with its input; it ends with its answer), under
 * the key `<call key>/<name>`. With a durable engine the request and its answer are
 * recorded under the call id `<call>/<name>`, so a resumed run answers it from the record.
 */
export function withCallRequests(tools: ToolSet, at: CallRequestsAt): ToolSet {
  return mapExecutes(tools, (execute, name) => (input, options) => {
    const requests = callRequests(at, name, options.toolCallId);
    return execute(input, { ...options, [callRequestsKey]: requests } as typeof options);
  });
}

function callRequests(at: CallRequestsAt, tool: string, toolCallId: string): CallRequests {
  const key = at.key(toolCallId);
  const call = key.slice(key.lastIndexOf('/') + 1);
  const { services } = at;
  return {
    key,
    async ask(asked: CallRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
      const id = `call-${randomUUID()}`;
      // its own node under the call's: the call may wait for several at once
      const node = at.nodes.find(toolCallId, tool);
      const nodeId = services.log.nodeId(node.nodeId, `ask:${asked.name}`);
      services.log.placeApproval(id, { nodeId, parentId: node.nodeId });
      const { question } = asked;
      const request: ApprovalRequest = {
        id,
        tool: asked.tool,
        input: plainJson(asked.input),
        step: at.step,
        toolCallId,
        key: `${key}/${asked.name}`,
        ...(question ? { kind: 'question' as const, question } : {}),
      };
      const aborts = signal ? AbortSignal.any([at.signal, signal]) : at.signal;
      const ask = (replayed?: ApprovalDecision) =>
        services.approvals.request(request, aborts, at.runId, replayed, asked.check);
      const durable = services.engine.durable;
      const decision = durable
        ? await durable.approval(
            at.place,
            {
              approvalId: id,
              toolCallId,
              toolName: asked.tool,
              input: request.input,
              ...(question ? { question } : {}),
            },
            {
              ask,
              answer: ({ source, ...given }: OutsideAnswer) =>
                services.approvals.answer(id, given, source ?? 'database'),
            },
            `${call}/${asked.name}`,
          )
        : await ask();
      return {
        approved: decision.approved,
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
        ...(decision.input !== undefined ? { input: decision.input } : {}),
        ...(decision.output !== undefined ? { output: decision.output } : {}),
      };
    },
  };
}
