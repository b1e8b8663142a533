// Renders the results as Markdown (bench/results.md).
import type { ConcurrentResult } from './concurrent.js';
import type { Contender } from './contender.js';
import type { MachineInfo } from './machine.js';
import type { SeriesPoint } from './series.js';
import { readFileSync } from 'node:fs';
import { median } from './measure.js';
import { COMPOSITE_CALLS, GATE_AT_CALL, STEPS, TOOL_CALLS } from './workloads.js';

export type WorkloadId = 'a' | 'b' | 'c' | 'f';
export type SeriesKind = 'long' | 'text' | 'journal';

export interface Results {
  date: string;
  /** Wall time of the whole bench, s. */
  durationS: number;
  machine: MachineInfo;
  versions: Record<string, string>;
  settings: {
    passes: number;
    timeMs: number;
    warmupMs: number;
    minSamples: number;
    concurrentRuns: number;
    concurrentRounds: number;
  };
  contenders: Contender[];
  unavailable: Map<string, string>;
  /** Keyed `workload:contender`. */
  timings: Record<
    string,
    {
      medianMs: number;
      madMs: number;
      samples: number;
      cpuMs: number;
      /** CPU per run in each pass, in pass order (a pass times every contender once). */
      cpuPassesMs?: number[];
    }
  >;
  concurrent: Record<string, ConcurrentResult | { error: string }>;
  resolution?: { output: string; exitCode: number | null; error?: string };
  /** The commit the baseline build of June was made from, when one was timed. */
  baseline?: string;
  /** Whole sections written by other benches (OpenTelemetry, scale-out), in Markdown. */
  sections?: string[];
  series?: Array<{
    kind: SeriesKind;
    contender: string;
    size: number;
    point?: SeriesPoint;
    error?: string;
  }>;
}

const FLOOR = 'ai-sdk';
const ms = (value: number) =>
  value >= 100
    ? Math.round(value).toLocaleString('en-US')
    : value >= 10
      ? value.toFixed(1)
      : value.toFixed(2);
const bytes = (value: number) => value.toLocaleString('en-US');
const ratio = (value: number, floor: number | undefined) =>
  floor ? ` (${(value / floor).toFixed(2)}×)` : '';
/** Paths on this machine become relative to the repository. */
const relative = (text: string) =>
  text
    .split(process.cwd() + '/')
    .join('')
    .split(process.cwd())
    .join('.');

