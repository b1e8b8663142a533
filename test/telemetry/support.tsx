// The telemetry tests' workflow and readers: one run with a composite tool three levels
// down, an approval answered by a policy, a call a person denies, a tool that fails, a
// <Catch> retry and an abort, answered by a scripted model; and helpers that read exported
// spans as a tree to compare with June's own trace.
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { tool } from 'ai';
import {
  Agent,
  Catch,
  RequireApproval,
  Step,
  Tool,
  type JuneNode,
  type RunHandle,
  type Trace,
  type TraceNode,
} from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { z } from 'zod';

const topic = z.object({ topic: z.string() });

/** The tools of the workflow: `lookup` answers, `deploy` and `wipe` need approval, `flaky` throws, `watch` waits for the abort. */
export const tools = {
  lookup: tool({
    description: 'Look up a key',
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }) => `value of ${key}`,
  }),
  deploy: tool({
    description: 'Deploy a build',
    inputSchema: z.object({ env: z.string() }),
    execute: async ({ env }) => `deployed to ${env}`,
  }),
  wipe: tool({
    description: 'Wipe a database',
    inputSchema: z.object({ db: z.string() }),
    execute: async () => 'wiped',
  }),
  flaky: tool({
    description: 'A tool that fails',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error('disk full');
    },
  }),
  watch: tool({
    description: 'Watch until stopped',
    inputSchema: z.object({}),
    execute: (_input, { abortSignal }) =>
      new Promise<string>((_resolve, reject) => {
        if (abortSignal?.aborted) return reject(abortSignal.reason);
        abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
      }),
  }),
};

/** The model turns by step path. */
export function incidentScript(): Record<string, ScriptTurn[]> {
  return {
    investigation: [
      { toolCalls: [{ tool: 'investigate', input: { topic: 'outage' }, id: 'c-investigate' }] },
      { text: 'The outage came from a full disk.', usage: { inputTokens: 40, outputTokens: 8 } },
    ],
    'investigate:investigate': [
      { toolCalls: [{ tool: 'dig', input: { topic: 'outage' }, id: 'c-dig' }] },
      { text: 'Dug: a full disk.' },
    ],
    'investigate:dig:dig': [
      { toolCalls: [{ tool: 'probe', input: { topic: 'outage' }, id: 'c-probe' }] },
      { text: 'Probed: a full disk.' },
    ],
    'investigate:dig:probe:probe': [
      { toolCalls: [{ tool: 'lookup', input: { key: 'disk' }, id: 'c-lookup' }] },
      { text: 'The disk is full.', usage: { inputTokens: 12, outputTokens: 5 } },
    ],
    triage: [
      { error: 'the model is overloaded' },
      {
        toolCalls: [
          { tool: 'deploy', input: { env: 'staging' }, id: 'c-deploy' },
          { tool: 'wipe', input: { db: 'prod' }, id: 'c-wipe' },
          { tool: 'flaky', input: {}, id: 'c-flaky' },
        ],
      },
      { text: 'Deployed; wiping was refused; flaky failed.' },
    ],
    watch: [{ toolCalls: [{ tool: 'watch', input: {}, id: 'c-watch' }] }],
  };
}

/** A scripted model for {@link incidentScript} (or the turns given). */
export function incidentModel(steps: Record<string, ScriptTurn[]> = incidentScript()) {
  return scriptedModel(
    { $comment: 'Test fixture: scripted turns for test/telemetry', steps },
    { name: 'incident-model' },
  );
}

/** A composite tool `name` whose child run has one agent `name` with `children` and one step `name`. */
function composite(name: string, inner: (topic: string) => JuneNode) {
  return (
    <Tool name={name} description={`The ${name} workflow`} input={topic}>
      {({ topic }: { topic: string }) => inner(topic)}
    </Tool>
  );
}

/** The workflow: a composite three levels down, approvals, a failing tool, a retried step, an abort. */
export function Incident({ model }: { model: ReturnType<typeof incidentModel> }) {
  return (
    <Agent model={model} name="lead">
      {composite('investigate', (t) => (
        <Agent model={model} name="investigator">
          {composite('dig', (t2) => (
            <Agent model={model} name="digger">
              {composite('probe', (t3) => (
                <Agent model={model} name="prober">
                  <Tool name="lookup" value={tools.lookup} />
                  <Step id="probe" prompt={`Probe ${t3}`} />
                </Agent>
              ))}
              <Step id="dig" prompt={`Dig into ${t2}`} />
            </Agent>
          ))}
          <Step id="investigate" prompt={`Investigate ${t}`} />
        </Agent>
      ))}
      <RequireApproval>
        <Tool name="deploy" value={tools.deploy} />
        <Tool name="wipe" value={tools.wipe} />
      </RequireApproval>
      <Tool name="flaky" value={tools.flaky} />
      <Tool name="watch" value={tools.watch} />
      <Step id="investigation" prompt="Investigate the outage" />
      <Catch retries={1}>
        <Step id="triage" prompt="Triage it" />
      </Catch>
      <Step id="watch" prompt="Watch the fix" />
    </Agent>
  );
}

/** Answers the run as the tests expect: `wipe` denied by a person, the run aborted once `watch` runs. */
export async function driveIncident(handle: RunHandle): Promise<void> {
  for await (const event of handle.events) {
    if (event.type === 'approval-request' && event.request.tool === 'wipe')
      handle.deny(event.request.id, 'not in production');
    if (event.type === 'tool-call' && event.tool === 'watch') handle.abort('operator stopped');
  }
}

/** An SDK tracer provider with an in-memory exporter (spans exported as each ends). */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { exporter, provider, tracer: provider.getTracer('test') };
}

/** Every node of a trace, child runs of composite tools included, with its parent's id. */
export function traceNodes(trace: Trace): Array<{ node: TraceNode; parentId?: string }> {
  const out: Array<{ node: TraceNode; parentId?: string }> = [];
  const visit = (node: TraceNode, parentId?: string) => {
    out.push({ node, ...(parentId !== undefined ? { parentId } : {}) });
    for (const child of childrenOf(node)) visit(child, node.id);
  };
  visit(trace.root);
  return out;
}

/** A node's children, and for a composite tool call, the root of its child run. */
export function childrenOf(node: TraceNode): TraceNode[] {
  const child = (node.output as { trace?: Trace } | undefined)?.trace?.root;
  return child && node.kind === 'tool' ? [child, ...node.children] : node.children;
}

/** The exported spans as `{ node id: [span, parent span's node id] }`. */
export function spansByNode(spans: ReadableSpan[]) {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  return new Map(
    spans.map((span) => {
      const parent = span.parentSpanContext && byId.get(span.parentSpanContext.spanId);
      return [
        span.attributes['june.node.id'] as string,
        { span, parentNode: parent?.attributes['june.node.id'] as string | undefined },
      ];
    }),
  );
}
