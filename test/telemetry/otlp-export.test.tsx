import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { run, type Trace } from 'june';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { june, onlyTrace, repoRoot, tempProject, traces } from '../cli/cli-harness.js';
import { otlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { driveIncident, Incident, incidentModel, traceNodes } from './support.js';

/** Checks that the received spans are the trace, node for node: one span each, under its parent's. */
function expectTraceShape(spans: ReceivedSpan[], trace: Trace): void {
  const bySpanId = new Map(spans.map((span) => [span.spanId, span]));
  const byNode = new Map(spans.map((span) => [span.attributes['june.node.id'], span]));
  const nodes = traceNodes(trace);
  expect(spans).toHaveLength(nodes.length);
  for (const { node, parentId } of nodes) {
    const span = byNode.get(node.id);
    expect(span, `the span of ${node.kind} "${node.name}"`).toBeDefined();
    const parent = span!.parentSpanId ? bySpanId.get(span!.parentSpanId) : undefined;
    expect(parent?.attributes['june.node.id']).toBe(parentId);
    expect(span!.attributes['june.status']).toBe(node.status);
  }
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
}

describe('OTLP/HTTP export to a receiver', () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await otlpReceiver();
  });
  afterEach(() => receiver.close());

  test('run(el, { tracer }) with the OTLP/HTTP exporter: the receiver decodes the whole tree', async () => {
    const provider = new TracerProvider({
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }),
        }),
      ],
    });
    const model = incidentModel();
    const handle = run(<Incident model={model} />, {
      model,
      tracer: provider.getTracer('test'),
      onApproval: (request) => (request.tool === 'deploy' ? true : undefined),
    });
    await driveIncident(handle);
    const { trace } = await handle.result.catch((error: { trace: Trace }) => error);
    await provider.shutdown();

    expect(receiver.requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(
      true,
    );
    expectTraceShape(receiver.spans, trace);
    const wipe = receiver.spans.find((span) => span.name === 'execute_tool wipe')!;
    expect(wipe.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'c-wipe',
      'june.status': 'denied',
    });
    expect(wipe.events.map((event) => event.name)).toEqual([
      'june.approval.request',
      'june.approval.response',
    ]);
    expect(wipe.events[1]!.attributes).toMatchObject({
      'june.approval.approved': false,
      'june.approval.answered_by': 'person',
    });
    const root = receiver.spans.find((span) => span.parentSpanId === undefined)!;
    expect(root.name).toBe('run Incident');
    expect(root.status.code).toBe(2); // ERROR
    expect(root.attributes['error.type']).toBe('run-aborted');
  });

  test('june run --otel sends the run to OTEL_EXPORTER_OTLP_ENDPOINT as OTEL_SERVICE_NAME, under TRACEPARENT', async () => {
    const [traceId, parentId] = ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'];
    const project = tempProject();
    try {
      const result = await june(
        [
          'run',
          join(repoRoot, 'examples', 'release.tsx'),
          '--script',
          join(repoRoot, 'examples', 'release.script.json'),
          '--approve',
          'all',
          '--otel',
        ],
        project.dir,
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_SERVICE_NAME: 'release-bot',
          TRACEPARENT: `00-${traceId}-${parentId}-01`,
        },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const trace = onlyTrace(project.dir);
      expectTraceShape(receiver.spans, trace);
      expect(receiver.requests.map((r) => r.path)).toContain('/v1/traces');
      const root = receiver.spans.find((span) => span.parentSpanId === parentId)!;
      expect(root.name).toBe('run release.tsx');
      expect(root.traceId).toBe(traceId);
      expect(root.resource['service.name']).toBe('release-bot');
      expect(root.scope).toBe('june');
      const deploy = receiver.spans.find((span) => span.name === 'execute_tool deploy')!;
      expect(deploy.events.at(-1)).toEqual({
        name: 'june.approval.response',
        attributes: expect.objectContaining({
          'june.approval.approved': true,
          'june.approval.answered_by': 'policy',
        }),
      });
      expect(receiver.spans.some((span) => span.name.startsWith('chat '))).toBe(true);
    } finally {
      project.remove();
    }
  });

  test('june run --otel with no collector listening: the run still succeeds and exits, with one warning naming the endpoint', async () => {
    const project = tempProject();
    const closed = await otlpReceiver();
    await closed.close(); // a port nothing listens on
    try {
      const result = await june(
        [
          'run',
          join(repoRoot, 'examples', 'release.tsx'),
          '--script',
          join(repoRoot, 'examples', 'release.script.json'),
          '--approve',
          'all',
          '--otel',
        ],
        project.dir,
        // no OTEL_EXPORTER_OTLP_TIMEOUT: june's own short bound on the last export applies
        { OTEL_EXPORTER_OTLP_ENDPOINT: closed.url },
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('✓ succeeded');
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        `june: warning: OpenTelemetry: spans could not be exported to ${closed.url}/v1/traces: `,
      );
    } finally {
      project.remove();
    }
  });
});

describe('june run --otel with an endpoint that is not a URL', () => {
  test.each(['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'])(
    '%s="not a url": exits 2 with one june: line saying what to set, before the run starts',
    async (variable) => {
      const project = tempProject();
      try {
        const result = await june(
          ['run', join(repoRoot, 'examples', 'release.tsx'), '--approve', 'all', '--otel'],
          project.dir,
          { [variable]: 'not a url' },
        );
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          `june: --otel: ${variable} is "not a url", not an http(s) URL; set it to your collector's OTLP/HTTP address, e.g. http://localhost:4318, or unset it.\n`,
        );
        expect(traces(project.dir).size).toBe(0);
      } finally {
        project.remove();
      }
    },
  );

  test('is reported before the workflow loads: a workflow that is not there yet is not the error', async () => {
    const project = tempProject();
    try {
      const result = await june(['run', 'flow-not-written-yet.tsx', '--otel'], project.dir, {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318',
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `june: --otel: OTEL_EXPORTER_OTLP_ENDPOINT is "localhost:4318", not an http(s) URL; set it to your collector's OTLP/HTTP address, e.g. http://localhost:4318, or unset it.\n`,
      );
    } finally {
      project.remove();
    }
  });
});
