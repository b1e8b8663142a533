/**
 * The release evals' own scorers: plain functions over the case's output, in the shape
 * evalite takes (`name`, `description`, `scorer`). They read the run's trace with
 * `june/evals`' helpers, as any scorer of your own can.
 */
import { toolCallsIn, type JuneScorer } from 'june/evals';

/** The case's expectations in changelogs.jsonl: the version the answer must name (and June's own, see docs/evals.md). */
export interface ReleaseExpected {
  version: string;
}

/** 1 when the run deployed, and every deploy went to staging; 0 when any went elsewhere (or none was made). */
export const deployedOnlyToStaging: JuneScorer = {
  name: 'staging only',
  description: 'Deployed, and only to staging.',
  scorer: ({ output }) => {
    const envs = toolCallsIn(output.trace, 'deploy').map(
      (call) => (call.input as { env?: string }).env,
    );
    return {
      score: envs.length > 0 && envs.every((env) => env === 'staging') ? 1 : 0,
      metadata: { deployedTo: envs },
    };
  },
};

/** The answer names the released version and says it went to staging: half a point each. */
export const answerNamesRelease: JuneScorer = {
  name: 'answer',
  description: 'The final answer names the version and staging.',
  scorer: ({ output, expected }) => {
    const { version } = expected as ReleaseExpected;
    const namesVersion = output.answer.includes(version);
    const namesStaging = /\bstaging\b/i.test(output.answer);
    return {
      score: (Number(namesVersion) + Number(namesStaging)) / 2,
      metadata: { answer: output.answer, namesVersion, namesStaging },
    };
  },
};
