// The run of bench/scale-out-throughput.ts: bench/scale-out-flow.tsx's short run (a model
// call that asks for a tool, the tool, a model call that answers) on the bench's mock model
// (bench/mock-model.ts: stateless, so one instance serves every run of a worker) answering
// after MODEL_DELAY_MS, as a hosted model would, so a run waits for its model far longer than
// it works and throughput is bound by how many runs wait at once, not by the machine's cores.
// The tool appends the run's id to the file JUNE_BENCH_LEDGER names (when set): one line per
// execution, to count executions per run. Workers load this file
// (`june worker bench/scale-out-slow-flow.tsx`).
import { appendFileSync } from 'node:fs';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { Agent, Step, Tool, toolCallContext } from 'june';
import { z } from 'zod';
import { benchModel } from './mock-model.js';

/** ms each model call waits before it answers. */
export const MODEL_DELAY_MS = 200;

/** The bench's stateless model (it reads the prompt to know how far the step has gone). */
const instant = benchModel({
  toolName: 'note',
  callsPerStep: 1,
  input: () => ({ text: 'hi' }),
  text: 'Noted.',
});

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

/** That model, each answer given MODEL_DELAY_MS after the call. */
const slowModel: LanguageModelV4 = {
  specificationVersion: 'v4',
  provider: 'bench',
  modelId: 'slow',
  supportedUrls: {},
  doGenerate: async (options: LanguageModelV4CallOptions) => {
    await delay(MODEL_DELAY_MS, options.abortSignal);
    return instant.doGenerate(options);
  },
  doStream: async (options: LanguageModelV4CallOptions) => {
    await delay(MODEL_DELAY_MS, options.abortSignal);
    return instant.doStream(options);
  },
};

const ledger = process.env.JUNE_BENCH_LEDGER;

const note = tool({
  description: 'Note a line',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => {
    if (ledger) appendFileSync(ledger, `${toolCallContext()?.runId ?? '?'}\n`);
    return `noted ${text}`;
  },
});

/** The run: one agent, one step, one tool call between two model calls. */
export default function ScaleOutSlowFlow({ n }: { n: number }) {
  return (
    <Agent model={slowModel}>
      <Tool name="note" value={note} />
      <Step id="work" prompt={`Note entry ${n}`} />
    </Agent>
  );
}
