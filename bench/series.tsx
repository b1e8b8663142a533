// The growth series, one point per child process (a clean heap for each):
//   node --expose-gc --import tsx bench/series.ts long <ai-sdk|june|june-batch> <steps>
//   node --expose-gc --import tsx bench/series.ts text <ai-sdk|june|june-batch> <megabytes>
//   node --expose-gc --import tsx bench/series.ts journal <june|june-batch> <tool turns>
// Prints one JSON line (SeriesPoint) last.
//
// long: one agent with <steps> sequential steps sharing its conversation, each one model turn
//   answering text (the floor: that many streamText calls carrying the messages).
// text: one step whose answer is <megabytes> of text, streamed in 64-byte words by June's
//   scripted model (the floor: streamText over the same model).
// journal: one step whose model calls a tool <turns> times, one call a turn, then answers;
//   the run keeps a journal in memory, and its size is measured.
import { isStepCount, streamText, tool, type ModelMessage } from 'ai';
import { Agent, Step, Tool, run, memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';
import { exposeGc } from './measure.js';
import { benchModel } from './mock-model.js';
import { INSTRUCTIONS, LOOKUP, lookup, stepPrompt } from './workloads.js';

/** What one point reports. */
export interface SeriesPoint {
  /** Wall time, ms. */
  ms: number;
  /** Process CPU time (user + system), ms. */
  cpuMs: number;
  /** Peak resident set size of the process, bytes. */
  peakRss: number;
  /** Heap still held at the end (after two forced GCs, the run's result still referenced), bytes over the start's. */
  heldHeap: number;
  /** journal: the journal's size, bytes. */
  journalBytes?: number;
}

const [kind, who, sizeArg] = process.argv.slice(2);
const size = Number(sizeArg);
const gc = exposeGc();
const collect = () => (gc(), gc());
const stream = who !== 'june-batch';

async function longRun(steps: number): Promise<unknown> {
  const model = benchModel({});
  if (who === 'ai-sdk') {
    const messages: ModelMessage[] = [];
    for (let i = 0; i < steps; i++) {
      messages.push({ role: 'user', content: stepPrompt(i) });
      const result = streamText({
        model,
        instructions: INSTRUCTIONS,
        messages,
        stopWhen: isStepCount(30),
      });
      for await (const _part of result.stream);
      messages.push(...(await result.responseMessages));
    }
    return messages;
  }
  const element = (
    <Agent model={model} instructions={INSTRUCTIONS}>
      {Array.from({ length: steps }, (_, i) => (
        <Step id={`s${i + 1}`} prompt={stepPrompt(i)} />
      ))}
    </Agent>
  );
  return run(element, { stream }).result;
}

async function longText(megabytes: number): Promise<unknown> {
  const word = `${'x'.repeat(63)} `;
  const text = word.repeat(Math.round((megabytes * 1024 * 1024) / word.length));
  const model = scriptedModel({ steps: { answer: [{ text }] } });
  if (who === 'ai-sdk') {
    const result = streamText({
      model,
      prompt: 'Write.',
      providerOptions: { june: { step: 'answer' } },
    });
    for await (const _part of result.stream);
    return result.text;
  }
  const result = await run(
    <Agent model={model}>
      <Step id="answer" prompt="Write." />
    </Agent>,
    { stream },
  ).result;
  if ((result.output as string).length !== text.length)
    throw new Error('bench: the answer lost text');
  return result;
}

async function journalRun(turns: number): Promise<{ result: unknown; bytes: number }> {
  const model = benchModel({ toolName: LOOKUP.name, callsPerStep: turns });
  const lookupTool = tool({
    description: LOOKUP.description,
    inputSchema: z.object({ n: z.number() }),
    execute: lookup,
  });
  const store = memoryJournalStore();
  const handle = run(
    <Agent model={model} instructions={INSTRUCTIONS} stopWhen={isStepCount(turns + 2)}>
      <Tool name={LOOKUP.name} value={lookupTool} />
      <Step id="lookups" prompt={`Look up ${turns} numbers.`} />
    </Agent>,
    { stream, journal: store },
  );
  const result = await handle.result;
  return { result, bytes: Buffer.byteLength(store.text(handle.runId)) };
}

collect();
const heap0 = process.memoryUsage().heapUsed;
const cpu0 = process.cpuUsage();
const start = performance.now();
let kept: unknown;
let journalBytes: number | undefined;
if (kind === 'long') kept = await longRun(size);
else if (kind === 'text') kept = await longText(size);
else if (kind === 'journal') ({ result: kept, bytes: journalBytes } = await journalRun(size));
else throw new Error(`bench: no series "${kind}"`);
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpu0);
collect();
const point: SeriesPoint = {
  ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  peakRss: process.resourceUsage().maxRSS * 1024,
  heldHeap: process.memoryUsage().heapUsed - heap0,
  ...(journalBytes !== undefined ? { journalBytes } : {}),
};
if (kept === undefined) throw new Error('bench: nothing kept');
console.log(JSON.stringify(point));
