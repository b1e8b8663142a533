// Type-checked, not run: what a project on ai@7 writes fits June's props. Models of every
// specification ai@7 runs, ai@7's tool() (with needsApproval) and Output.object(), and
// @ai-sdk/mcp@2's tools as <Agent tools>.
import type { MCPClient } from '@ai-sdk/mcp';
import type { LanguageModelV2 } from '@ai-sdk/provider';
import { Output, tool } from 'ai';
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';
import { Agent, Step, Tool } from 'june';
import { createOpenAI, openai } from 'june/sdk/openai';
import { z } from 'zod';

declare const v2: LanguageModelV2;
declare const mcpTools: Awaited<ReturnType<MCPClient['tools']>>;

const deploy = tool({
  description: 'Deploy',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  needsApproval: ({ env }) => env === 'prod',
  execute: async ({ env }) => `deployed to ${env}`,
});
const verdict = Output.object({ schema: z.object({ ship: z.boolean() }) });

export const models = [
  <Agent model={new MockLanguageModelV4()} />,
  <Agent model={new MockLanguageModelV3()} />,
  <Agent model={v2} />,
  <Agent model={openai('gpt-5-mini')} />,
  <Agent model={createOpenAI({ baseURL: 'http://localhost:11434/v1' }).chat('llama3.2')} />,
  <Agent model="openai/gpt-5-mini" />,
];

export const workflow = (
  <Agent model={openai('gpt-5-mini')} tools={mcpTools} output={verdict}>
    <Tool name="deploy" value={deploy} />
    <Step id="ship" prompt="Ship?" output={verdict} />
  </Agent>
);

// @ts-expect-error a model is a LanguageModel, not any object
export const bad = <Agent model={{ specificationVersion: 'v9' }} />;
