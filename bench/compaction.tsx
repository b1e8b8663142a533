// Compaction of a long agent conversation (`<Agent compact>`), measured in one run:
//   npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/compaction.tsx [--quick] [--batch|--stream]
// One agent with N sequential steps sharing its conversation, each one model turn answering
// about 400 characters, with compact={{ maxMessages: 40 }} (summaries by the agent's model)
// and without it, at 500 and 2,000 steps (100 and 400 with --quick); one child process per
// point (a clean heap for each). Then the 2,000-step run with compaction is journaled in
// memory and replayed from its journal with a model that counts its calls.
//
// A point reports: the peak live heap (heapUsed after a forced GC, sampled every 25 steps
// and at the end, the run's result still referenced), the peak heapUsed seen without forcing
// a GC (sampled at every step), the largest model request (in messages, and in estimated
// tokens: one per four characters of its JSON), the model calls, and wall time.
//
// Child: node --expose-gc --import tsx bench/compaction.tsx point <compact|plain|replay> <steps> <stream|batch>
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { Agent, Step, memoryJournalStore, run, type RunLogEvent } from 'june';
import { exposeGc } from './measure.js';

const MAX_MESSAGES = 40;
const ANSWER = `${'The answer, with some detail to carry along. '.repeat(9)}`.trim();

/** What the bench model saw: its calls and the largest request. */
interface ModelSeen {
  calls: number;
  summaryCalls: number;
  maxMessages: number;
  maxTokens: number;
}

/**
 * A model that answers at once and keeps nothing of its requests (the AI SDK's mock keeps
 * every call's options, which would be most of the heap measured): each step's answer is
 * ANSWER, a summary call's a short summary.
 */
function benchModel(seen: ModelSeen): LanguageModelV4 {
  const answer = (options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult => {
    const step = String(options.providerOptions?.june?.step ?? '');
    const summary = step.endsWith('@compact');
    seen.calls++;
    if (summary) seen.summaryCalls++;
    const messages = options.prompt.filter((m) => m.role !== 'system').length;
    seen.maxMessages = Math.max(seen.maxMessages, messages);
    seen.maxTokens = Math.max(seen.maxTokens, Math.ceil(JSON.stringify(options.prompt).length / 4));
    return {
      content: [
        { type: 'text', text: summary ? `Summary ${seen.summaryCalls}: steps so far.` : ANSWER },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      },
      warnings: [],
    };
  };
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'bench-compaction',
    supportedUrls: {},
    doGenerate: async (options) => answer(options),
    async doStream(options) {
      const { content, finishReason, usage } = answer(options);
      const text = content[0]!.type === 'text' ? content[0]!.text : '';
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason, usage },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

function Long({
  steps,
  model,
  compact,
}: {
  steps: number;
  model: LanguageModelV4;
  compact: boolean;
}) {
  return (
    <Agent
      name="long"
      model={model}
      instructions="Answer briefly."
      {...(compact ? { compact: { maxMessages: MAX_MESSAGES } } : {})}
    >
      {Array.from({ length: steps }, (_, i) => (
        <Step id={`s${i + 1}`} prompt={`Step ${i + 1}: answer briefly.`} />
      ))}
    </Agent>
  );
}

/** One point's numbers. */
interface Point {
  kind: string;
  steps: number;
  mode: string;
  ms: number;
  peakLiveHeap: number;
  peakHeapSeen: number;
  compactions: number;
  model: ModelSeen;
  replayCalls?: number;
  replayExact?: boolean;
}

async function point(kind: string, steps: number, mode: string): Promise<Point> {
  const gc = exposeGc();
  const stream = mode === 'stream';
  const seen: ModelSeen = { calls: 0, summaryCalls: 0, maxMessages: 0, maxTokens: 0 };
  let peakLiveHeap = 0;
  let peakHeapSeen = 0;
  let finished = 0;
  let compactions = 0;
  const sample = (force: boolean) => {
    if (force) {
      gc();
      gc();
      peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
    } else peakHeapSeen = Math.max(peakHeapSeen, process.memoryUsage().heapUsed);
  };
  const consumer = {
    event(event: RunLogEvent) {
      if (event.type === 'compaction') compactions++;
      if (event.type !== 'step-finish') return;
      finished++;
      sample(false);
      if (finished % 25 === 0) sample(true);
    },
  };
  const store = kind === 'replay' ? memoryJournalStore() : undefined;
  const start = performance.now();
  const handle = run(<Long steps={steps} model={benchModel(seen)} compact={kind !== 'plain'} />, {
    stream,
    consumers: [consumer],
    ...(store ? { journal: store } : {}),
  });
  const result = await handle.result;
  const ms = performance.now() - start;
  sample(true);
  const out: Point = {
    kind,
    steps,
    mode,
    ms,
    peakLiveHeap,
    peakHeapSeen: Math.max(peakHeapSeen, peakLiveHeap),
    compactions,
    model: seen,
  };
  if (store) {
    const replaySeen: ModelSeen = { calls: 0, summaryCalls: 0, maxMessages: 0, maxTokens: 0 };
    const replayed = await run(<Long steps={steps} model={benchModel(replaySeen)} compact />, {
      stream,
      replay: await store.read(handle.runId),
    }).result;
    out.replayCalls = replaySeen.calls;
    out.replayExact = JSON.stringify(replayed.output) === JSON.stringify(result.output);
  }
  if (result.steps[`s${steps}`] !== ANSWER) throw new Error('bench: the last step did not answer');
  return out;
}

function child(args: string[]): Promise<Point> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), 'point', ...args],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`bench: point ${args.join(' ')} exited with ${code}`));
      else resolve(JSON.parse(last) as Point);
    });
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