export function renderResults(r: Results): string {
  const lines: string[] = [];
  const push = (...more: string[]) => lines.push(...more);
  const time = (w: WorkloadId, id: string) => r.timings[`${w}:${id}`];
  const isConcurrent = (v: unknown): v is ConcurrentResult =>
    typeof v === 'object' && v !== null && 'medianMs' in v;

  push('# Benchmarks: June over the bare AI SDK and its peers', '');
  push(
    `Written by \`npm run bench\` (bench/index.ts) on ${r.date.slice(0, 10)}. Every model is the AI SDK's \`MockLanguageModelV4\` answering at once, the same for every contender, so the times below are the frameworks' own cost${r.baseline ? ' (the baseline build, on an older AI SDK, gets the same model as a `MockLanguageModelV3`)' : ''}.`,
    '',
  );
  push('## Results', '');
  push(
    `Median wall time of one run, in ms, and its ratio to the bare AI SDK (streamText). (d) is the wall time of ${bytes(r.settings.concurrentRuns)} runs of (a) started at once, and the memory each of them holds while all are in flight.`,
    '',
  );
  push(
    `| contender | (a) 1 step, ${TOOL_CALLS} tool calls | (b) ${STEPS} steps | (c) composite tool ×${COMPOSITE_CALLS} | (f) ${STEPS} steps, a tool call each | (d) ${bytes(r.settings.concurrentRuns)} concurrent | (d) live heap / run (B) | (d) peak heap / run (B) | (d) RSS / run (B) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const floorD = r.concurrent[FLOOR];
  for (const c of r.contenders) {
    if (r.unavailable.has(c.id)) {
      push(`| ${c.label} | not run: see below | | | | | | | |`);
      continue;
    }
    const cells = (['a', 'b', 'c', 'f'] as const).map((w) => {
      const t = time(w, c.id);
      return t ? `${ms(t.medianMs)}${ratio(t.medianMs, time(w, FLOOR)?.medianMs)}` : '–';
    });
    const d = r.concurrent[c.id];
    const dCells = isConcurrent(d)
      ? [
          `${ms(d.medianMs)}${ratio(d.medianMs, isConcurrent(floorD) ? floorD.medianMs : undefined)}`,
          bytes(d.liveHeapPerRun),
          bytes(d.peakHeapPerRun),
          bytes(d.rssPerRun),
        ]
      : d
        ? ['failed: see below', '', '', '']
        : ['–', '–', '–', '–'];
    push(`| ${c.label} | ${cells.join(' | ')} | ${dCells.join(' | ')} |`);
  }
  push('');
  push(
    'CPU time of the process per run, in ms (user + system, all threads, GC included), and its ratio to the floor. On a shared machine this moves less with other processes than wall time does.',
    '',
  );
  push(`| contender | (a) | (b) | (c) | (f) |`, '|---|---:|---:|---:|---:|');
  for (const c of r.contenders) {
    if (r.unavailable.has(c.id)) continue;
    const cells = (['a', 'b', 'c', 'f'] as const).map((w) => {
      const t = time(w, c.id);
      return t ? `${ms(t.cpuMs)}${ratio(t.cpuMs, time(w, FLOOR)?.cpuMs)}` : '–';
    });
    push(`| ${c.label} | ${cells.join(' | ')} |`);
  }
  push('');
  renderTargets(r, push);
  const spread = Object.entries(r.timings).map(([k, t]) => `${k} ±${ms(t.madMs)} (n=${t.samples})`);
  if (spread.length)
    push(
      `<details><summary>Spread (median absolute deviation, ms, and samples)</summary>\n\n${spread.join(', ')}\n\n</details>`,
      '',
    );

  const failures = [...r.unavailable].map(
    ([id, reason]) =>
      `- ${r.contenders.find((c) => c.id === id)?.label ?? id}: ${relative(reason)}`,
  );
  for (const [id, d] of Object.entries(r.concurrent))
    if (!isConcurrent(d)) failures.push(`- (d) ${id}: ${relative(d.error)}`);
  if (failures.length) push('### Not measured', '', ...failures, '');

  renderSeries(r, push);
  try {
    push(readFileSync(new URL('./profile-notes.md', import.meta.url), 'utf8').trim(), '');
  } catch {
    // no notes
  }
  push('## (e) Capability resolution (June only)', '');
  if (r.resolution) {
    push(
      'From bench/resolution.ts, run as it is: one agent resolving tools declared through bundles, namespaces and `<RequireApproval>`.',
      '',
    );
    push('```', relative(r.resolution.output), '```', '');
    if (r.resolution.error) push(`It failed: ${relative(r.resolution.error)}`, '');
    else if (r.resolution.exitCode !== 0)
      push(
        `It exited with ${r.resolution.exitCode}: its own check of linear growth (last lines above) did not pass on this run.`,
        '',
      );
  } else {
    push('Not run (`--only` left it out).', '');
  }

  for (const section of r.sections ?? []) push(relative(section.trim()), '');

  push('## What runs', '');
  push(
    `- (a) One agent, one step: the model calls the tool \`lookup\` ${TOOL_CALLS} times, one call a turn, then answers (${TOOL_CALLS + 1} model calls).`,
  );
  push(
    `- (b) One agent, ${STEPS} steps sharing its conversation, each one model turn answering text; the agent has \`lookup\` too. The floor makes ${STEPS} sequential streamText calls, carrying the messages.`,
  );
  push(
    `- (c) The model calls a composite tool \`research\` ${COMPOSITE_CALLS} times (one call a turn); each call runs a nested agent with one step (one model turn). ${COMPOSITE_CALLS * 2 + 1} model calls in all.`,
  );
  push(
    `- (d) ${bytes(r.settings.concurrentRuns)} runs of (a) started at once in one process (a child process per contender, \`--expose-gc\`).`,
  );
  push(
    `- (f) One agent, ${STEPS} steps sharing its conversation, each one tool call then an answer (${2 * STEPS} model calls).`,
  );
  push('- (e) June only; see above.', '');
  push('Contenders:', '');
  for (const c of r.contenders) push(`- **${c.label}**: ${c.note}`);
  push('');
  push('## Method', '');
  push(
    `- The model (bench/mock-model.ts) is stateless: it counts the tool results after the last user message of its prompt and calls the tool until it has enough, then answers "done". \`doStream\` and \`doGenerate\` give the same answers; June, streamText, the OpenAI Agents SDK (streamed) and Mastra use \`doStream\`. Each workload is run once per contender before timing and checked: the answer, the number of model calls and tool executions, and (b) that the last prompt carries the whole conversation.`,
  );
  push(
    '- June is imported as built (`dist/`, as users import it): `npm run bench` builds it first, and bench/tsconfig.json (which tsx reads in the bench) maps no path to its TypeScript source.',
  );
  push(
    `- Times: tinybench (${r.settings.timeMs} ms of samples after ${r.settings.warmupMs} ms of warm-up calls that are not counted, at least ${r.settings.minSamples} samples) per contender and workload, a forced GC before each, in a child process per contender and pass (bench/timed.ts: no contender is timed in a process another has used, so none pays for async hooks another turned on); ${r.settings.passes} pass(es) over the contenders in rotating order, and the median of the passes' medians is reported; a ratio of two contenders' CPU time is the median of their ratios pass by pass. CPU time is \`process.cpuUsage()\` over the same samples (not the warm-up) divided by the calls.`,
  );
  push(
    `- Memory (d): after a warm-up (20 × 10 runs), two forced GCs and a baseline \`process.memoryUsage()\`, the ${bytes(r.settings.concurrentRuns)} runs start at once and each waits in its tool call #${GATE_AT_CALL + 1} (a gate in \`lookup\`) until all have arrived: every run is in flight, mid-loop. There memory is read as is (peak heap and RSS, garbage included), then after two forced GCs (live heap: what the runs hold). Each delta over the baseline is divided by the number of runs. Then the gate opens and the runs finish; that batch's wall time, less the pause at the gate, is the (d) time.`,
  );
  push('');
  push('## Machine', '');
  push(`- The bench took ${Math.round(r.durationS)} s.`);
  const m = r.machine;
  push(
    `- CPU: ${m.cpu}, ${m.cores} cores; memory ${m.memoryGiB} GiB; ${m.platform}; Node ${m.node}`,
  );
  push(
    `- Load average (1 min) at start ${m.loadAverage.start}, at end ${m.loadAverage.end ?? '?'}: other processes on the machine share the cores, so read the ratios and the CPU-time table rather than absolute wall times when it is high.`,
  );
  push(
    `- Packages: ${Object.entries(r.versions)
      .map(([n, v]) => `${n} ${v}`)
      .join(', ')}`,
  );
  return lines.join('\n');
}

