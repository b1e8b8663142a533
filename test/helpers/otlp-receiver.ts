// An OTLP/HTTP trace receiver on 127.0.0.1 for tests: takes `POST /v1/traces` with a JSON
// body (what @opentelemetry/exporter-trace-otlp-http sends), answers 200, and decodes every
// span with its resource's attributes, as a collector would see them.
//
//   const receiver = await otlpReceiver();
//   ... export to receiver.url ...
//   receiver.spans   // [{ name, traceId, spanId, parentSpanId, attributes, events, status, resource }]
//   await receiver.close();
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute value as OTLP/JSON encodes it. */
type OtlpValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

/** One span as the receiver decoded it. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  status: { code?: number; message?: string };
  /** The attributes of the span's resource (`service.name`...). */
  resource: Record<string, unknown>;
  /** The instrumentation scope's name (`june` for June's spans, `ai` for the AI SDK's). */
  scope: string;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT` (`http://127.0.0.1:<port>`). */
  url: string;
  spans: ReceivedSpan[];
  /** Each request's headers and raw body text, in order. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function otlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      spans.push(...decodeSpans(JSON.parse(body)));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function decodeSpans(body: {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: any[] }>;
  }>;
}): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span): ReceivedSpan => ({
        name: span.name,
        traceId: span.traceId,
        spanId: span.spanId,
        ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
        startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
        endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map(
          (event: { name: string; attributes?: OtlpAttribute[] }) => ({
            name: event.name,
            attributes: attributesOf(event.attributes),
          }),
        ),
        status: span.status ?? {},
        resource,
        scope: scopeSpans.scope?.name ?? '',
      })),
    );
  });
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
