import type { Attributes } from '@opentelemetry/api';
import type { RunLogEvent } from '../events/run-event.js';
import { genAiFinishReason } from './genai-provider.js';
import type { TelemetryContent } from './span-attributes.js';

/** A message part in the GenAI conventions' JSON form of `gen_ai.input.messages` / `gen_ai.output.messages`. */
type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown };

/** A message in the GenAI conventions' JSON form. */
interface GenAiMessage {
  role: 'user' | 'assistant' | 'tool';
  parts: GenAiPart[];
  finish_reason?: string;
}

/** A model call in flight: the conversation it was sent, and its answer so far. */
interface ModelCall {
  step: string;
  input: GenAiMessage[];
  text: string;
  calls: GenAiPart[];
  /** Results of its tool calls that came before its end (tools run within the model call's turn). */
  results: GenAiMessage[];
}

/**
 * Rebuilds, from a run's events, the messages each model call was sent and answered, in the
 * OpenTelemetry GenAI conventions' JSON form (`gen_ai.input.messages`,
 * `gen_ai.output.messages`), for the spans of model calls when content recording is on.
 *
 * The conversation is the one June builds for an agent: each step's prompt as a user
 * message, then its model calls' answers (text and tool calls) and the tools' results, step
 * after step of the same agent. An agent's own `messages` prop and instructions are not in
 * the events, so they are not in the spans. What it reads has already passed the run's
 * redaction.
 */
export class GenAiMessages {
  /** The conversation of each agent (by node id) after its finished steps. */
  readonly #agents = new Map<string, GenAiMessage[]>();
  /** The conversation of each running step (by node id), and its agent's node id. */
  readonly #steps = new Map<string, { agent: string; messages: GenAiMessage[] }>();
  readonly #calls = new Map<string, ModelCall>();
  /** The model call in flight in each step (by the step's node id). */
  readonly #current = new Map<string, string>();

  constructor(private readonly content: TelemetryContent) {}

  /**
   * Takes one event; at a model call's end, gives the attributes its span gets (only those
   * `content` allows).
   */
  event(e: RunLogEvent): { nodeId: string; attributes: Attributes } | undefined {
    switch (e.type) {
      case 'step-start': {
        const agent = e.parentId ?? '';
        const before = this.#agents.get(agent) ?? [];
        this.#steps.set(e.nodeId, {
          agent,
          messages: [...before, { role: 'user', parts: [{ type: 'text', content: e.prompt }] }],
        });
        return undefined;
      }
      case 'model-start': {
        const step = this.#steps.get(e.parentId ?? '');
        this.#calls.set(e.nodeId, {
          step: e.parentId ?? '',
          input: step ? [...step.messages] : [],
          text: '',
          calls: [],
          results: [],
        });
        this.#current.set(e.parentId ?? '', e.nodeId);
        return undefined;
      }
      case 'text-delta': {
        const call = this.#calls.get(e.nodeId);
        if (call) call.text += e.delta;
        return undefined;
      }
      case 'tool-call': {
        const call = this.#calls.get(this.#current.get(e.parentId ?? '') ?? '');
        call?.calls.push({ type: 'tool_call', id: e.toolCallId, name: e.tool, arguments: e.input });
        return undefined;
      }
      case 'tool-result':
      case 'tool-error':
        this.#result(
          e.parentId ?? '',
          e.toolCallId,
          e.type === 'tool-result' ? e.output : e.error.message,
        );
        return undefined;
      case 'model-finish':
        return this.#finish(e.nodeId, e.finishReason);
      case 'step-finish': {
        const step = this.#steps.get(e.nodeId);
        this.#steps.delete(e.nodeId);
        this.#current.delete(e.nodeId);
        if (step && e.status === 'succeeded') this.#agents.set(step.agent, step.messages);
        return undefined;
      }
      case 'agent-finish':
        this.#agents.delete(e.nodeId);
        return undefined;
      default:
        return undefined;
    }
  }

  /** A tool's result (or error text) in the step `step`: a result that comes before its call's turn ended goes after the turn's answer. */
  #result(step: string, id: string, response: unknown): void {
    const message: GenAiMessage = {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id, response }],
    };
    const call = this.#calls.get(this.#current.get(step) ?? '');
    if (call) call.results.push(message);
    else this.#steps.get(step)?.messages.push(message);
  }

  #finish(nodeId: string, finishReason: string): { nodeId: string; attributes: Attributes } {
    const call = this.#calls.get(nodeId);
    this.#calls.delete(nodeId);
    if (call && this.#current.get(call.step) === nodeId) this.#current.delete(call.step);
    const parts: GenAiPart[] = [
      ...(call?.text ? [{ type: 'text' as const, content: call.text }] : []),
      ...(call?.calls ?? []),
    ];
    const answer: GenAiMessage = {
      role: 'assistant',
      parts,
      finish_reason: genAiFinishReason(finishReason),
    };
    if (call)
      this.#steps.get(call.step)?.messages.push({ role: 'assistant', parts }, ...call.results);
    const attributes: Attributes = {};
    if (this.content.recordInputs && call)
      attributes['gen_ai.input.messages'] = JSON.stringify(call.input);
    if (this.content.recordOutputs) attributes['gen_ai.output.messages'] = JSON.stringify([answer]);
    return { nodeId, attributes };
  }
}
