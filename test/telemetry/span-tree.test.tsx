import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { run, type Trace } from 'june';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  driveIncident,
  Incident,
  incidentModel,
  memoryTracing,
  spansByNode,
  traceNodes,
} from './support.js';

/** Runs the incident workflow to its abort, exporting to an in-memory exporter. */
async function exportedIncident(
  telemetry?: { recordInputs?: boolean; recordOutputs?: boolean },
  stream = true,
) {
  const { exporter, provider, tracer } = memoryTracing();
  const model = incidentModel();
  const handle = run(<Incident model={model} />, {
    model,
    tracer,
    stream,
    ...(telemetry ? { telemetry } : {}),
    onApproval: (request) => (request.tool === 'deploy' ? true : undefined),
  });
  await driveIncident(handle);
  const error = await handle.result.then(
    () => expect.fail('the run should be aborted'),
    (e: { trace: Trace }) => e,
  );
  await provider.forceFlush();
  return { trace: error.trace, spans: exporter.getFinishedSpans() };
}

const attr = (span: ReadableSpan, key: string) => span.attributes[key];

describe('a run exported to an in-memory exporter', () => {
  let trace: Trace;
  let spans: ReadableSpan[];
  let byNode: ReturnType<typeof spansByNode>;
  const spanOf = (kind: string, name: string, nth = 0) => {
    const node = traceNodes(trace).filter(({ node }) => node.kind === kind && node.name === name)[
      nth
    ]?.node;
    if (!node) throw new Error(`no ${kind} node "${name}" in the trace`);
    return byNode.get(node.id)!.span;
  };
  beforeAll(async () => {
    ({ trace, spans } = await exportedIncident());
    byNode = spansByNode(spans);
  });

  test('one span per trace node, child runs included, each under its node’s parent, in one trace', () => {
    const nodes = traceNodes(trace);
    expect(spans).toHaveLength(nodes.length);
    for (const { node, parentId } of nodes) {
      const found = byNode.get(node.id);
      expect(found, `the span of ${node.kind} "${node.name}"`).toBeDefined();
      expect(found!.parentNode).toBe(parentId);
      expect(attr(found!.span, 'june.node.kind')).toBe(node.kind);
      expect(attr(found!.span, 'june.status')).toBe(node.status);
      expect(attr(found!.span, 'june.run.id')).toBe(trace.runId);
    }
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(spans.filter((span) => span.parentSpanContext === undefined)).toHaveLength(1);
  });

  test('names follow the GenAI conventions; a composite tool three levels down nests under each call', () => {
    const chain: string[] = [];
    let id: string | undefined = traceNodes(trace).find(({ node }) => node.name === 'lookup')!.node
      .id;
    while (id !== undefined) {
      const entry: { span: ReadableSpan; parentNode?: string } = byNode.get(id)!;
      chain.push(entry.span.name);
      id = entry.parentNode;
    }
    expect(chain).toEqual([
      'execute_tool lookup',
      'step investigate:dig:probe:probe',
      'invoke_agent prober',
      'run probe',
      'execute_tool probe',
      'step investigate:dig:dig',
      'invoke_agent digger',
      'run dig',
      'execute_tool dig',
      'step investigate:investigate',
      'invoke_agent investigator',
      'run investigate',
      'execute_tool investigate',
      'step investigation',
      'invoke_agent lead',
      'run Incident',
    ]);
    const probe = spanOf('run', 'probe');
    expect(attr(probe, 'june.run.parent_tool_call.id')).toBe('c-probe');
    expect(attr(spanOf('agent', 'prober'), 'gen_ai.operation.name')).toBe('invoke_agent');
    expect(attr(spanOf('agent', 'prober'), 'gen_ai.agent.name')).toBe('prober');
  });

  test('model calls are chat spans with the model and token usage', () => {
    const probeStep = traceNodes(trace).find(
      ({ node }) => node.kind === 'step' && node.name === 'probe',
    )!.node;
    const models = probeStep.children.filter((node) => node.kind === 'model');
    const last = byNode.get(models.at(-1)!.id)!.span;
    expect(last.name).toBe('chat incident-model');
    expect(last.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'incident-model',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(attr(byNode.get(probeStep.id)!.span, 'june.step.path')).toBe(
      'investigate:dig:probe:probe',
    );
  });

  test('tool calls carry their id and provenance; approvals are span events saying who answered', () => {
    const deploy = spanOf('tool', 'deploy');
    expect(deploy.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'deploy',
      'gen_ai.tool.call.id': 'c-deploy',
      'june.tool.source': '<Tool name="deploy"> in <RequireApproval>',
    });
    expect(deploy.status.code).toBe(SpanStatusCode.UNSET);
    expect(deploy.events.map((event) => [event.name, event.attributes])).toEqual([
      ['june.approval.request', { 'june.approval.id': expect.any(String) }],
      [
        'june.approval.response',
        {
          'june.approval.id': expect.any(String),
          'june.approval.approved': true,
          'june.approval.answered_by': 'policy',
          'june.approval.source': 'policy',
          'june.approval.answered_at': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    ]);
    const wipe = spanOf('tool', 'wipe');
    expect(attr(wipe, 'june.status')).toBe('denied');
    expect(wipe.status.code).toBe(SpanStatusCode.UNSET);
    expect(wipe.events.at(-1)!.attributes).toMatchObject({
      'june.approval.approved': false,
      'june.approval.reason': 'not in production',
      'june.approval.answered_by': 'person',
    });
  });

  test('a failed tool, a retried <Catch> and an abort are errors with their type', () => {
    const flaky = spanOf('tool', 'flaky');
    expect(flaky.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' });
    expect(attr(flaky, 'error.type')).toBe('Error');
    expect(spanOf('step', 'triage', 1).status.code).toBe(SpanStatusCode.UNSET);

    const first = spanOf('catch', 'attempt 1');
    const second = spanOf('catch', 'attempt 2');
    expect(first.name).toBe('catch attempt 1');
    expect(attr(first, 'june.catch.attempt')).toBe(1);
    expect(first.status.code).toBe(SpanStatusCode.ERROR);
    expect(attr(first, 'error.type')).toBe(trace.root.children[0]!.children[1]!.error!.code);
    expect(attr(second, 'june.catch.attempt')).toBe(2);
    expect(second.status.code).toBe(SpanStatusCode.UNSET);

    for (const [kind, name] of [
      ['tool', 'watch'],
      ['step', 'watch'],
      ['agent', 'lead'],
      ['run', 'Incident'],
    ] as const) {
      const span = spanOf(kind, name);
      expect(span.status.code, `${kind} ${name}`).toBe(SpanStatusCode.ERROR);
      expect(attr(span, 'june.status')).toBe('aborted');
    }
    expect(attr(spanOf('run', 'Incident'), 'error.type')).toBe('run-aborted');
  });

  test('spans start and end with their nodes', () => {
    for (const { node } of traceNodes(trace)) {
      const span = byNode.get(node.id)!.span;
      const ms = (time: [number, number]) => time[0] * 1000 + Math.floor(time[1] / 1e6);
      expect(ms(span.startTime)).toBe(Date.parse(node.startedAt));
      expect(ms(span.endTime)).toBe(Date.parse(node.endedAt!));
    }
  });

  test('no content without recordInputs / recordOutputs', () => {
    const keys = new Set(spans.flatMap((span) => Object.keys(span.attributes)));
    for (const key of [
      'june.step.prompt',
      'june.step.result',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ])
      expect(keys).not.toContain(key);
  });
});

test('recordInputs and recordOutputs put prompts, results, tool inputs and outputs on the spans', async () => {
  const { trace, spans } = await exportedIncident({ recordInputs: true, recordOutputs: true });
  const byNode = spansByNode(spans);
  const find = (kind: string, name: string) =>
    byNode.get(
      traceNodes(trace).find(({ node }) => node.kind === kind && node.name === name)!.node.id,
    )!.span;
  expect(find('step', 'probe').attributes).toMatchObject({
    'june.step.prompt': 'Probe outage',
    'june.step.result': 'The disk is full.',
  });
  expect(find('tool', 'lookup').attributes).toMatchObject({
    'gen_ai.tool.call.arguments': '{"key":"disk"}',
    'gen_ai.tool.call.result': 'value of disk',
  });
  // a composite call's result is what its model saw, not its child trace
  expect(find('tool', 'probe').attributes['gen_ai.tool.call.result']).toBe('The disk is full.');
  expect(find('tool', 'dig').attributes['gen_ai.tool.call.result']).toBe('Probed: a full disk.');
});

test('in batch mode (stream: false), the same tree', async () => {
  const { trace, spans } = await exportedIncident(undefined, false);
  const byNode = spansByNode(spans);
  const nodes = traceNodes(trace);
  expect(spans).toHaveLength(nodes.length);
  for (const { node, parentId } of nodes) expect(byNode.get(node.id)?.parentNode).toBe(parentId);
});
