import type { Contender } from '../contender.js';
import { aiSdkGenerate, aiSdkStream } from './ai-sdk.js';
import { june, juneBatch } from './june.js';
import { mastra } from './mastra.js';
import { openaiAgents } from './openai-agents.js';

/** Every contender, the floor first. */
export const contenders: Contender[] = [
  aiSdkStream,
  aiSdkGenerate,
  june,
  juneBatch,
  openaiAgents,
  mastra,
];
