// The AI SDK's own spans (experimental_telemetry) under a June run are redacted as June's are,
// whichever way the SDK gets its tracer: the registered provider's, or the agent's own
// `experimental_telemetry.tracer`. A way June cannot redact (integrations it did not make) is
// refused before the model is called.
import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { registerTelemetry, tool, type Telemetry } from 'ai';
import { Agent, JuneError, run, Step, Tool, type SdkTelemetrySetting } from 'june';
import { scriptedModel } from 'june/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './support.js';

const secrets = {
  redact: 'redact-option-secret-4321aa',
  openaiKey: 'sk-openai-span-secret-9876bb',
  header: 'header-span-secret-5555cc',
};

// a tool that prints the provider key it finds in the environment
const env = tool({
  description: 'Print a variable',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => `${name}=${process.env[name]}`,
});

/** One step whose prompt holds the `redact` secret, whose tool prints the key and whose model echoes both. */
function Leaky({ telemetry }: { telemetry: SdkTelemetrySetting }) {
  return (
    <Agent
      model={scriptedModel(
        {
          steps: {
            check: [
              {
                text: `Checking with ${secrets.redact}.`,
                toolCalls: [{ tool: 'env', input: { name: 'OPENAI_API_KEY' }, id: 'c1' }],
              },
              { text: `The key is ${secrets.openaiKey}, the token ${secrets.redact}.` },
            ],
          },
        },
        { name: 'leaky-model' },
      )}
      name="checker"
      headers={{ 'x-api-key': secrets.header }}
      experimental_telemetry={telemetry}
    >
      <Tool name="env" value={env} />
      <Step id="check" prompt={`Check the key; the token is ${secrets.redact}`} />
    </Agent>
  );
}

/** Every attribute value, event and status message of the spans, as one text. */
function spanText(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
      links: span.links,
    })),
  );
}

let savedKey: string | undefined;
beforeEach(() => {
  savedKey = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = secrets.openaiKey;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterEach(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
  trace.disable();
  context.disable();
});

describe.each([
  {
    way: 'the registered tracer provider',
    start: () => {
      const tracing = memoryTracing();
      trace.setGlobalTracerProvider(tracing.provider);
      return { tracing, telemetry: { isEnabled: true as const } };
    },
  },
  {
    way: "the agent's own experimental_telemetry.tracer",
    start: () => {
      const tracing = memoryTracing();
      return {
        tracing,
        telemetry: { isEnabled: true as const, tracer: tracing.provider.getTracer('ai') },
        runTracer: tracing.provider.getTracer('june'),
      };
    },
  },
])('the AI SDK’s spans with its tracer from $way', ({ start }) => {
  test('carry neither the redact value nor the provider key, and the program still gets them', async () => {
    const { tracing, telemetry, runTracer } = start() as ReturnType<typeof start> & {
      runTracer?: Tracer;
    };
    const result = await run(<Leaky telemetry={{ ...telemetry, functionId: 'checker' }} />, {
      redact: { values: [secrets.redact] },
      ...(runTracer ? { tracer: runTracer } : {}),
    }).result;
    const spans = tracing.exporter.getFinishedSpans();
    const names = spans.map((span) => span.name);
    for (const name of ['ai.streamText', 'ai.streamText.doStream', 'ai.toolCall', 'step check'])
      expect(names).toContain(name);

    // the secrets reached the SDK's spans' places, redacted
    const toolCall = spans.find((span) => span.name === 'ai.toolCall')!;
    expect(toolCall.attributes['ai.toolCall.result']).toContain('OPENAI_API_KEY=[redacted]');
    const streamText = spans.find((span) => span.name === 'ai.streamText')!;
    expect(String(streamText.attributes['ai.prompt'])).toContain('the token is [redacted]');
    expect(String(streamText.attributes['ai.response.text'])).toContain('The key is [redacted]');
    // a request header is a key: never on a span, whatever its value
    expect(streamText.attributes['ai.request.headers.x-api-key']).toBe('[redacted]');

    const text = spanText(spans);
    for (const [name, secret] of Object.entries(secrets))
      expect(text, `the ${name} secret`).not.toContain(secret);
    // redaction is for records only: the program's result keeps the real text
    expect(result.output).toContain(secrets.openaiKey);
  });
});

test('an agent that brings its own telemetry integrations is refused before its model is called', async () => {
  const seen: string[] = [];
  const integration: Telemetry = { onStart: () => void seen.push('start') };
  const handle = run(<Leaky telemetry={{ isEnabled: true, integrations: [integration] }} />, {
    redact: { values: [secrets.redact] },
  });
  const error = await handle.result.catch((caught: unknown) => caught);
  expect(JuneError.isInstance(error)).toBe(true);
  expect((error as JuneError).code).toBe('sdk-telemetry-unredactable');
  expect((error as Error).message).toMatch(/^june: the agent "checker" .*integrations/);
  expect(seen).toEqual([]);
});

test('integrations registered with the AI SDK are refused for a step that would reach them', async () => {
  const seen: string[] = [];
  registerTelemetry({ onStart: () => void seen.push('start') });
  const handle = run(
    <Agent
      model={scriptedModel({ steps: { check: [{ text: `Done with ${secrets.redact}.` }] } })}
      name="checker"
    >
      <Step id="check" prompt="Check" />
    </Agent>,
    { redact: { values: [secrets.redact] } },
  );
  const error = await handle.result.catch((caught: unknown) => caught);
  expect((error as JuneError).code).toBe('sdk-telemetry-unredactable');
  expect((error as Error).message).toMatch(/^june: .*registerTelemetry/);
  expect(seen).toEqual([]);
});

test('integrations registered with the AI SDK are left alone when the agent turns June’s spans on, or telemetry off', async () => {
  const seen: string[] = [];
  registerTelemetry({ onStart: () => void seen.push('start') });
  const done = await run(<Leaky telemetry={{ isEnabled: true }} />).result;
  expect(done.output).toContain('The key is');
  await run(<Leaky telemetry={{ isEnabled: false }} />).result;
  expect(seen).toEqual([]);
});
