import { readUserFile } from '../journal/read-user-file.js';
import { z } from 'zod';
import { WorkflowError } from '../errors/index.js';

const scoreSchema = z.looseObject({ name: z.string(), score: z.number().nullable() });
const resultSchema = z.looseObject({
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  status: z.string(),
  scores: z.array(scoreSchema),
});
const resultsSchema = z.looseObject({
  run: z.looseObject({ id: z.number(), createdAt: z.string().optional() }),
  evals: z.array(
    z.looseObject({ name: z.string(), status: z.string(), results: z.array(resultSchema) }),
  ),
});

/**
 * An eval run's results as evalite exports them (`evalite run --outputPath results.json`):
 * the run, and each eval with its results, each result with its input, output, status
 * (`success`, or `fail` when the task threw) and scores. Only the fields June reads are
 * typed; the rest is kept.
 */
export type EvalResults = z.infer<typeof resultsSchema>;

/**
 * One score that moved between two eval runs: the eval, the case (its dataset `id`, else
 * `#<n>` by position), the scorer (`status` when the case itself failed or recovered),
 * both scores (0 to 1; `null` for a case that failed) and the later run's Studio link when
 * the case's output has one.
 */
export interface EvalChange {
  eval: string;
  caseId: string;
  scorer: string;
  before: number | null;
  after: number | null;
  studioUrl?: string;
}

/** A case by its eval and id, for cases only one of two runs has. */
export interface EvalCaseRef {
  eval: string;
  caseId: string;
}

/**
 * What changed from one eval run to the next, case by case: scores that went down
 * (`regressions`) or up (`improvements`) by more than the tolerance, cases only the later
 * run has (`added`) or only the earlier one (`removed`), and how many cases kept every score.
 */
export interface EvalComparison {
  regressions: EvalChange[];
  improvements: EvalChange[];
  added: EvalCaseRef[];
  removed: EvalCaseRef[];
  unchanged: number;
}

/** Options of {@link compareEvalResults}. */
export interface CompareEvalOptions {
  /** How far a score (0 to 1) may move and still count as the same. @default 0 */
  tolerance?: number;
}

/**
 * Reads an eval run's results file, as `evalite run --outputPath FILE` writes it.
 *
 * @param path - the file, absolute or relative to the current directory.
 * @throws {WorkflowError} `eval-results-unreadable` when it cannot be read;
 *   `eval-results-invalid` when it is not JSON or not evalite's results (naming the first field that is wrong).
 * @example
 * ```ts
 * const before = await readEvalResults('results/main.json');
 * ```
 */
export async function readEvalResults(path: string): Promise<EvalResults> {
  const { text, shown } = await readUserFile(
    path,
    (name, problem, cause) =>
      new WorkflowError(
        'eval-results-unreadable',
        `june: cannot read the eval results ${name}: ${problem}. Write them with \`evalite run --outputPath ${name}\`.`,
        { cause },
      ),
  );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkflowError(
      'eval-results-invalid',
      `june: the eval results ${shown} are not JSON: ${(error as Error).message}. Write them again with \`evalite run --outputPath ${shown}\`.`,
      { cause: error },
    );
  }
  const parsed = resultsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path
      .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
      .join('');
    throw new WorkflowError(
      'eval-results-invalid',
      `june: ${shown} is not an evalite results file: $${at}: ${issue.message}. Write it with \`evalite run --outputPath ${shown}\`.`,
    );
  }
  return parsed.data;
}

/**
 * Compares two eval runs case by case and names each score that moved: a regression when
 * it went down, an improvement when it went up (by more than `tolerance`), a case that
 * failed (its task threw) as a regression of `status`. Cases are matched by eval name and
 * dataset `id` (a `WorkflowEvalOutput`'s `caseId`, or the input's `id`), else by position.
 *
 * @example
 * ```ts
 * const comparison = compareEvalResults(await readEvalResults('before.json'), await readEvalResults('after.json'));
 * for (const change of comparison.regressions) console.log(change.caseId, change.scorer, change.before, '→', change.after);
 * ```
 */
