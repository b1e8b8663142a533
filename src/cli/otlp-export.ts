import { context, diag, DiagLogLevel, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { SystemError } from '../errors/index.js';
import { parseTraceparent } from '../telemetry/traceparent.js';
import { otlpExportTimeoutMs, otlpTracesEndpoint } from './otlp-endpoint.js';

/** The OpenTelemetry SDK set up by `june run --otel`: flush and stop it before the process exits. */
export interface OtlpExport {
  /**
   * The context a run starts in: the span named by the `TRACEPARENT` variable (W3C trace
   * context, as a CI pipeline or a parent process passes it), so the run is its child.
   */
  parent: Context;
  /** Sends the spans still buffered and stops the exporter; a failure is a warning. Waits at most the export timeout (see `OTLP_EXPORT_TIMEOUT_MS`, 2000). */
  shutdown(): Promise<void>;
}

/** The SDK packages `--otel` loads (optional dependencies of June). */
const sdkPackages = [
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/context-async-hooks',
];

/**
 * `june run --otel`: registers an OpenTelemetry tracer provider that sends spans over
 * OTLP/HTTP (JSON), configured by the standard variables: `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (default `http://localhost:4318`),
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT` (ms, default
 * `OTLP_EXPORT_TIMEOUT_MS`, 2000: what the end of a run waits at most), `OTEL_SERVICE_NAME`
 * (default `june`) and `OTEL_RESOURCE_ATTRIBUTES`; `TRACEPARENT` names a parent span; and an `AsyncLocalStorage` context
 * manager, so spans of the AI SDK's `experimental_telemetry` nest under June's step spans.
 *
 * The SDK packages are loaded here only, never by a run without `--otel`. Spans that cannot
 * be sent are reported through `warn`, once (`spans could not be exported to <url>: ...`);
 * the run goes on.
 *
 * @throws {SystemError} `cli-otel-unavailable` when the SDK packages are not installed
 *   (June was installed without its optional dependencies).
 * @throws {WorkflowError} `cli-option-invalid` when an endpoint variable is not an http(s) URL.
 */
export async function startOtlpExport(options: {
  /** Told what went wrong when spans cannot be sent (an unreachable endpoint, a refusal). */
  warn: (message: string) => void;
}): Promise<OtlpExport> {
  const [sdk, exporter, resources, hooks] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
  ]).catch((error: unknown) => {
    throw new SystemError(
      'cli-otel-unavailable',
      `june: --otel needs the OpenTelemetry SDK packages, which are not installed: ${(error as Error).message}. Install them with: npm install ${sdkPackages.join(' ')}`,
      { cause: error },
    );
  });
  const url = otlpTracesEndpoint();
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'june' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.TracerProvider({
    resource,
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new exporter.OTLPTraceExporter({ url, timeoutMillis: otlpExportTimeoutMs() }),
      }),
    ],
  });
  // one line for a collector that cannot be reached, however many batches fail
  let warned = false;
  const warn = (reason: unknown) => {
    if (warned) return;
    warned = true;
    options.warn(`spans could not be exported to ${url}: ${reasonText(reason)}`);
  };
  diag.setLogger(
    { error: warn, warn: () => {}, info: () => {}, debug: () => {}, verbose: () => {} },
    DiagLogLevel.ERROR,
  );
  const contextManager = new hooks.AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  return {
    parent: parentFromEnv(process.env.TRACEPARENT),
    shutdown: async () => {
      try {
        await provider.shutdown();
      } catch (error) {
        warn(error);
      } finally {
        trace.disable();
        context.disable();
        diag.disable();
      }
    },
  };
}

/** What went wrong, from an error or what the SDK logs of one (a message, or an error as JSON). */
function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  const text = String(reason);
  try {
    const logged = JSON.parse(text) as { message?: unknown };
    if (typeof logged.message === 'string') return logged.message;
  } catch {
    // not JSON: the text itself
  }
  return text;
}

/** A W3C `traceparent` value (`00-<trace id>-<span id>-<flags>`) as a remote parent; the root context for none or a malformed one. */
function parentFromEnv(traceparent: string | undefined): Context {
  const parent = parseTraceparent(traceparent);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
}
