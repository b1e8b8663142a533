import type { LanguageModel, ModelMessage } from 'ai';

/**
 * `<Agent compact={...}>`: when the conversation a step starts from (the agent's messages and
 * the step's prompt) passes a bound, its older messages are replaced by one summary
 * message before the step calls its model. Give `maxMessages`, `maxTokens` or both.
 *
 * @example
 * ```tsx
 * <Agent model={model} compact={{ maxMessages: 40 }}>...</Agent>
 * <Agent model={model} compact={{ maxTokens: 60_000, keep: 12, summarize: (messages) => digest(messages) }}>...</Agent>
 * ```
 */
export interface CompactOptions {
  /** Compact when the conversation would hold more messages than this (the step's prompt counted). At least 3. */
  maxMessages?: number;
  /**
   * Compact when the conversation's estimated tokens would pass this (the step's prompt
   * counted). Estimated without a tokenizer, the same for every provider: one token per four
   * characters of a message's text, of its tool inputs and outputs as JSON, and 1,000 tokens
   * per image or file. Instructions and tool definitions are not counted.
   */
  maxTokens?: number;
  /**
   * How many of the most recent messages stay as they are. Default: half of `maxMessages`;
   * with `maxTokens` only, the recent messages that fit in half of it. A tool call and its
   * result are never split: the cut moves to the nearest step or turn boundary.
   */
  keep?: number;
  /**
   * What writes the summary: `'model'` (the default) asks `model` (else the agent's model)
   * for one, a model call recorded like a step's under `<agent name>@compact`; a function is
   * given the messages it replaces and returns the summary's text, recorded the same way, so
   * a resume or a replay gives it back without calling the function again.
   */
  summarize?: 'model' | ((messages: ModelMessage[]) => string | Promise<string>);
  /** The model that writes summaries. Default: the agent's model (or the run's `model` option). */
  model?: LanguageModel;
  /** What the summarizing model is told to do, instead of June's own instructions. */
  instructions?: string;
}
