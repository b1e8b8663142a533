// The OpenAI Agents SDK, given the same mock through its AI SDK adapter, aisdk(). Runs are
// streamed (the stream consumed), like June's steps. Traces are still built, but not exported
// (no processors: offline, as June keeps its trace in memory).
import type { AgentInputItem } from '@openai/agents';
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

export const openaiAgents: Contender = {
  id: 'openai-agents',
  label: 'OpenAI Agents SDK',
  packages: ['@openai/agents', '@openai/agents-extensions'],
  note: 'Agent + run(agent, input, { stream: true }) with aisdk(model), events consumed, traces built but not exported (setTraceProcessors([])); (b) carries result.history; (c) inner agent asTool({ parameters, onStream }) so the nested run streams too. @openai/agents 0.20 (its openai dependency needs node >=22); @openai/agents-extensions is at its latest, 0.18, whose aisdk() takes ai@7 and v4 models and makes its spans and errors through the @openai/agents it is given (0.20), so traces stay in one @openai/agents-core.',
  load: async () => {
    const { Agent, run, tool, setTraceProcessors, user } = await import('@openai/agents');
    const { aisdk } = await import('@openai/agents-extensions/ai-sdk');
    const { z } = await import('zod');
    setTraceProcessors([]);

    const lookupTool = tool({
      name: LOOKUP.name,
      description: LOOKUP.description,
      parameters: z.object({ n: z.number() }),
      execute: lookup,
    });
    const agentA = new Agent({
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: aisdk(benchModel({ role: 'a', toolName: LOOKUP.name, callsPerStep: TOOL_CALLS })),
      tools: [lookupTool],
    });
    const agentB = new Agent({
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: aisdk(benchModel({ role: 'b' })),
      tools: [lookupTool],
    });
    const agentF = new Agent({
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: aisdk(benchModel({ role: 'f', toolName: LOOKUP.name, callsPerStep: 1 })),
      tools: [lookupTool],
    });
    const inner = new Agent({
      name: 'researcher',
      instructions: INSTRUCTIONS,
      model: aisdk(benchModel({ role: 'c-inner' })),
    });
    const research = inner.asTool({
      toolName: RESEARCH.name,
      toolDescription: RESEARCH.description,
      parameters: z.object({ question: z.string() }),
      inputBuilder: ({ params }) => researchPrompt((params as { question: string }).question),
      onStream: () => {},
    });
    const outer = new Agent({
      name: 'agent',
      instructions: INSTRUCTIONS,
      model: aisdk(
        benchModel({
          role: 'c-outer',
          toolName: RESEARCH.name,
          callsPerStep: COMPOSITE_CALLS,
          input: researchInput,
        }),
      ),
      tools: [research],
    });

    const streamed = async (agent: typeof agentA, input: string | AgentInputItem[]) => {
      const result = await run(agent, input, { stream: true, maxTurns: MAX_TURNS });
      for await (const _event of result);
      await result.completed;
      return result;
    };
    const sharedSteps = async (agent: typeof agentA) => {
      let history: AgentInputItem[] = [];
      let text = '';
      for (let i = 0; i < STEPS; i++) {
        const result = await streamed(agent, [...history, user(stepPrompt(i))]);
        history = result.history;
        text = String(result.finalOutput);
      }
      return text;
    };
    const runners: WorkloadRunners = {
      oneStep: async () => String((await streamed(agentA, PROMPT_A)).finalOutput),
      steps: () => sharedSteps(agentB),
      toolSteps: () => sharedSteps(agentF),
      composite: async () => String((await streamed(outer, PROMPT_C)).finalOutput),
    };
    return runners;
  },
};
