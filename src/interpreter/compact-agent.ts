import { generateText, type LanguageModel, type LanguageModelUsage, type ModelMessage } from 'ai';
import type { AgentProps } from '../components/agent.js';
import type { CompactOptions } from '../components/compact-options.js';
import { JuneError, RunAbortedError, WorkflowError } from '../errors/june-error.js';
import { errorMessage } from '../errors/error-message.js';
import { functionModel } from '../models/function-model.js';
import { modelIdentity } from '../models/model-identity.js';
import { callCost, modelPrice } from '../models/price.js';
import { recordedPrice } from '../models/replayed-call.js';
import { emptyUsage, plainUsage, sumUsage } from '../models/usage.js';
import {
  estimateAll,
  planCompaction,
  transcriptChunks,
  transcriptOf,
  type CompactionPlan,
} from '../steps/compaction-plan.js';
import { modelFailure } from '../steps/model-failure.js';
import type { AgentFrame, RunFrame } from './run-state.js';
import type { RunServices } from './run-services.js';

/** The first line of the message that stands for the messages a compaction replaced. */
export const SUMMARY_HEADING = 'Summary of the earlier conversation:';

/** What a summarizing model is told when the agent's `compact` gives no `instructions`. */
const SUMMARY_INSTRUCTIONS =
  'You compact a conversation between a user and an AI assistant. Write a summary that replaces ' +
  "the transcript for the assistant's later turns: keep every fact, decision, name, number, " +
  'tool result and open task it may need; leave out pleasantries. Answer with the summary only.';

/**
 * Checks an agent's `compact` prop before any model call.
 * @throws {WorkflowError} `agent-compact-invalid` naming the field and the agent.
 */
export function checkCompact(compact: unknown, where: string): void {
  if (compact === undefined) return;
  const fail = (why: string): never => {
    throw new WorkflowError(
      'agent-compact-invalid',
      `june: the compact prop of ${where} ${why}; e.g. compact={{ maxMessages: 40 }} or compact={{ maxTokens: 50_000, keep: 10 }}.`,
    );
  };
  if (typeof compact !== 'object' || compact === null) fail('is not an object');
  const { maxMessages, maxTokens, keep, summarize, model, instructions } =
    compact as CompactOptions;
  const count = (value: unknown, least: number) =>
    value === undefined || (Number.isInteger(value) && (value as number) >= least);
  if (maxMessages === undefined && maxTokens === undefined)
    fail('has neither maxMessages nor maxTokens');
  if (!count(maxMessages, 3)) fail('has a maxMessages that is not a whole number of at least 3');
  if (!count(maxTokens, 1)) fail('has a maxTokens that is not a positive whole number');
  if (!count(keep, 0)) fail('has a keep that is not a whole number of at least 0');
  if (keep !== undefined && maxMessages !== undefined && keep > maxMessages - 2)
    fail(
      `keeps ${keep} messages, more than maxMessages (${maxMessages}) leaves beside the summary and the prompt`,
    );
  if (summarize !== undefined && summarize !== 'model' && typeof summarize !== 'function')
    fail("has a summarize that is neither 'model' nor a function");
  if (model !== undefined && typeof summarize === 'function')
    fail('has both a model and a summarize function (the function writes the summary)');
  if (instructions !== undefined && typeof instructions !== 'string')
    fail('has instructions that are not a string');
}

/** One step about to start, or running: where it stands. */
export interface StepAboutToStart {
  run: RunFrame;
  services: RunServices;
  agent: AgentFrame;
  /** The step path. */
  path: string;
}

/**
 * Before a step of an agent with `compact`: when the conversation with the step's prompt
 * (`next`) passes the bound, replaces its oldest messages by a summary ({@link compacted}),
 * with no reference left in the agent's conversation to what it replaced. Returns `next`.
 *
 * @throws what {@link compacted} throws.
 */
export async function compactBeforeStep(
  step: StepAboutToStart,
  next: ModelMessage,
): Promise<ModelMessage> {
  const after = await compacted(step, step.agent.messages, next);
  if (after) step.agent.messages = after;
  return next;
}

