// Helpers for the composite tool tests: scripted models that also record every call's
// options (tools, prompt), and readers for traces and prompts.
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import type { RunEvent, RunHandle, TraceNode } from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';

/**
 * A streaming model answering from a script keyed by step path (as `scriptedModel`), that
 * records each call's options in `doStreamCalls`. `scripted` is the scripted model behind it
 * (`assertAllTurnsUsed()`).
 */
export function recordingModel(steps: Record<string, ScriptTurn[]>, name = 'scripted') {
  const scripted = scriptedModel(
    { $comment: 'Test fixture: scripted turns for test/composite', steps },
    { name },
  );
  const model = new MockLanguageModelV4({
    modelId: name,
    doStream: (options) => scripted.doStream(options),
  });
  return Object.assign(model, { scripted });
}

/** The calls a recording model got for one step path, in order. */
export function callsAt(model: MockLanguageModelV4, step: string): LanguageModelV4CallOptions[] {
  return model.doStreamCalls.filter(
    (call) => (call.providerOptions?.june as { step?: string } | undefined)?.step === step,
  );
}

/** The names of the tools a model call offered the model. */
export function toolNamesOf(call: LanguageModelV4CallOptions): string[] {
  return (call.tools ?? []).map((tool) => tool.name);
}

/** Every tool-result part of a prompt, in order. */
export function toolResultsOf(prompt: LanguageModelV4Prompt) {
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
}

/** Every node of a trace tree, depth first. */
export function nodesOf(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(nodesOf)];
}

/** The first node of a kind and name in a trace tree. */
export function findNode(node: TraceNode, kind: TraceNode['kind'], name: string): TraceNode {
  const found = nodesOf(node).find((n) => n.kind === kind && n.name === name);
  if (!found) throw new Error(`no ${kind} node named "${name}" in the trace`);
  return found;
}

/** Collects a run's events as they come; `done` settles when the stream ends. */
export function recordEvents(handle: RunHandle): { events: RunEvent[]; done: Promise<void> } {
  const events: RunEvent[] = [];
  const done = (async () => {
    for await (const event of handle.events) events.push(event);
  })();
  return { events, done };
}

/** Resolves once `predicate` holds for a recorded event (the stream is read as it goes). */
export async function nextEvent<E extends RunEvent>(
  handle: RunHandle,
  predicate: (event: RunEvent) => event is E,
): Promise<E>;
export async function nextEvent(
  handle: RunHandle,
  predicate: (event: RunEvent) => boolean,
): Promise<RunEvent>;
export async function nextEvent(
  handle: RunHandle,
  predicate: (event: RunEvent) => boolean,
): Promise<RunEvent> {
  for await (const event of handle.events) if (predicate(event)) return event;
  throw new Error('the run ended before the awaited event');
}