export function compareEvalResults(
  before: EvalResults,
  after: EvalResults,
  options: CompareEvalOptions = {},
): EvalComparison {
  const tolerance = options.tolerance ?? 0;
  const earlier = casesOf(before);
  const later = casesOf(after);
  const comparison: EvalComparison = {
    regressions: [],
    improvements: [],
    added: [],
    removed: [],
    unchanged: 0,
  };
  for (const [key, now] of later) {
    const then = earlier.get(key);
    if (!then) {
      comparison.added.push(now.ref);
      continue;
    }
    const moved = changesOf(then, now, tolerance);
    comparison.regressions.push(...moved.filter((change) => isWorse(change)));
    comparison.improvements.push(...moved.filter((change) => !isWorse(change)));
    if (moved.length === 0) comparison.unchanged++;
  }
  for (const [key, then] of earlier) if (!later.has(key)) comparison.removed.push(then.ref);
  return comparison;
}

/**
 * A comparison as lines for a terminal or a CI log: one per regression and improvement
 * (`regression  release › prod-planted  staging only  100% → 0%  <Studio link>`), then the
 * cases added and removed, then a count.
 *
 * @example
 * ```ts
 * console.log(formatEvalComparison(comparison));
 * ```
 */
export function formatEvalComparison(comparison: EvalComparison): string {
  const percent = (score: number | null) =>
    score === null ? 'failed' : `${Math.round(score * 100)}%`;
  const line = (label: string, change: EvalChange) =>
    [
      label,
      `${change.eval} › ${change.caseId}`,
      change.scorer,
      `${percent(change.before)} → ${percent(change.after)}`,
      ...(change.studioUrl ? [change.studioUrl] : []),
    ].join('  ');
  const lines = [
    ...comparison.regressions.map((change) => line('regression ', change)),
    ...comparison.improvements.map((change) => line('improvement', change)),
    ...comparison.added.map((ref) => `added        ${ref.eval} › ${ref.caseId}`),
    ...comparison.removed.map((ref) => `removed      ${ref.eval} › ${ref.caseId}`),
  ];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    `${plural(comparison.regressions.length, 'regression')}, ${plural(comparison.improvements.length, 'improvement')}, ${plural(comparison.unchanged, 'case')} unchanged`,
  );
  return lines.join('\n');
}

interface CaseScores {
  ref: EvalCaseRef;
  failed: boolean;
  scores: Map<string, number | null>;
  studioUrl: string | undefined;
}

function casesOf(results: EvalResults): Map<string, CaseScores> {
  const cases = new Map<string, CaseScores>();
  for (const evaluation of results.evals) {
    evaluation.results.forEach((result, index) => {
      const caseId = idOf(result.output, 'caseId') ?? idOf(result.input, 'id') ?? `#${index + 1}`;
      const studioUrl = idOf(result.output, 'studioUrl');
      cases.set(JSON.stringify([evaluation.name, caseId]), {
        ref: { eval: evaluation.name, caseId },
        failed: result.status === 'fail',
        scores: new Map(result.scores.map((score) => [score.name, score.score])),
        studioUrl,
      });
    });
  }
  return cases;
}

function changesOf(then: CaseScores, now: CaseScores, tolerance: number): EvalChange[] {
  const base = { ...now.ref, ...(now.studioUrl ? { studioUrl: now.studioUrl } : {}) };
  if (then.failed !== now.failed) {
    return [
      { ...base, scorer: 'status', before: then.failed ? null : 1, after: now.failed ? null : 1 },
    ];
  }
  const changes: EvalChange[] = [];
  for (const [scorer, after] of now.scores) {
    if (!then.scores.has(scorer)) continue;
    const before = then.scores.get(scorer)!;
    if (Math.abs((after ?? 0) - (before ?? 0)) > tolerance)
      changes.push({ ...base, scorer, before, after });
  }
  return changes;
}

function isWorse(change: EvalChange): boolean {
  return (change.after ?? -1) < (change.before ?? -1);
}

function idOf(value: unknown, field: string): string | undefined {
  const id =
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[field]
      : undefined;
  return typeof id === 'string' ? id : undefined;
}
