/**
 * Capability resolution benchmark: how long one agent takes to resolve N tools declared
 * through bundles and wrappers (N = 10, 100, 1,000, 10,000), and how long a chain of 100
 * nested agents takes when each inherits a tool from its parent.
 *
 * Run: npx tsx bench/resolution.ts
 *
 * Prints the median time per tool in microseconds for each size, measured two ways: the
 * resolution alone (resolveCapabilities) and the whole of inspect() (which also renders the
 * tree and builds its report). The ratio of the per-tool time at 10,000 to the one at 100
 * shows how the cost grows with the number of tools: near 1 is linear, a quadratic step
 * would show about 100.
 *
 * The ratio is not 1 even for code that is linear: at 100 tools everything a resolution
 * allocates dies young and stays in the CPU's caches, while at 10,000 the resolved scope
 * outlives V8's young generation (it is copied and promoted once) and no longer fits in
 * cache. To tell that apart from a superlinear algorithm, the benchmark times a baseline
 * that is linear by construction (per tool: a frozen props object, two strings, a regular
 * expression test, a Map entry and a provenance object, as a resolution makes) and compares
 * the two ratios. June's growth counts as linear when its ratio is within twice the
 * baseline's; a quadratic step would be some 100 times it.
 */
import { tool } from 'ai';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { resolveCapabilities } from '../src/capabilities/index.js';
import {
  Agent,
  defineCapabilities,
  Inherit,
  Namespace,
  RequireApproval,
  Step,
  Tool,
} from '../src/components/index.js';
import type { JuneElement, JuneNode } from '../src/elements/element.js';
import { jsx } from '../src/elements/jsx.js';
import { inspect } from '../src/interpreter/index.js';

const SIZES = [10, 100, 1_000, 10_000];
const NESTED_AGENTS = 100;
const TOOLS_PER_BUNDLE = 10;
/** June's per-tool ratio (10,000 vs 100 tools) over the baseline's, below which growth counts as linear. */
const RELATIVE_RATIO_MAX = 2;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const echo = tool({
  description: 'Echo',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});
const model = { specificationVersion: 'v3', provider: 'bench', modelId: 'never-called' } as never;

/** Ten tools, named after the group; a bundle called with props. */
const Group = defineCapabilities(
  ({ group }: { group: number }) =>
    Array.from({ length: TOOLS_PER_BUNDLE }, (_, i) =>
      jsx(Tool, { name: `tool${group}x${i}`, value: echo }, `${group}-${i}`),
    ),
  { name: 'Group' },
);

/** Groups of ten: each in a namespace, every other one behind <RequireApproval>, all in one outer bundle. */
const Everything = defineCapabilities(
  ({ groups }: { groups: number }) =>
    Array.from({ length: groups }, (_, group) => {
      const bundle = jsx(Group, { group });
      const wrapped = group % 2 === 0 ? jsx(RequireApproval, { children: bundle }) : bundle;
      return jsx(Namespace, { name: `ns${group}`, children: wrapped }, group);
    }),
  { name: 'Everything' },
);

function agentChildren(tools: number): JuneNode {
  return [
    jsx(Everything, { groups: tools / TOOLS_PER_BUNDLE }, 'caps'),
    jsx(Step, { id: 'work', prompt: 'go' }, 'step'),
  ];
}

function agentWithTools(tools: number): JuneElement {
  return jsx(Agent, { model, children: agentChildren(tools) });
}

/** agent 0 declares `shared`; agent k inherits it from agent k - 1. */
function nestedChain(depth: number): JuneElement {
  let inner: JuneElement | null = null;
  for (let level = depth - 1; level >= 1; level--) {
    inner = jsx(Agent, {
      model,
      children: [
        jsx(Inherit, { capabilities: ['shared'] }, 'grant'),
        jsx(Step, { id: `s${level}`, prompt: 'go' }, 'step'),
        inner,
      ],
    });
  }
  return jsx(Agent, {
    model,
    children: [jsx(Tool, { name: 'shared', value: echo }, 'tool'), inner],
  });
}

