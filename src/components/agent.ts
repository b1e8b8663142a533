import type {
  CallSettings,
  LanguageModel,
  ModelMessage,
  Output,
  StopCondition,
  TelemetryOptions,
  ToolSet,
} from 'ai';
import type { Tracer } from '@opentelemetry/api';
import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';
import type { CompactOptions } from './compact-options.js';

/**
 * An agent's setting for the AI SDK's own OpenTelemetry spans: the AI SDK's telemetry
 * options, plus the `tracer` they go to (without one, the registered tracer provider's).
 */
export type SdkTelemetrySetting = TelemetryOptions & { tracer?: Tracer };

/**
 * Props of {@link Agent}. Besides June's own, every AI SDK call setting
 * (`temperature`, `maxOutputTokens`, `topP`, `seed`, `maxRetries`, `headers`, ...) is
 * passed through to each model call of the agent's steps.
 */
export interface AgentProps extends Omit<CallSettings, 'abortSignal'> {
  /** The AI SDK language model its steps call. Required. */
  model: LanguageModel;
  /** A name for traces, events and Studio. @default "agent" */
  name?: string;
  /** The system prompt of every step of this agent. */
  instructions?: string;
  /**
   * An AI SDK `ToolSet` added to the agent's scope, beside its declared capabilities. The
   * same rules apply: a name appears once, and nothing here is inherited into nested agents.
   */
  tools?: ToolSet;
  /** When a step's tool loop stops. @default stepCountIs(20) (the AI SDK's agent default) */
  stopWhen?: StopCondition<any> | Array<StopCondition<any>>;
  /** A default AI SDK `Output` for steps that set none (e.g. `Output.object({ schema })`). */
  output?: Output.Output<any, any>;
  /** The conversation the agent starts from. Nothing of a parent agent's conversation crosses. @default [] */
  messages?: ModelMessage[];
  /**
   * Bounds the conversation: when it passes `maxMessages` or `maxTokens`, its older messages
   * are replaced by a summary before the next step (see {@link CompactOptions}). @default off
   */
  compact?: CompactOptions;
  /** Provider-specific options passed to every model call (e.g. `{ openai: { store: false } }`). */
  providerOptions?: Record<string, Record<string, any>>;
  /**
   * The AI SDK's own OpenTelemetry spans for this agent's model calls (`ai.streamText`,
   * `ai.toolCall`...), e.g. `{ isEnabled: true, functionId: 'release' }`, with an optional
   * `tracer`. AI SDK 7 makes them through `@ai-sdk/otel` (install it); June passes its
   * `LegacyOpenTelemetry`, which keeps these names, with a tracer that redacts what the spans
   * record as the run's records are. When the run exports spans, they nest under the step's
   * span. Integrations of your own (`integrations`, or registered with `registerTelemetry`
   * for an agent without this setting) are refused with `sdk-telemetry-unredactable`: June
   * cannot redact what they get. See docs/observability.md.
   * @default off
   */
  experimental_telemetry?: SdkTelemetrySetting;
  /** Capabilities (`<Tool>`, bundles, wrappers, `<Inherit>`), then `<Step>`s and anything else. */
  children?: JuneNode;
}

/**
 * An agent: a model, its capabilities, and the steps that use them.
 *
 * When it renders, it first resolves the capabilities among its own children into one AI
 * SDK `ToolSet` (before any step runs), then evaluates its other children in order. Its
 * steps share one conversation. A nested `<Agent>` starts with no capabilities and an empty
 * conversation: only what it declares, or names in `<Inherit>`, is available to it.
 *
 * @throws {WorkflowError} `agent-model-missing` when `model` is not given.
 * @example
 * ```tsx
 * <Agent model={openai('gpt-5-mini')} instructions="You are terse.">
 *   <Tool name="readFile" value={readFile} />
 *   <Step id="summary" prompt="Summarize README.md" />
 * </Agent>
 * ```
 */
export const Agent = builtin('agent', 'Agent', (_props: AgentProps): JuneNode => null);
