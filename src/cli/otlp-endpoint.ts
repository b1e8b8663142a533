import { WorkflowError } from '../errors/index.js';

/**
 * How long `june run --otel` gives one export of spans, retries included, in ms, unless
 * `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` or `OTEL_EXPORTER_OTLP_TIMEOUT` says otherwise. The
 * spans still buffered go at the end of the run, so with no collector listening the process
 * ends at most this much later (the SDK's own default, 10 000 ms, is long for a command).
 */
export const OTLP_EXPORT_TIMEOUT_MS = 2000;

/** The OTLP/HTTP traces path a base `OTEL_EXPORTER_OTLP_ENDPOINT` gets, as the SDK appends it. */
const TRACES_PATH = 'v1/traces';

/**
 * The URL `june run --otel` sends spans to, read from the environment as the OpenTelemetry
 * SDK reads it: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT`
 * with `/v1/traces` appended, else `http://localhost:4318/v1/traces`.
 *
 * @throws {WorkflowError} `cli-option-invalid` when the variable set is not an http(s) URL
 *   (the SDK would quietly send to its default instead).
 */
export function otlpTracesEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return checkedUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', specific);
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return `http://localhost:4318/${TRACES_PATH}`;
  checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base);
  return `${base.endsWith('/') ? base : `${base}/`}${TRACES_PATH}`;
}

/**
 * The time one export may take, in ms: `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, else
 * `OTEL_EXPORTER_OTLP_TIMEOUT` (a positive number of ms), else {@link OTLP_EXPORT_TIMEOUT_MS}.
 */
export function otlpExportTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT']) {
    const ms = Number(env[name]?.trim() || NaN);
    if (Number.isFinite(ms) && ms > 0) return ms;
  }
  return OTLP_EXPORT_TIMEOUT_MS;
}

function checkedUrl(variable: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --otel: ${variable} is ${JSON.stringify(value)}, not an http(s) URL; set it to your collector's OTLP/HTTP address, e.g. http://localhost:4318, or unset it.`,
    );
  return value;
}
