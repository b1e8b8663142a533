import { trace, type Tracer } from '@opentelemetry/api';
import type { Telemetry, TelemetryOptions } from 'ai';
import type { SdkTelemetrySetting } from '../components/agent.js';
import { SystemError, WorkflowError } from '../errors/june-error.js';
import type { Redactor } from '../redaction/redactor.js';
import { redactingTracer } from './redacting-tracer.js';

type OtelModule = { LegacyOpenTelemetry: new (options?: { tracer?: Tracer }) => Telemetry };
let loading: Promise<OtelModule | undefined> | undefined;

/** The name `@ai-sdk/otel` takes the registered provider's tracer by, kept for the SDK's spans. */
const SDK_TRACER_NAME = 'ai';

/** The attributes of the SDK's spans that hold a model call's request headers (API keys). */
const isRequestHeader = (key: string) => key.startsWith('ai.request.headers.');

/**
 * The AI SDK 7 `telemetry` option for an agent's `experimental_telemetry` setting, with every
 * span the SDK records for the agent's calls passed through the run's redaction. AI SDK 7
 * makes no spans itself: they come from an integration, and `@ai-sdk/otel`'s
 * `LegacyOpenTelemetry` makes the span names AI SDK 6 made, nested under June's step span:
 * `step <path>` → `ai.streamText` → `ai.streamText.doStream` → `ai.toolCall` (AI SDK 6 put
 * `ai.toolCall` beside the model call, under `ai.streamText`). June gives that integration
 * its tracer: the setting's `tracer`, else the registered provider's (`ai`, the one the
 * integration would take), wrapped by {@link redactingTracer}, so the SDK's spans hold
 * `[redacted]` where the run's records do and `[redacted]` for every request header.
 * `@ai-sdk/otel` is an optional dependency, loaded only here.
 *
 * Integrations June does not make record what the SDK hands them, which June cannot redact,
 * so a step that would reach one is refused: the setting's own `integrations`, and, when the
 * setting neither turns June's spans on nor telemetry off, integrations registered with the
 * SDK (`registerTelemetry`), which the SDK uses for a call without integrations of its own.
 *
 * @param shown - the agent, for messages.
 * @throws {SystemError} `sdk-telemetry-unavailable` when the setting turns the spans on and
 *   `@ai-sdk/otel` is not installed.
 * @throws {WorkflowError} `sdk-telemetry-unredactable` when the step's calls would reach a
 *   telemetry integration June did not make.
 * @example
 * ```ts
 * const telemetry = await sdkTelemetry({ isEnabled: true, functionId: 'release' }, { shown: '<Agent name="writer">', redactor });
 * ```
 */
export async function sdkTelemetry(
  setting: SdkTelemetrySetting | undefined,
  { shown, redactor }: { shown: string; redactor: Redactor },
): Promise<TelemetryOptions | undefined> {
  const { tracer, ...options } = setting ?? {};
  if (options.isEnabled === false) return options;
  if (options.integrations !== undefined && [options.integrations].flat().length > 0)
    throw new WorkflowError(
      'sdk-telemetry-unredactable',
      `june: ${shown} brings its own telemetry integrations (experimental_telemetry.integrations), which get the AI SDK's events with the run's secrets in them, out of reach of the run's redaction. Leave integrations out and turn the AI SDK's spans on with experimental_telemetry: { isEnabled: true, tracer } (June makes the integration and redacts its spans), or set isEnabled: false.`,
    );
  if (options.isEnabled !== true)
    return unregistered(setting === undefined ? undefined : options, shown);
  const otel = await otelModule(shown);
  const redacting = redactingTracer(tracer ?? trace.getTracer(SDK_TRACER_NAME), {
    redactor,
    hidden: isRequestHeader,
  });
  return { ...options, integrations: [new otel.LegacyOpenTelemetry({ tracer: redacting })] };
}

/**
 * `options` for a step whose calls go to the integrations registered with the AI SDK, when
 * none is registered.
 */
function unregistered(
  options: TelemetryOptions | undefined,
  shown: string,
): TelemetryOptions | undefined {
  const registered = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? [];
  if (registered.length === 0) return options;
  throw new WorkflowError(
    'sdk-telemetry-unredactable',
    `june: ${shown} runs its model calls with ${registered.length} telemetry integration(s) registered with the AI SDK (registerTelemetry), which get the AI SDK's events with the run's secrets in them, out of reach of the run's redaction. Give the agent experimental_telemetry: { isEnabled: true } (June's redacted spans, in place of the registered integrations for its calls) or { isEnabled: false }, or register no integrations in a program that runs June.`,
  );
}

async function otelModule(shown: string): Promise<OtelModule> {
  loading ??= import('@ai-sdk/otel').then(
    (otel) => otel as unknown as OtelModule,
    () => undefined,
  );
  const otel = await loading;
  if (!otel)
    throw new SystemError(
      'sdk-telemetry-unavailable',
      `june: ${shown} turns on the AI SDK's own spans (experimental_telemetry), which AI SDK 7 makes through the package @ai-sdk/otel, and it is not installed. Install it (npm install @ai-sdk/otel), or leave experimental_telemetry out.`,
    );
  return otel;
}
