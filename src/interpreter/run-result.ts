import type { LanguageModelUsage } from 'ai';
import type { Trace } from '../trace/trace-node.js';

/** What a finished run gives: every step's result, the output, token usage (all model calls, child runs included) and the trace. */
export interface RunResult<OUTPUT = unknown> {
  steps: Record<string, unknown>;
  output: OUTPUT;
  usage: LanguageModelUsage;
  trace: Trace;
}
