// The floor: what a user writes by hand with the AI SDK (ai@7), streamed (streamText, the
// stream consumed) like June's steps; and the same with generateText, for reference. A call's
// whole history is `responseMessages` (in ai@7 `response.messages` holds only the last step).
import { generateText, isStepCount, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
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

type Call = (args: {
  instructions?: string;
  tools?: ToolSet;
  messages: ModelMessage[];
  model: ReturnType<typeof benchModel>;
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

function runners(call: Call): WorkloadRunners {
  const lookupTool = tool({
    description: LOOKUP.description,
    inputSchema: z.object({ n: z.number() }),
    execute: lookup,
  });
  const tools: ToolSet = { [LOOKUP.name]: lookupTool };
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
  const sharedSteps = async (model: ReturnType<typeof benchModel>) => {
    const messages: ModelMessage[] = [];
    let text = '';
    for (let i = 0; i < STEPS; i++) {
      messages.push({ role: 'user', content: stepPrompt(i) });
      const out = await call({ model, instructions: INSTRUCTIONS, tools, messages });
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
