// June: the same workloads as JSX, run with run() and its result awaited (events are not read).
import { tool, stepCountIs } from 'ai';
import { Agent, Step, Tool, run } from 'june';
import { z } from 'zod';
import type { Contender, WorkloadRunners } from '../contender.js';
import { benchModel } from '../mock-model.js';
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

/** The runners, built from elements made once (as a user's module would). */
export function juneRunners(options: { stream?: boolean } = {}): WorkloadRunners {
  const lookupTool = tool({
    description: LOOKUP.description,
    inputSchema: z.object({ n: z.number() }),
    execute: lookup,
  });
  const stopWhen = stepCountIs(MAX_TURNS);
  const modelA = benchModel({ role: 'a', toolName: LOOKUP.name, callsPerStep: TOOL_CALLS });
  const modelB = benchModel({ role: 'b' });
  const modelF = benchModel({ role: 'f', toolName: LOOKUP.name, callsPerStep: 1 });
  const inner = benchModel({ role: 'c-inner' });
  const outer = benchModel({
    role: 'c-outer',
    toolName: RESEARCH.name,
    callsPerStep: COMPOSITE_CALLS,
    input: researchInput,
  });

  const oneStep = (
    <Agent model={modelA} instructions={INSTRUCTIONS} stopWhen={stopWhen}>
      <Tool name={LOOKUP.name} value={lookupTool} />
      <Step id="answer" prompt={PROMPT_A} />
    </Agent>
  );
  const steps = (
    <Agent model={modelB} instructions={INSTRUCTIONS} stopWhen={stopWhen}>
      <Tool name={LOOKUP.name} value={lookupTool} />
      {Array.from({ length: STEPS }, (_, i) => (
        <Step id={`s${i + 1}`} prompt={stepPrompt(i)} />
      ))}
    </Agent>
  );
  const toolSteps = (
    <Agent model={modelF} instructions={INSTRUCTIONS} stopWhen={stopWhen}>
      <Tool name={LOOKUP.name} value={lookupTool} />
      {Array.from({ length: STEPS }, (_, i) => (
        <Step id={`s${i + 1}`} prompt={stepPrompt(i)} />
      ))}
    </Agent>
  );
  const composite = (
    <Agent model={outer} instructions={INSTRUCTIONS} stopWhen={stopWhen}>
      <Tool
        name={RESEARCH.name}
        description={RESEARCH.description}
        input={z.object({ question: z.string() })}
      >
        {({ question }: { question: string }) => (
          <Agent model={inner} instructions={INSTRUCTIONS} stopWhen={stopWhen}>
            <Step id="findings" prompt={researchPrompt(question)} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt={PROMPT_C} />
    </Agent>
  );
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
