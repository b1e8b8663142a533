import type { RunFlagValues } from '../host/run-flags.js';

/** `june fork`'s own flags and the run flags it takes, as commander parses them. */
export interface ForkFlagValues extends Omit<
  RunFlagValues,
  'resume' | 'runId' | 'waitForOwner' | 'replay' | 'replayTools'
> {
  at?: string;
  result?: string;
  answer?: string;
  reason?: string;
  output?: string;
  model?: string;
  settings?: string;
  allAgents?: boolean;
  start?: boolean;
}
