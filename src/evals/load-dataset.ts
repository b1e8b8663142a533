import { readUserFile } from '../journal/read-user-file.js';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { WorkflowError } from '../errors/index.js';
import type { EvalCase, EvalCaseInput } from './eval-case.js';

/** Options of {@link loadDataset}: schemas each line's `props` and `expected` must pass. */
export interface LoadDatasetOptions<PROPS, EXPECTED> {
  /** Checks (and types) each case's `props`; a line that fails names the field. */
  props?: z.ZodType<PROPS>;
  /** Checks (and types) each case's `expected`. */
  expected?: z.ZodType<EXPECTED>;
}

const lineSchema = z.strictObject({
  $comment: z.string().optional(),
  id: z.string().min(1),
  props: z.record(z.string(), z.json()).optional(),
  expected: z.json().optional(),
  script: z.string().min(1).optional(),
  replay: z.string().min(1).optional(),
  replayTools: z.boolean().optional(),
  approve: z.enum(['all', 'none']).optional(),
  fork: z
    .strictObject({
      from: z.string().min(1),
      at: z.union([z.string().min(1), z.number().int().positive()]),
      result: z.json().optional(),
      answer: z.enum(['approve', 'deny']).optional(),
      output: z.json().optional(),
      model: z.string().min(1).optional(),
      settings: z.record(z.string(), z.json()).optional(),
      allAgents: z.boolean().optional(),
    })
    .optional(),
});

/**
 * Reads a dataset: a JSON Lines file, one case per line, as evalite's `data` takes it
 * (`data: () => loadDataset('changelogs.jsonl')`). Each line is an object:
 *
 * ```json
 * {"id": "patch", "props": {"version": "1.2.1"}, "expected": {"toolsCalled": ["deploy"]}, "script": "scripts/patch.script.json"}
 * ```
 *
 * - `id` (required): the case's name, unique in the file;
 * - `props`: the workflow's props (an object); `expected`: any JSON, for the scorers;
 * - `script` or `replay` (not both): a model script or a recorded run's `journal.jsonl`,
 *   relative to the dataset's folder, that answers the run's model calls; neither: the
 *   workflow's own models;
 * - `replayTools` (with `replay`), `approve` (`all` or `none`), `$comment`.
 *
 * Blank lines are skipped. Any other field is an error, so a typo does not go unnoticed.
 *
 * @param path - the file, absolute or relative to the current directory.
 * @returns the cases in file order, `script` and `replay` made absolute.
 * @throws {WorkflowError} `eval-dataset-unreadable` when the file cannot be read;
 *   `eval-dataset-invalid` naming the file and line when a line is not JSON, a field is wrong
 *   (with its JSON path, e.g. `$.props.version`), an `id` repeats an earlier line's, or the
 *   file has no case.
 * @example
 * ```ts
 * evalite('release', {
 *   data: () => loadDataset('examples/evals/changelogs.jsonl'),
 *   task: workflowTask(Release),
 *   scorers: [toolsCalled(['deploy'])],
 * });
 * ```
 */
export async function loadDataset<
  PROPS extends Record<string, unknown> = Record<string, unknown>,
  EXPECTED = unknown,
