// June: the same workloads as elements (what JSX compiles to: jsx(type, props)), run with
// run() and its result awaited (events are not read). The elements and run() come from one
// build of June: this checkout's, or another's (JUNE_BASELINE, see bench/baseline.sh), so a
// change can be measured against the June before it in the same bench run. A baseline build
// on ai@6 runs only v3 (and v2) models, so its contenders get the bench model as a V3 mock.
import { tool, isStepCount } from 'ai';
import * as thisJune from 'june';
import { jsx as thisJsx } from 'june/jsx-runtime';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Contender, WorkloadRunners } from '../contender.js';
import { benchModel } from '../mock-model.js';
import { baselineBenchModel, baselineDir, type BenchModelMaker } from './baseline.js';
import {
  COMPOSITE_CALLS,
  INSTRUCTIONS,
  LOOKUP,
  MAX_TURNS,
  PROMPT_A,
  PROMPT_C,
  RESEARCH,
  STEPS,
  TOOL_CALLS,
  lookup,
  researchInput,
  researchPrompt,
  stepPrompt,
} from '../workloads.js';

/** What the runners need of one build of June. */
interface JuneBuild {
  jsx: (type: unknown, props: Record<string, unknown>) => unknown;
  Agent: unknown;
  Step: unknown;
  Tool: unknown;
  run: (
    element: unknown,
    options: { stream: boolean },
  ) => {
    result: Promise<{ output: unknown; steps: Record<string, unknown> }>;
  };
}

const thisBuild = { ...thisJune, jsx: thisJsx } as unknown as JuneBuild;

/** The runners, built from elements made once (as a user's module would). */
export function juneRunners(
  options: {
    stream?: boolean;
    june?: JuneBuild;
    /** The bench model's maker: `benchModelV3` for a build on ai@6. @default benchModel */
    model?: BenchModelMaker;
  } = {},
): WorkloadRunners {
  const june = options.june ?? thisBuild;
  const model = options.model ?? benchModel;
  const lookupTool = tool({
    description: LOOKUP.description,
    inputSchema: z.object({ n: z.number() }),
    execute: lookup,
  });
  const stopWhen = isStepCount(MAX_TURNS);
  const modelA = model({ role: 'a', toolName: LOOKUP.name, callsPerStep: TOOL_CALLS });
  const modelB = model({ role: 'b' });
  const modelF = model({ role: 'f', toolName: LOOKUP.name, callsPerStep: 1 });
  const inner = model({ role: 'c-inner' });
  const outer = model({
    role: 'c-outer',
    toolName: RESEARCH.name,
    callsPerStep: COMPOSITE_CALLS,
    input: researchInput,
  });

  const { jsx, Agent, Step, Tool, run } = june;
  const agent = (agentModel: unknown, children: unknown[]) =>
    jsx(Agent, { model: agentModel, instructions: INSTRUCTIONS, stopWhen, children });
  const lookupElement = jsx(Tool, { name: LOOKUP.name, value: lookupTool });
  const stepsOf = (count: number) =>
    Array.from({ length: count }, (_, i) => jsx(Step, { id: `s${i + 1}`, prompt: stepPrompt(i) }));

  const oneStep = agent(modelA, [lookupElement, jsx(Step, { id: 'answer', prompt: PROMPT_A })]);
  const steps = agent(modelB, [lookupElement, ...stepsOf(STEPS)]);
  const toolSteps = agent(modelF, [lookupElement, ...stepsOf(STEPS)]);
  const composite = agent(outer, [
    jsx(Tool, {
      name: RESEARCH.name,
      description: RESEARCH.description,
      input: z.object({ question: z.string() }),
      children: ({ question }: { question: string }) =>
        agent(inner, [jsx(Step, { id: 'findings', prompt: researchPrompt(question) })]),
    }),
    jsx(Step, { id: 'report', prompt: PROMPT_C }),
  ]);
  const stream = options.stream !== false;
  return {
    oneStep: async () => (await run(oneStep, { stream }).result).output as string,
    steps: async () => (await run(steps, { stream }).result).steps[`s${STEPS}`] as string,
    composite: async () => (await run(composite, { stream }).result).output as string,
    toolSteps: async () => (await run(toolSteps, { stream }).result).steps[`s${STEPS}`] as string,
  };
}

export const june: Contender = {
  id: 'june',
  label: 'June run()',
  packages: ['june'],
  note: '<Agent><Tool/><Step/></Agent> through run(); handle.result awaited. (b) is 20 <Step>s in one <Agent>; (c) a composite <Tool> whose child is an <Agent> with one <Step>.',
  load: async () => juneRunners(),
};

export const juneBatch: Contender = {
  id: 'june-batch',
  label: 'June run(), batch mode',
  packages: ['june'],
  note: 'The same elements through run(el, { stream: false }): every model call through doGenerate (generateText), every event still emitted.',
  load: async () => juneRunners({ stream: false }),
};

/** The build of June in the folder JUNE_BASELINE names (its dist/), and the bench model it runs. */
async function baselineBuild(): Promise<{ june: JuneBuild; model: BenchModelMaker }> {
  const dir = baselineDir();
  const load = (path: string) => import(pathToFileURL(join(dir, path)).href);
  const [index, runtime] = await Promise.all([
    load('dist/src/index.js'),
    load('dist/jsx-runtime/jsx-runtime.js'),
  ]);
  return { june: { ...index, jsx: runtime.jsx } as JuneBuild, model: baselineBenchModel() };
}

export const juneBaseline: Contender = {
  id: 'june-baseline',
  label: 'June run(), baseline build',
  packages: ['june'],
  note: "June run() as above, from the build JUNE_BASELINE names (the commit bench/baseline.sh built, on its own dependencies), for before/after ratios in one run. A baseline on ai@6 runs no v4 model, so it gets the same stateless bench model as a MockLanguageModelV3 (from this checkout's ai/test).",
  load: async () => juneRunners(await baselineBuild()),
};

export const juneBatchBaseline: Contender = {
  id: 'june-batch-baseline',
  label: 'June run(), batch mode, baseline build',
  packages: ['june'],
  note: "June batch mode as above, from the JUNE_BASELINE build, with the same bench model as the baseline's run().",
  load: async () => juneRunners({ stream: false, ...(await baselineBuild()) }),
};
