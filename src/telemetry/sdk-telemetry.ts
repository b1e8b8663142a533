import type { Tracer } from '@opentelemetry/api';
import type { Telemetry, TelemetryOptions } from 'ai';
import type { SdkTelemetrySetting } from '../components/agent.js';
import { SystemError } from '../errors/june-error.js';

type OtelModule = { LegacyOpenTelemetry: new (options?: { tracer?: Tracer }) => Telemetry };
let loading: Promise<OtelModule | undefined> | undefined;

/**
 * The AI SDK 7 `telemetry` option for an agent's `experimental_telemetry` setting. AI SDK 7
 * makes no spans itself: they come from an integration, and `@ai-sdk/otel`'s
 * `LegacyOpenTelemetry` makes the span names AI SDK 6 made, so June's documented tree stays:
 * `step <path>` → `ai.streamText` → `ai.streamText.doStream`, `ai.toolCall`. A setting that
 * turns telemetry off, or brings its own `integrations`, is passed on as it is (without
 * `tracer`). `@ai-sdk/otel` is an optional dependency, loaded only here.
 *
 * @param shown - the agent, for the message.
 * @throws {SystemError} `sdk-telemetry-unavailable` when the setting turns the spans on and
 *   `@ai-sdk/otel` is not installed.
 * @example
 * ```ts
 * const telemetry = await sdkTelemetry({ isEnabled: true, functionId: 'release' }, '<Agent name="writer">');
 * ```
 */
export async function sdkTelemetry(
  setting: SdkTelemetrySetting | undefined,
  shown: string,
): Promise<TelemetryOptions | undefined> {
  if (setting === undefined) return undefined;
  const { tracer, ...options } = setting;
  if (options.isEnabled !== true || options.integrations !== undefined) return options;
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
  return {
    ...options,
    integrations: [new otel.LegacyOpenTelemetry(tracer ? { tracer } : {})],
  };
}