/**
 * The compaction of one step's requests, for an agent with `compact` ({@link compactInStep}):
 * `request` compacts each of the step's later model calls (its tool loop and approval
 * continuations add turns after the step started), so every request stays within the bound;
 * `conversation` gives the agent's conversation once the step ended, with what the step's
 * last compaction replaced still replaced, so the next step does not summarize it again.
 */
export interface StepCompaction {
  /**
   * The messages of the step's next model call, compacted: the last compaction of this step
   * stands for what it replaced, and a new one is made (its summary given the last) only when
   * the rest still passes the bound. Undefined when the messages are sent as they are.
   */
  request(messages: ModelMessage[]): Promise<ModelMessage[] | undefined>;
  /** The agent's conversation after the step (`full`: the conversation as the step left it, whole). */
  conversation(full: ModelMessage[]): ModelMessage[];
}

/**
 * For a step of an agent with `compact`: what compacts the step's requests and the
 * conversation it leaves ({@link StepCompaction}). Undefined for an agent without `compact`.
 */
export function compactInStep(step: StepAboutToStart): StepCompaction | undefined {
  if (!(step.agent.element.props as AgentProps).compact) return undefined;
  // Positions count the step's conversation whole: the messages it started with, then each
  // message its model calls and tools added. The AI SDK goes on from the messages a request
  // was compacted to, within one tool loop; an approval's continuation starts from the whole.
  /** The step's last compaction: `after` stands for the whole conversation's first `upTo` messages. */
  let last: { upTo: number; after: ModelMessage[] } | undefined;
  /** The messages last sent, which the AI SDK's next request of the same loop extends. */
  let sent: { length: number; end: string } | undefined;
  /** How long the whole conversation is at the latest request. */
  let whole = 0;
  const withLast = (messages: ModelMessage[]): ModelMessage[] =>
    last && messages.length >= last.upTo ? [...last.after, ...messages.slice(last.upTo)] : messages;
  return {
    async request(messages) {
      const extends_ =
        sent !== undefined &&
        messages.length >= sent.length &&
        JSON.stringify(messages[sent.length - 1]) === sent.end;
      whole = extends_ ? whole + messages.length - sent!.length : messages.length;
      const base = extends_ ? messages : withLast(messages);
      const after = await compacted(step, base);
      if (after) last = { upTo: whole, after };
      const request = after ?? base;
      sent = { length: request.length, end: JSON.stringify(request.at(-1)) };
      return request === messages ? undefined : request;
    },
    conversation: withLast,
  };
}

/**
 * When `messages` (with `next`, if given) pass the agent's bound: the messages with their
 * oldest replaced by one summary message (the agent's system messages stay first, the
 * recent ones stay as they are: {@link planCompaction}); emits `compaction` on the agent's
 * node. A summary is a model call under `<agent name>@compact` (each chunk of the transcript
 * one call, when `maxTokens` splits it), or the agent's function made into one
 * ({@link functionModel}), so the durable engine records it and a resume or replay gives it
 * back. Undefined when the bound holds.
 *
 * @throws what a failed summary call throws ({@link modelFailure}), `compact-summarize-failed`
 *   when the function throws, `compact-summary-invalid` when it returns anything but a string.
 */
async function compacted(
  step: StepAboutToStart,
  messages: ModelMessage[],
  next?: ModelMessage,
): Promise<ModelMessage[] | undefined> {
  const { agent, run, services } = step;
  const compact = (agent.element.props as AgentProps).compact;
  if (!compact) return undefined;
  const plan = planCompaction(messages, next, compact);
  if (!plan) return undefined;
  const extra = next ? [next] : [];
  const before = { messages: messages.length + extra.length, tokens: estimateAll(messages) };
  before.tokens += estimateAll(extra);
  const { summary, calls, usage, costUsd } = await summaryOf(step, compact, plan);
  const message: ModelMessage = { role: 'user', content: `${SUMMARY_HEADING}\n${summary}` };
  const after = [...plan.pinned, message, ...plan.kept];
  run.usage = sumUsage(run.usage, usage);
  services.log.emit({
    type: 'compaction',
    runId: run.runId,
    agent: agent.name,
    step: step.path,
    ...(next ? {} : { inStep: true as const }),
    replaced: plan.dropped.length,
    kept: plan.kept.length,
    summary,
    by: typeof compact.summarize === 'function' ? 'function' : 'model',
    calls,
    usage: plainUsage(usage),
    ...(costUsd !== undefined ? { costUsd } : {}),
    messages: { before: before.messages, after: after.length + extra.length },
    tokens: { before: before.tokens, after: estimateAll(after) + estimateAll(extra) },
    nodeId: agent.nodeId,
  });
  return after;
}

