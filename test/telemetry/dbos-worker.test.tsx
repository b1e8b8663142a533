// A june/dbos worker in this process, with a tracer provider registered: the runs it takes
// from the queue export their spans, each with the run's id (the DBOS workflow id).
import { trace } from '@opentelemetry/api';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { RunClient, startWorker, type JuneWorker } from 'june/dbos';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { memoryTracing } from './support.js';

const lookup = tool({
  description: 'Look up a key',
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }) => `value of ${key}`,
});

/** One step that calls `lookup`; the model comes with the run, as a script. */
function Lookup() {
  return (
    <Agent model="unused" name="finder">
      <Tool name="lookup" value={lookup} />
      <Step id="find" prompt="Find the disk" />
    </Agent>
  );
}

const script = {
  steps: {
    find: [{ toolCalls: [{ tool: 'lookup', input: { key: 'disk' } }] }, { text: 'Found it.' }],
  },
};

const missing = postgresMissing();

describe.runIf(!missing)('a june/dbos worker with a tracer provider', () => {
  let postgres: TestPostgres;
  let worker: JuneWorker;
  let client: RunClient;
  const tracing = memoryTracing();
  beforeAll(async () => {
    postgres = await startPostgres();
    trace.setGlobalTracerProvider(tracing.provider);
    const database = postgres.url('june_otel');
    worker = await startWorker({
      database,
      workflows: { lookup: { component: Lookup } },
      executorId: 'otel-worker',
      logLevel: 'error',
    });
    client = await RunClient.connect(database);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
    trace.disable();
    await postgres?.stop();
  });

  test('exports every run’s spans, each with june.run.id = the run id', async () => {
    const runIds = [
      await client.enqueue({ workflow: 'lookup', script }),
      await client.enqueue({ workflow: 'lookup', script }),
    ];
    for (const runId of runIds) await client.result(runId);
    const spans = tracing.exporter
      .getFinishedSpans()
      .filter((span) => span.instrumentationScope.name === 'june');
    for (const runId of runIds) {
      const own = spans.filter((span) => span.attributes['june.run.id'] === runId);
      expect(own.map((span) => span.name)).toContain('run lookup');
      expect(own.map((span) => span.name)).toContain('execute_tool lookup');
      expect(new Set(own.map((span) => span.spanContext().traceId)).size).toBe(1);
    }
    expect(spans.every((span) => runIds.includes(span.attributes['june.run.id'] as string))).toBe(
      true,
    );
  }, 120_000);
});

describe.runIf(missing)('a june/dbos worker with a tracer provider', () => {
  test('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
