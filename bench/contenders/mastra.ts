// Mastra's Agent, given the same mock (Mastra takes LanguageModelV4 models as they are).
// Runs are streamed (agent.stream, fullStream consumed), without memory or storage.
import type { Agent as MastraAgent } from '@mastra/core/agent';
import type { Contender, WorkloadRunners } from '../contender.js';
import { benchModel as mockModel } from '../mock-model.js';
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

/**
 * The bench's mock as Mastra's `model` option. Mastra's types come from its own copies of
 * the provider specifications (`@ai-sdk/provider-v6`/`-v7`), which `ai/test`'s mock (of the
 * tree's `@ai-sdk/provider@4`) does not match by type (its V4 mock types `doGenerate` as Mastra's
 * types do not expect); at run time Mastra takes it as it is.
 */
type MastraModel = ConstructorParameters<typeof MastraAgent>[0]['model'];
const benchModel = (options: Parameters<typeof mockModel>[0]): MastraModel =>
  mockModel(options) as unknown as MastraModel;

export const mastra: Contender = {
  id: 'mastra',
  label: 'Mastra Agent',
  packages: ['@mastra/core'],
  note: 'new Agent({ model, tools }) + agent.stream(messages, { maxSteps }), fullStream consumed, no memory/storage; (b) carries the response messages; (c) a createTool whose execute streams a nested Agent. @mastra/core 1.x (engines node >=22.13) takes the LanguageModelV4 mock as it is.',
  load: async () => {
    const { Agent } = await import('@mastra/core/agent');
    const { createTool } = await import('@mastra/core/tools');
    const { z } = await import('zod');

    const lookupTool = createTool({
      id: LOOKUP.name,
      description: LOOKUP.description,
      inputSchema: z.object({ n: z.number() }),
      execute: async (input) => lookup(input),
    });
    const agentA = new Agent({
      id: 'agent-a',
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: benchModel({ role: 'a', toolName: LOOKUP.name, callsPerStep: TOOL_CALLS }),
      tools: { [LOOKUP.name]: lookupTool },
    });
    const agentB = new Agent({
      id: 'agent-b',
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: benchModel({ role: 'b' }),
      tools: { [LOOKUP.name]: lookupTool },
    });
    const agentF = new Agent({
      id: 'agent-f',
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: benchModel({ role: 'f', toolName: LOOKUP.name, callsPerStep: 1 }),
      tools: { [LOOKUP.name]: lookupTool },
    });
    const inner = new Agent({
      id: 'researcher',
      name: 'researcher',
      instructions: INSTRUCTIONS,
      model: benchModel({ role: 'c-inner' }),
    });

    // Typed loosely: Mastra's Agent generics differ per agent (id, tools).
    type Streams = {
      stream(
        messages: unknown,
        options: { maxSteps: number },
      ): Promise<{
        fullStream: AsyncIterable<unknown>;
        text: Promise<string>;
        response: Promise<{ messages?: unknown[] }>;
      }>;
    };
    const streamed = async (agent: unknown, messages: unknown) => {
      const output = await (agent as Streams).stream(messages, { maxSteps: MAX_TURNS });
      for await (const _chunk of output.fullStream);
      return output;
    };
    const research = createTool({
      id: RESEARCH.name,
      description: RESEARCH.description,
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => (await streamed(inner, researchPrompt(question))).text,
    });
    const outer = new Agent({
      id: 'agent-c',
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: benchModel({
        role: 'c-outer',
        toolName: RESEARCH.name,
        callsPerStep: COMPOSITE_CALLS,
        input: researchInput,
      }),
      tools: { [RESEARCH.name]: research },
    });

    const sharedSteps = async (agent: unknown) => {
      const messages: unknown[] = [];
      let text = '';
      for (let i = 0; i < STEPS; i++) {
        messages.push({ role: 'user', content: stepPrompt(i) });
        const output = await streamed(agent, messages);
        messages.push(...((await output.response).messages ?? []));
        text = await output.text;
      }
      return text;
    };
    const runners: WorkloadRunners = {
      oneStep: async () => (await streamed(agentA, PROMPT_A)).text,
      steps: () => sharedSteps(agentB),
      toolSteps: () => sharedSteps(agentF),
      composite: async () => (await streamed(outer, PROMPT_C)).text,
    };
    return runners;
  },
};