if (process.argv[2] === 'point') {
  const [, , , kind, steps, mode] = process.argv;
  console.log(JSON.stringify(await point(kind!, Number(steps), mode!)));
} else {
  const flags = new Set(process.argv.slice(2));
  const [small, large] = flags.has('--quick') ? [100, 400] : [500, 2000];
  const modes = flags.has('--batch')
    ? ['batch']
    : flags.has('--stream')
      ? ['stream']
      : ['stream', 'batch'];
  for (const mode of modes) {
    const points: Record<string, Point> = {};
    for (const kind of ['compact', 'plain'])
      for (const steps of [small, large]) {
        const p = await child([kind, String(steps), mode]);
        points[`${kind} ${steps}`] = p;
        console.error(
          `${mode} ${kind} ${steps}: ${p.ms.toFixed(0)} ms, peak live heap ${mb(p.peakLiveHeap)}, peak heap seen ${mb(p.peakHeapSeen)}, largest request ${p.model.maxMessages} messages / ~${p.model.maxTokens} tokens, ${p.model.calls} model calls (${p.model.summaryCalls} summaries), ${p.compactions} compactions`,
        );
      }
    const replay = await child(['replay', String(large), mode]);
    const c = (steps: number) => points[`compact ${steps}`]!;
    const p = (steps: number) => points[`plain ${steps}`]!;
    console.log(
      `\n## ${mode === 'stream' ? 'Streaming' : 'Batch'} (stream: ${mode === 'stream'})\n`,
    );
    console.log(
      '| agent | steps | wall | peak live heap | peak heap seen | largest request | model calls |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, at] of [
      ['compact={{ maxMessages: 40 }}', c],
      ['no compaction', p],
    ] as const)
      for (const steps of [small, large]) {
        const q = at(steps);
        console.log(
          `| ${name} | ${steps} | ${(q.ms / 1000).toFixed(2)} s | ${mb(q.peakLiveHeap)} | ${mb(q.peakHeapSeen)} | ${q.model.maxMessages} messages, ~${q.model.maxTokens} tokens | ${q.model.calls} (${q.model.summaryCalls} summaries) |`,
        );
      }
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    console.log(
      `\nPeak live heap at ${large} steps over ${small}: ${ratio(c(large).peakLiveHeap, c(small).peakLiveHeap)} with compaction (target: at most 1.20×), ${ratio(p(large).peakLiveHeap, p(small).peakLiveHeap)} without. Peak heap seen: ${ratio(c(large).peakHeapSeen, c(small).peakHeapSeen)} and ${ratio(p(large).peakHeapSeen, p(small).peakHeapSeen)}.`,
    );
    console.log(
      `At ${large} steps, compaction over none: wall ${ratio(c(large).ms, p(large).ms)}, peak live heap ${ratio(c(large).peakLiveHeap, p(large).peakLiveHeap)}, peak heap seen ${ratio(c(large).peakHeapSeen, p(large).peakHeapSeen)}. Largest request with compaction: ${c(large).model.maxMessages} messages (bound ${MAX_MESSAGES}).`,
    );
    console.log(
      `Replay of the ${large}-step run with compaction from its journal: ${replay.replayCalls} model calls, output ${replay.replayExact ? 'identical' : 'DIFFERENT'}.`,
    );
  }
}