>(
  path: string,
  options: LoadDatasetOptions<PROPS, EXPECTED> = {},
): Promise<EvalCase<PROPS, EXPECTED>[]> {
  const { text, shown } = await readUserFile(
    path,
    (name, problem, cause) =>
      new WorkflowError(
        'eval-dataset-unreadable',
        `june: cannot read the dataset ${name}: ${problem}. Check the path; a relative path is read from the current directory.`,
        { cause },
      ),
  );
  const folder = dirname(resolve(path));
  const cases: EvalCase<PROPS, EXPECTED>[] = [];
  const lineOfId = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    const at = `${shown}, line ${index + 1}`;
    const line = parseLine(raw, at);
    const earlier = lineOfId.get(line.id);
    if (earlier !== undefined) {
      throw invalid(
        `${at}: the id "${line.id}" is already the id of line ${earlier}. Give each case its own id: results are compared by it.`,
      );
    }
    lineOfId.set(line.id, index + 1);
    // a replay without props takes the recorded run's, read when the case runs
    const ownProps =
      line.props !== undefined || (line.replay === undefined && line.fork === undefined);
    const props = ownProps ? check(options.props, line.props ?? {}, '$.props', at) : undefined;
    const expected = check(options.expected, line.expected, '$.expected', at);
    const input: EvalCaseInput<PROPS> = {
      id: line.id,
      ...(props !== undefined ? { props } : {}),
      ...(line.script !== undefined ? { script: resolve(folder, line.script) } : {}),
      ...(line.replay !== undefined ? { replay: resolve(folder, line.replay) } : {}),
      ...(line.replayTools !== undefined ? { replayTools: line.replayTools } : {}),
      ...(line.approve !== undefined ? { approve: line.approve } : {}),
      ...(line.fork !== undefined ? { fork: line.fork as EvalCaseInput['fork'] & {} } : {}),
    };
    cases.push({ input, ...(expected !== undefined ? { expected } : {}) });
  }
  if (cases.length === 0) {
    throw invalid(
      `june: the dataset ${shown} has no case: write one JSON object per line, such as {"id": "first", "props": {}}.`,
    );
  }
  return cases;
}

function parseLine(raw: string, at: string): z.infer<typeof lineSchema> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw invalid(
      `${at} is not valid JSON: ${(error as Error).message}. Each line is one JSON object.`,
      error,
    );
  }
  const parsed = lineSchema.safeParse(value);
  if (!parsed.success) throw invalid(`${at}: ${issueText(parsed.error)}.`);
  const line = parsed.data;
  if (line.script !== undefined && line.replay !== undefined) {
    throw invalid(
      `${at}: a case takes "script" or "replay", not both: a script answers the model calls from its turns, a replay from a recorded run.`,
    );
  }
  if (line.fork !== undefined && line.replay !== undefined) {
    throw invalid(
      `${at}: a case takes "fork" or "replay", not both: a fork replays its recorded run up to the fork point and runs the rest live.`,
    );
  }
  if (line.fork !== undefined) forkChangeOf(line.fork, at);
  if (line.replayTools !== undefined && line.replay === undefined) {
    throw invalid(`${at}: "replayTools" goes with "replay"; add the recording or remove it.`);
  }
  return line;
}

function check<T>(schema: z.ZodType<T> | undefined, value: unknown, path: string, at: string): T {
  if (!schema) return value as T;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(`${at}: ${issueText(parsed.error, path)}.`);
  return parsed.data;
}

/** The first issue, as `$.field.path: message` (or `field: message` for an unknown field). */
function issueText(error: z.ZodError, base = '$'): string {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    return `unknown field ${issue.keys.map((key) => `"${key}"`).join(', ')} (a case has id, props, expected, script, replay, replayTools, approve, fork and $comment)`;
  }
  const path = issue.path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    base,
  );
  return `${path}: ${issue.message}`;
}

function invalid(message: string, cause?: unknown): WorkflowError {
  return new WorkflowError(
    'eval-dataset-invalid',
    message.startsWith('june: ') ? message : `june: the dataset ${message}`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * The one change a fork case makes, checked.
 * @throws {WorkflowError} `eval-dataset-invalid` with none, or more than one.
 */
function forkChangeOf(fork: Record<string, unknown>, at: string): void {
  // another model and other settings are one change of the model call: they go together
  const given = ['result', 'answer', 'output', 'model', 'settings'].filter(
    (key) => fork[key] !== undefined,
  );
  const modelChange = given.every((key) => key === 'model' || key === 'settings');
  if (given.length === 1 || (given.length === 2 && modelChange)) {
    if (fork.allAgents === undefined || modelChange) return;
    throw invalid(
      `${at}: "allAgents" goes with a fork's "model" or "settings", which it gives every agent; leave it out with "${given[0]}".`,
    );
  }
  throw invalid(
    `${at}: a "fork" makes one change at its record: one of "result", "answer", "output", and "model" with or without "settings"${given.length ? `, not ${given.map((key) => `"${key}"`).join(' and ')}` : ''}.`,
  );
}
