import { z } from 'zod';
import { resumeFlagsSchema } from './run-flags.js';

// the resume flags are read and written through `june run`'s flag table
export { resumeFlagsSchema, resumeFlagWords } from './run-flags.js';
export type { FlagWord, ResumeFlagValues } from './run-flags.js';

/**
 * How a stopped run is taken up again, as `june run` records it in `process.json`: data that
 * Studio checks and turns into a `june run` of its own (`resume-run.ts`), never a command.
 * - `workflow`: the workflow file, an absolute path inside `cwd`;
 * - `cwd`: the folder the run started in (absolute); its `.june/runs` holds the run;
 * - `flags`: the run's {@link ResumeFlagValues}.
 */
export const resumeDetailsSchema = z.strictObject({
  workflow: z.string().startsWith('/'),
  cwd: z.string().startsWith('/'),
  flags: resumeFlagsSchema,
});

/** See {@link resumeDetailsSchema}. */
export type ResumeDetails = z.infer<typeof resumeDetailsSchema>;