/**
 * CPU per run of `id` over `floor` on workload `w`: the median of their ratios pass by pass
 * (each pass times both within minutes of each other, so load from other processes that
 * changes between passes cancels out), with the lowest and highest pass; the ratio of the
 * medians when the passes do not pair up.
 */
export function pairedRatio(
  r: Pick<Results, 'timings'>,
  w: WorkloadId,
  id: string,
  floor: string,
): { ratio: number; low: number; high: number } | undefined {
  const a = r.timings[`${w}:${id}`];
  const b = r.timings[`${w}:${floor}`];
  if (!a || !b?.cpuMs) return undefined;
  const pa = a.cpuPassesMs ?? [];
  const pb = b.cpuPassesMs ?? [];
  if (pa.length < 2 || pa.length !== pb.length) {
    const only = a.cpuMs / b.cpuMs;
    return { ratio: only, low: only, high: only };
  }
  const ratios = pa.map((value, i) => value / pb[i]!);
  return { ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

/** June over its two floors: streaming over streamText (CPU), batch mode over generateText (CPU), and (d). */
function renderTargets(r: Results, push: (...more: string[]) => void): void {
  const d = (id: string) => {
    const v = r.concurrent[id];
    return v && 'medianMs' in v ? v : undefined;
  };
  const cell = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b ? `${(a / b).toFixed(2)}×` : '–';
  const cpuCell = (w: WorkloadId, id: string, floor: string) => {
    const paired = pairedRatio(r, w, id, floor);
    return paired ? `${paired.ratio.toFixed(2)}×` : '–';
  };
  const rangeCell = (w: WorkloadId, id: string, floor: string) => {
    const paired = pairedRatio(r, w, id, floor);
    return paired ? `${paired.low.toFixed(2)}–${paired.high.toFixed(2)}` : '–';
  };
  push(
    "June over its floors, from the tables above: CPU per run on (a), (b), (c), (f) (the median of the two contenders' ratios pass by pass); wall time and live heap per run on (d).",
    '',
  );
  push(
    '| | (a) | (b) | (c) | (f) | (d) time | (d) live heap |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  const rows: Array<[string, string, string]> = [
    ['June run() / streamText', 'june', FLOOR],
    ['June batch / generateText', 'june-batch', 'ai-sdk-generate'],
    ['June batch / OpenAI Agents SDK', 'june-batch', 'openai-agents'],
  ];
  if (r.timings['a:june-baseline'] || d('june-baseline'))
    rows.push(
      ['June run() / baseline build', 'june', 'june-baseline'],
      ['June batch / baseline build', 'june-batch', 'june-batch-baseline'],
    );
  if (r.timings['a:ai-sdk-baseline'] || d('ai-sdk-baseline'))
    rows.push(
      ["Baseline run() / its ai's streamText", 'june-baseline', 'ai-sdk-baseline'],
      ["Baseline batch / its ai's generateText", 'june-batch-baseline', 'ai-sdk-generate-baseline'],
      ["streamText: this ai / the baseline's", FLOOR, 'ai-sdk-baseline'],
      ["generateText: this ai / the baseline's", 'ai-sdk-generate', 'ai-sdk-generate-baseline'],
    );
  for (const [label, id, floor] of rows)
    push(
      `| ${label} | ${(['a', 'b', 'c', 'f'] as const).map((w) => cpuCell(w, id, floor)).join(' | ')} | ${cell(d(id)?.medianMs, d(floor)?.medianMs)} | ${cell(d(id)?.liveHeapPerRun, d(floor)?.liveHeapPerRun)} |`,
    );
  push('');
  push(
    `The lowest and highest of those CPU ratios among the ${r.settings.passes} passes: how far one pass can stray on this machine.`,
    '',
    '| | (a) | (b) | (c) | (f) |',
    '|---|---:|---:|---:|---:|',
  );
  for (const [label, id, floor] of rows)
    push(
      `| ${label} | ${(['a', 'b', 'c', 'f'] as const).map((w) => rangeCell(w, id, floor)).join(' | ')} |`,
    );
  push('');
  if (r.baseline)
    push(
      `The baseline build is June at ${r.baseline} (built by bench/baseline.sh), timed in the same run: a ratio under 1.00× is this checkout's June spending less than it did.`,
      '',
    );
}

/** The growth series: per step (long runs), per MB (long text), per tool turn (journals). */
function renderSeries(r: Results, push: (...more: string[]) => void): void {
  if (!r.series?.length) return;
  const label = (id: string) => r.contenders.find((c) => c.id === id)?.label ?? id;
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  const section = (
    kind: SeriesKind,
    title: string,
    intro: string,
    unit: string,
    per: (size: number) => number,
    extra?: (p: SeriesPoint, size: number) => string,
  ) => {
    const rows = r.series!.filter((s) => s.kind === kind);
    if (!rows.length) return;
    push(`## ${title}`, '', intro, '');
    push(
      `| contender | size | CPU (ms) | CPU per ${unit} (ms) | wall (ms) | peak RSS (MB) | heap held at the end (MB) | heap held per ${unit} (KB)${extra ? ' | journal (KB) | journal per turn (B)' : ''} |`,
    );
    push(`|---|---:|---:|---:|---:|---:|---:|---:${extra ? '|---:|---:' : ''}|`);
    for (const s of rows) {
      if (!s.point) {
        push(`| ${label(s.contender)} | ${s.size} | failed: ${relative(s.error ?? '')} |`);
        continue;
      }
      const p = s.point;
      const n = per(s.size);
      push(
        `| ${label(s.contender)} | ${s.size} | ${ms(p.cpuMs)} | ${(p.cpuMs / n).toFixed(3)} | ${ms(p.ms)} | ${mb(p.peakRss)} | ${mb(p.heldHeap)} | ${(p.heldHeap / 1024 / n).toFixed(1)}${extra ? ` | ${extra(p, s.size)}` : ''} |`,
      );
    }
    push('');
    // growth: per-unit at the largest size over per-unit at the smallest, per contender
    const growth: string[] = [];
    for (const id of new Set(rows.map((s) => s.contender))) {
      const points = rows
        .filter((s) => s.contender === id && s.point)
        .sort((a, b) => a.size - b.size);
      if (points.length < 2) continue;
      const [first, last] = [points[0]!, points.at(-1)!];
      const cpuGrowth = last.point!.cpuMs / per(last.size) / (first.point!.cpuMs / per(first.size));
      const heapGrowth =
        last.point!.heldHeap / per(last.size) / (first.point!.heldHeap / per(first.size));
      const journal =
        kind === 'journal' && last.point!.journalBytes && first.point!.journalBytes
          ? `, journal bytes per turn ${(last.point!.journalBytes / last.size / (first.point!.journalBytes / first.size)).toFixed(2)}×`
          : '';
      const rssGrowth =
        last.point!.peakRss / per(last.size) / (first.point!.peakRss / per(first.size));
      growth.push(
        `${label(id)}: CPU per ${unit} ${cpuGrowth.toFixed(2)}×, peak RSS per ${unit} ${rssGrowth.toFixed(2)}×, heap held per ${unit} ${heapGrowth.toFixed(2)}×${journal}`,
      );
    }
    if (growth.length)
      push(
        `Per-${unit} cost at ${rows.at(-1)!.size} over at ${rows[0]!.size}: ${growth.join('; ')}.`,
        '',
      );
    if (kind === 'long') pushOwnCost(rows, label, push);
  };
  section(
    'long',
    'Long runs',
    "One agent, N sequential steps sharing its conversation, each one model turn answering text; one child process per point (`bench/series.tsx long`). Heap held: after two forced GCs at the end, with the run's result (and so its trace) still referenced.",
    'step',
    (n) => n,
  );
  section(
    'text',
    'Long answers',
    "One step whose answer is N MB of text, streamed by June's scripted model in 64-byte words (`bench/series.tsx text`).",
    'MB',
    (n) => n,
  );
  section(
    'journal',
    'Journal size',
    'One step whose model calls a tool N times, one call a turn, then answers; the journal is kept in memory and measured (`bench/series.tsx journal`).',
    'turn',
    (n) => n,
    (p, size) =>
      `${((p.journalBytes ?? 0) / 1024).toFixed(0)} | ${Math.round((p.journalBytes ?? 0) / size).toLocaleString('en-US')}`,
  );
}

/**
 * June's own CPU per step in the long-run series: its CPU per step less the floor's at the
 * same size. The floor is not linear itself (every streamText call validates and converts
 * the whole conversation), so this difference is what June's linearity is judged by.
 */
function pushOwnCost(
  rows: Array<{ contender: string; size: number; point?: { cpuMs: number } }>,
  label: (id: string) => string,
  push: (...lines: string[]) => void,
): void {
  const floor = new Map(
    rows.filter((s) => s.contender === 'ai-sdk' && s.point).map((s) => [s.size, s.point!.cpuMs]),
  );
  for (const id of ['june', 'june-batch']) {
    const own = rows
      .filter((s) => s.contender === id && s.point && floor.has(s.size))
      .sort((a, b) => a.size - b.size)
      .map((s) => `${s.size}: ${((s.point!.cpuMs - floor.get(s.size)!) / s.size).toFixed(3)}`);
    if (own.length)
      push(
        `${label(id)}, its own CPU per step over the floor's (ms, by size): ${own.join(', ')}.`,
        '',
      );
  }
}
