import type { WorkflowEvalOutput } from './eval-output.js';

/** A column of evalite's results table and UI: a label and what the case shows under it. */
export interface EvalColumn {
  label: string;
  value: unknown;
}

/** What evalite hands a `columns` function for one case (the part June's columns read). */
export interface EvalColumnInput {
  input: unknown;
  output: WorkflowEvalOutput;
  scores: ReadonlyArray<{ name: string; score: number | null }>;
}

/**
 * Columns for evalite's `columns` option that show each case by its June run: the case's
 * id, each score by name (`staging only 100%`, one per line), and a link to the run in June
 * Studio (`[<runId>](http://127.0.0.1:4000/#/runs/<runId>)`, Markdown the eval UI shows as a
 * link; the trace file's path when the task has no Studio link). Evalite prints the same
 * columns in its terminal table and keeps them with each result in its data.
 *
 * @example
 * ```ts
 * evalite('release', { data, task, scorers, columns: juneColumns() });
 * ```
 */
export function juneColumns(): (input: EvalColumnInput) => EvalColumn[] {
  return ({ output, scores }) => [
    { label: 'Case', value: output.caseId },
    {
      label: 'Scores',
      value: scores
        .map((score) => `${score.name} ${Math.round((score.score ?? 0) * 100)}%`)
        .join('\n'),
    },
    {
      label: 'June trace',
      value: output.studioUrl ? `[${output.runId}](${output.studioUrl})` : output.traceFile,
    },
  ];
}
