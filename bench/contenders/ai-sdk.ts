// The floor: what a user writes by hand with the AI SDK (ai@7), streamed (streamText, the
// stream consumed) like June's steps; and the same with generateText, for reference. A call's
// whole history is `responseMessages` (in ai@7 `response.messages` holds only the last step).
// With a baseline build (JUNE_BASELINE), the same floors on the baseline's own `ai` too, so
// the baseline's June can be read over its own floor in the same run.
import { generateText, isStepCount, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { z } from 'zod';
import type { Contender, WorkloadRunners } from '../contender.js';
import { benchModel } from '../mock-model.js';
import {
  baselineBenchModel,
  baselinePackageVersion,
  importBaselinePackage,
  type BenchModelMaker,
} from './baseline.js';
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

type Call = (args: {
  instructions?: string;
  tools?: ToolSet;
  messages: ModelMessage[];
  model: ReturnType<BenchModelMaker>;
}) => Promise<{ text: string; messages: ModelMessage[] }>;

const streamed: Call = async ({ instructions, tools, messages, model }) => {
  const result = streamText({
    model,
    instructions,
    tools,
    messages,
    stopWhen: isStepCount(MAX_TURNS),
  });
  for await (const _part of result.stream);
  return { text: await result.text, messages: await result.responseMessages };
};

const generated: Call = async ({ instructions, tools, messages, model }) => {
  const result = await generateText({
    model,
    instructions,
    tools,
    messages,
    stopWhen: isStepCount(MAX_TURNS),
  });
  return { text: result.text, messages: result.responseMessages };
};

/**
 * What the floor uses of an older `ai` (6: `system`, `stepCountIs`, `fullStream`, and
 * `response.messages`, which there holds every step of the call).
 */
interface OlderAi {
  stepCountIs(count: number): unknown;
  streamText(options: Record<string, unknown>): {
    fullStream: AsyncIterable<unknown>;
    text: PromiseLike<string>;
    response: PromiseLike<{ messages: ModelMessage[] }>;
  };
  generateText(
    options: Record<string, unknown>,
  ): Promise<{ text: string; response: { messages: ModelMessage[] } }>;
}

/** The two floors on the baseline build's own `ai`: ai@7's calls above, or ai@6's. */
async function baselineCalls(): Promise<{ streamed: Call; generated: Call }> {
  const major = Number(baselinePackageVersion('ai').split('.')[0]);
  const loaded = await importBaselinePackage('ai');
  if (major >= 7) {
    const ai = loaded as typeof import('ai');
    return {
      streamed: async ({ instructions, tools, messages, model }) => {
        const result = ai.streamText({
          model,
          instructions,
          tools,
          messages,
          stopWhen: ai.isStepCount(MAX_TURNS),
        });
        for await (const _part of result.stream);
        return { text: await result.text, messages: await result.responseMessages };
      },
      generated: async ({ instructions, tools, messages, model }) => {
        const result = await ai.generateText({
          model,
          instructions,
          tools,
          messages,
          stopWhen: ai.isStepCount(MAX_TURNS),
        });
        return { text: result.text, messages: result.responseMessages };
      },
    };
  }
  const older = loaded as OlderAi;
  return {
    streamed: async ({ instructions, tools, messages, model }) => {
      const result = older.streamText({
        model,
        system: instructions,
        tools,
        messages,
        stopWhen: older.stepCountIs(MAX_TURNS),
      });
      for await (const _part of result.fullStream);
      return { text: await result.text, messages: (await result.response).messages };
    },
    generated: async ({ instructions, tools, messages, model }) => {
      const result = await older.generateText({
        model,
        system: instructions,
        tools,
        messages,
        stopWhen: older.stepCountIs(MAX_TURNS),
      });
      return { text: result.text, messages: result.response.messages };
    },
  };
}

function runners(call: Call, model: BenchModelMaker = benchModel): WorkloadRunners {
  const lookupTool = tool({
    description: LOOKUP.description,
    inputSchema: z.object({ n: z.number() }),
    execute: lookup,
  });
  const tools: ToolSet = { [LOOKUP.name]: lookupTool };
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
  const research = tool({
    description: RESEARCH.description,
    inputSchema: z.object({ question: z.string() }),
    execute: async ({ question }) =>
      (
        await call({
          model: inner,
          instructions: INSTRUCTIONS,
          messages: [{ role: 'user', content: researchPrompt(question) }],
        })
      ).text,
  });
  const sharedSteps = async (stepModel: ReturnType<BenchModelMaker>) => {
    const messages: ModelMessage[] = [];
    let text = '';
    for (let i = 0; i < STEPS; i++) {
      messages.push({ role: 'user', content: stepPrompt(i) });
      const out = await call({ model: stepModel, instructions: INSTRUCTIONS, tools, messages });
      messages.push(...out.messages);
      text = out.text;
    }
    return text;
  };
  return {
    oneStep: async () =>
      (
        await call({
          model: modelA,
          instructions: INSTRUCTIONS,
          tools,
          messages: [{ role: 'user', content: PROMPT_A }],
        })
      ).text,
    steps: () => sharedSteps(modelB),
    toolSteps: () => sharedSteps(modelF),
    composite: async () =>
      (
        await call({
          model: outer,
          instructions: INSTRUCTIONS,
          tools: { [RESEARCH.name]: research },
          messages: [{ role: 'user', content: PROMPT_C }],
        })
      ).text,
  };
}

export const aiSdkStream: Contender = {
  id: 'ai-sdk',
  label: 'AI SDK streamText (floor)',
  packages: ['ai'],
  note: 'streamText with instructions and stopWhen, its stream consumed; (b) and (f) carry responseMessages (every step of the call); (c) the tool runs a nested streamText.',
  load: async () => runners(streamed),
};

export const aiSdkGenerate: Contender = {
  id: 'ai-sdk-generate',
  label: 'AI SDK generateText',
  packages: ['ai'],
  note: 'The same with generateText (doGenerate), for reference.',
  load: async () => runners(generated),
};

export const aiSdkStreamBaseline: Contender = {
  id: 'ai-sdk-baseline',
  label: "AI SDK streamText, the baseline build's ai",
  packages: ['ai'],
  note: "The floor as above on the ai package installed with the JUNE_BASELINE build (bench/baseline.sh), with the bench model in the spec that ai runs (V3 on ai@6, where the call takes system, fullStream is read and response.messages holds every step): the baseline's June over its own floor, in the same run.",
  load: async () => runners((await baselineCalls()).streamed, baselineBenchModel()),
};

export const aiSdkGenerateBaseline: Contender = {
  id: 'ai-sdk-generate-baseline',
  label: "AI SDK generateText, the baseline build's ai",
  packages: ['ai'],
  note: "generateText as above on the baseline build's ai.",
  load: async () => runners((await baselineCalls()).generated, baselineBenchModel()),
};