/** The step-like name the summary calls of an agent are made and recorded under. */
export function compactStepName(run: RunFrame, agent: AgentFrame): string {
  return [...run.prefix, `${agent.name}@compact`].join(':');
}

/** Writes the summary of `plan.dropped`: one call per transcript chunk, each given the summary so far. */
async function summaryOf(
  step: StepAboutToStart,
  compact: CompactOptions,
  plan: CompactionPlan,
): Promise<{
  summary: string;
  calls: number;
  usage: LanguageModelUsage;
  costUsd: number | undefined;
}> {
  const { agent } = step;
  const lines = transcriptOf(plan.dropped);
  const summarize = compact.summarize;
  if (typeof summarize === 'function') {
    const dropped = plan.dropped;
    const model = functionModel('summarize', async () => {
      let text: unknown;
      try {
        text = await summarize(dropped);
      } catch (error) {
        if (JuneError.isInstance(error)) throw error;
        throw new WorkflowError(
          'compact-summarize-failed',
          `june: the summarize function of ${agent.notation}'s compact threw: ${errorMessage(error)}`,
          { cause: error },
        );
      }
      if (typeof text !== 'string')
        throw new WorkflowError(
          'compact-summary-invalid',
          `june: the summarize function of ${agent.notation}'s compact returned ${text === null ? 'null' : typeof text}; it must return the summary as a string (or a promise of one).`,
        );
      return text;
    });
    const { text, usage } = await summaryCall(step, compact, model, lines.join('\n'));
    return { summary: text, calls: 1, usage, costUsd: undefined };
  }
  const props = agent.element.props as AgentProps;
  const model = step.services.settings.model ?? compact.model ?? props.model;
  const chunks = transcriptChunks(
    lines,
    compact.maxTokens !== undefined ? Math.max(1, Math.floor(compact.maxTokens / 2)) : undefined,
  );
  let summary: string | undefined;
  let usage = emptyUsage();
  let costUsd: number | undefined;
  for (const chunk of chunks) {
    const prompt =
      summary === undefined
        ? `Transcript:\n${chunk}`
        : `Summary so far:\n${summary}\n\nThe transcript goes on:\n${chunk}`;
    const answer = await summaryCall(step, compact, model, prompt);
    summary = answer.text;
    usage = sumUsage(usage, answer.usage);
    if (answer.costUsd !== undefined) costUsd = (costUsd ?? 0) + answer.costUsd;
  }
  return { summary: summary ?? '', calls: chunks.length, usage, costUsd };
}

/** One summary call, recorded by the durable engine under the agent's compact name when there is one. */
async function summaryCall(
  step: StepAboutToStart,
  compact: CompactOptions,
  model: LanguageModel,
  prompt: string,
): Promise<{ text: string; usage: LanguageModelUsage; costUsd: number | undefined }> {
  const { run, services, agent } = step;
  const name = compactStepName(run, agent);
  const durable = services.engine.durable;
  const props = agent.element.props as AgentProps;
  const isFunction = typeof compact.summarize === 'function';
  const price = isFunction ? undefined : modelPrice(modelIdentity(model), services.settings.prices);
  const called = durable ? durable.model(model, { step: name, calls: run.calls }, price) : model;
  try {
    const result = await generateText({
      model: called,
      system: compact.instructions ?? SUMMARY_INSTRUCTIONS,
      prompt,
      providerOptions: {
        ...(isFunction ? {} : props.providerOptions),
        june: { ...(props.providerOptions?.june ?? {}), step: name },
      },
      abortSignal: run.signal,
      maxRetries: isFunction ? 0 : (props.maxRetries ?? 2),
    });
    // a replayed call costs what it cost when it was made
    const costUsd = isFunction
      ? undefined
      : callCost(result.usage, recordedPrice(result.providerMetadata) ?? price);
    return { text: result.text, usage: result.usage, costUsd };
  } catch (error) {
    if (run.signal.aborted) throw new RunAbortedError(run.signal.reason);
    throw modelFailure(error, name);
  }
}
