import type { Contender } from '../contender.js';
import {
  aiSdkGenerate,
  aiSdkGenerateBaseline,
  aiSdkStream,
  aiSdkStreamBaseline,
} from './ai-sdk.js';
import { june, juneBaseline, juneBatch, juneBatchBaseline } from './june.js';
import { mastra } from './mastra.js';
import { openaiAgents } from './openai-agents.js';

/**
 * Every contender, the floor first. The baseline builds of June, and the floors on the
 * baseline's own `ai`, join when JUNE_BASELINE names one (bench/baseline.sh).
 */
export const contenders: Contender[] = [
  aiSdkStream,
  aiSdkGenerate,
  june,
  juneBatch,
  ...(process.env.JUNE_BASELINE
    ? [aiSdkStreamBaseline, aiSdkGenerateBaseline, juneBaseline, juneBatchBaseline]
    : []),
  openaiAgents,
  mastra,
];