/** The linear baseline: what resolving `size` namespaced tools allocates, without June. */
function baseline(size: number): unknown {
  const byName = new Map<
    string,
    { name: string; tool: unknown; provenance: { name: string; source: string } }
  >();
  const provenance: Array<{ name: string; source: string }> = [];
  for (let i = 0; i < size; i++) {
    const props = Object.freeze({ name: `tool${i}`, value: echo });
    const name = `ns${i}_${props.name}`;
    if (!TOOL_NAME.test(name) || byName.has(name)) throw new Error('baseline');
    const entry = {
      name,
      tool: props.value,
      provenance: { name, source: `<Tool name="${props.name}"> in <Namespace name="ns${i}">` },
    };
    byName.set(name, entry);
    provenance.push(entry.provenance);
  }
  return provenance;
}

/** This process's CPU time (user + system, all threads) in milliseconds. */
function cpuTimeMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function main(): Promise<void> {
  // A few iterations at least, else as many as fit in 400 ms: the 10,000-tool cases take
  // tenths of a second each. Timed in CPU time, so other work on the machine (which stretches
  // long iterations far more than short ones in wall-clock time) does not count.
  const bench = new Bench({
    time: 400,
    iterations: 5,
    warmupTime: 100,
    warmupIterations: 2,
    now: cpuTimeMs,
  });
  for (const size of SIZES) {
    const children = agentChildren(size);
    const element = agentWithTools(size);
    bench.add(`baseline ${size}`, () => {
      baseline(size);
    });
    bench.add(`resolve ${size}`, () => {
      resolveCapabilities({ children });
    });
    bench.add(`inspect ${size}`, async () => {
      await inspect(element);
    });
  }
  const chain = nestedChain(NESTED_AGENTS);
  bench.add(`inspect ${NESTED_AGENTS} nested agents`, async () => {
    await inspect(chain);
  });

  // Check the trees once, so the numbers below measure trees that resolve.
  const report = await inspect(agentWithTools(100));
  const tools = report.agents[0]!.tools;
  if (tools.length !== 100 || tools.filter((t) => t.needsApproval === true).length !== 50)
    throw new Error('bench tree resolved wrongly');
  if ((await inspect(chain)).agents.length !== NESTED_AGENTS)
    throw new Error('bench chain resolved wrongly');

  await bench.run();

  /** The median: a machine busy with other work shows as outliers, which the mean would keep. */
  const medianMs = (name: string): number => {
    const result = bench.getTask(name)!.result;
    if (result.state !== 'completed') throw new Error(`${name}: ${result.state}`);
    return result.latency.p50;
  };
  const perTool = (kind: string, size: number) => (medianMs(`${kind} ${size}`) * 1000) / size;

  console.log(
    'Capability resolution: one agent, tools through bundles, namespaces and <RequireApproval> (CPU time)\n',
  );
  console.log(
    'tools     resolve (µs/tool)   inspect (µs/tool)   inspect total (ms)   baseline (µs/tool)',
  );
  for (const size of SIZES) {
    console.log(
      `${String(size).padEnd(10)}${perTool('resolve', size).toFixed(3).padEnd(20)}${perTool('inspect', size).toFixed(3).padEnd(20)}` +
        `${medianMs(`inspect ${size}`).toFixed(3).padEnd(21)}${perTool('baseline', size).toFixed(3)}`,
    );
  }
  const chainMs = medianMs(`inspect ${NESTED_AGENTS} nested agents`);
  console.log(
    `\n${NESTED_AGENTS} nested agents, each inheriting from its parent: ${chainMs.toFixed(3)} ms (${((chainMs * 1000) / NESTED_AGENTS).toFixed(2)} µs per agent)`,
  );

  let linear = true;
  const baselineRatio = perTool('baseline', 10_000) / perTool('baseline', 100);
  console.log(`\nper-tool time at 10,000 tools / at 100 tools (medians of CPU time):`);
  console.log(`baseline: ${baselineRatio.toFixed(2)} (linear by construction)`);
  for (const kind of ['resolve', 'inspect']) {
    const ratio = perTool(kind, 10_000) / perTool(kind, 100);
    const relative = ratio / baselineRatio;
    const verdict = relative < RELATIVE_RATIO_MAX ? 'linear' : 'NOT linear';
    if (relative >= RELATIVE_RATIO_MAX) linear = false;
    console.log(
      `${kind}: ${ratio.toFixed(2)}, ${relative.toFixed(2)} times the baseline's (${verdict})`,
    );
  }
  if (!linear) process.exitCode = 1;
}

await main();
