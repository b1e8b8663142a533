import type { RunFlagValues } from '../host/run-flags.js';

/**
 * The options of {@link runCommand} (`june run <file>` without `--database`): its flags as
 * commander parses them, one property per flag of the flag table (`src/host/run-flags.ts`),
 * where each flag's meaning is written.
 */
export type RunCommandOptions = Omit<RunFlagValues, 'database' | 'follow'>;
