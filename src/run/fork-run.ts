import { WorkflowError } from '../errors/june-error.js';
import { newRunId } from '../engine/run-id.js';
import type { RunFork, WorkflowRunOptions } from '../interpreter/workflow-run-options.js';

/** A model, as `run()`'s `model` option takes it (an AI SDK model, or a model id). */
type LanguageModel = NonNullable<WorkflowRunOptions['model']>;
import {
  findForkPoint,
  forkJournal,
  forkPoints,
  redactedPaths,
  sameAsRecorded,
  type ForkPoint,
} from '../journal/fork-journal.js';
import type {
  ForkChangeRecord,
  ForkedFrom,
  JournalHeader,
  JournalRecord,
} from '../journal/journal-record.js';
import type { JournalStore } from '../journal/journal-store.js';

export type { ForkPoint, ForkedFrom };
import { readRunJournal } from '../journal/read-run-journal.js';
import { modelIdentity } from '../models/model-identity.js';
import { MODEL_CALL_SETTINGS, type ModelCallSettings } from '../models/settings-from.js';

/**
 * The one change a fork makes at its fork point:
 * - `result`: at a tool execution, the result the tool gives instead (the tool does not run);
 * - `answer`: at an approval, the answer given instead (`'approve'`, `'deny'`, or a boolean),
 *   with an optional `reason`;
 * - `output`: at a model call, the model's answer instead (a string, or an object as JSON
 *   text); at a `<Question>`, the answer given instead; at a tool's approval, the result
 *   given instead of the tool (the tool does not run);
 * - `model`: at a model call, the model that makes it and every later call of the agent that
 *   made it (with `allAgents`, of every agent): that call runs live;
 * - `settings`: at a model call, the call settings (`temperature`, `maxOutputTokens`, ...)
 *   of that call and every later call of the agent that made it (with `allAgents`, of every
 *   step that starts after it too), with or without another `model`: that call runs live,
 *   and the calls before it keep their recorded requests.
 */
export type ForkChange =
  | { result: unknown }
  | { answer: 'approve' | 'deny' | boolean; reason?: string }
  | { output: unknown }
  | { model: LanguageModel; settings?: ModelCallSettings; allAgents?: boolean }
  | { settings: ModelCallSettings; model?: LanguageModel; allAgents?: boolean };

/** Options of {@link forkRun}. */
export interface ForkRunOptions {
  /** The record to fork at: its name (`tool research#0.0/findings#0.0`) or its number (see `forkPoints`). */
  at: string | number;
  /** The one change at that record. */
  change: ForkChange;
  /** The fork's run id. @default a new one */
  runId?: string;
  /**
   * The root component's props for the fork. @default the recorded run's, which must not
   * hold a redacted value (`[redacted]`): give them again here when they do.
   */
  props?: Record<string, unknown>;
}

/**
 * A fork made by {@link forkRun}, its journal stored and ready to run: pass `options` to
 * `run()` with the same workflow (`run(<Release />, { ...fork.options, onApproval })`).
 */
export interface Fork {
  /** The fork's run id. */
  runId: string;
  /** Its lineage, as its journal header and trace carry it. */
  forkedFrom: ForkedFrom;
  /** The record it was forked at. */
  point: ForkPoint;
  /** The recorded run's workflow (for `june run`, its file), which the fork runs. */
  workflow?: string;
  /** How many recorded model calls, tool executions and approvals its run replays. */
  replayed: number;
  /** What runs live after the fork point, in words (the original run's records after it). */
  live: string;
  /**
   * The change is what the record holds already (`answer: 'approve'` at a call that was
   * approved, the same result, answer or text): the fork changes nothing there, and runs
   * live what came after it with the same facts. Another model or settings never are.
   */
  unchanged: boolean;
  /** The options that make `run()` run the fork: its journal, resumed, its props, its lineage and model. */
  options: {
    journal: JournalStore;
    resume: string;
    props?: Record<string, unknown>;
    fork: RunFork;
  };
}

/**
 * Forks the recorded run `runId` in `store` at one of its records, with one change there
 * (see {@link ForkChange}): stores a new run's journal holding the recorded records up to
 * the fork point (the outermost run's and its child runs': composite tools, `defineAgent`
 * agents) and the changed record, with `forkedFrom` in its header. Running it with `run()`
 * and `fork.options` replays that prefix with no model call and no tool execution (approvals
 * answered as recorded), and runs everything after the fork point live: model calls, tools
 * with their effects, approvals asked again. A workflow that changed since the recording
 * fails at the first record that no longer fits, with `journal-mismatch`, before anything
 * runs there.
 *
 * A fork of a fork keeps the chain (`forkedFrom.forkedFrom`). A run stopped at an approval
 * forks like any other (at that approval, with an answer, or at an earlier record).
 *
 * @throws {WorkflowError} `journal-missing` (no such run), `fork-record-unknown` (no such
 *   record), `fork-change-invalid` (a change that does not fit the record), `fork-redacted`
 *   (the recorded props hold a redacted value and `props` was not given), `journal-exists`
 *   (a `runId` that has a journal).
 * @example
 * ```tsx
 * const fork = await forkRun(store, 'r1', { at: 'tool release#0.0', change: { result: { ok: false } } });
 * const { output } = await run(<Release />, { ...fork.options, onApproval: () => true }).result;
 * ```
 */
export async function forkRun(
  store: JournalStore,
  runId: string,
  options: ForkRunOptions,
): Promise<Fork> {
  const records = await readRunJournal(store, runId);
  const header = records[0] as JournalHeader;
  const points = forkPoints(records);
  const point = findForkPoint(points, options.at);
  const props = options.props ?? header.props;
  if (options.props === undefined) refuseRedacted(header);
  const change = changeRecord(options.change);
  const forkId = options.runId ?? newRunId();
  const forked = forkJournal(records, { runId: forkId, at: point.name, change });
  const first = forked[0] as JournalHeader;
  await store.create(forkId, first);
  for (const record of forked.slice(1)) await store.append(forkId, record);
  const model = 'model' in options.change ? options.change.model : undefined;
  return {
    runId: forkId,
    forkedFrom: first.forkedFrom!,
    point,
    ...(header.workflow !== undefined ? { workflow: header.workflow } : {}),
    replayed: forkPoints(forked).length - (change.kind === 'model' ? 0 : 1),
    live: liveWords(points, point, change),
    unchanged: sameAsRecorded(point, change),
    options: {
      journal: store,
      resume: forkId,
      ...(props !== undefined ? { props } : {}),
      fork: runForkOf(first.forkedFrom!, model),
    },
  };
}

/** What a fork would be, from {@link forkPlan}: nothing is stored. */
export interface ForkPlan {
  /** The record it would fork at. */
  point: ForkPoint;
  /** The recorded run's workflow, which the fork runs. */
  workflow?: string;
  /** How many recorded model calls, tool executions and approvals its run would replay. */
  replayed: number;
  /** What would run live after the fork point, in words (as {@link Fork.live}). */
  live: string;
}

/**
 * What {@link forkRun} would make of the same arguments, checked as it checks them, with
 * nothing stored: for saying what runs live before a fork starts (Studio's fork form).
 *
 * @throws {WorkflowError} what {@link forkRun} throws, `journal-exists` aside.
 * @example
 * ```ts
 * const plan = await forkPlan(store, 'r1', { at: 3, change: { answer: 'deny' } });
 * console.log(plan.live);
 * ```
 */
export async function forkPlan(
  store: JournalStore,
  runId: string,
  options: Pick<ForkRunOptions, 'at' | 'change' | 'props'>,
): Promise<ForkPlan> {
  const records = await readRunJournal(store, runId);
  const header = records[0] as JournalHeader;
  const points = forkPoints(records);
  const point = findForkPoint(points, options.at);
  if (options.props === undefined) refuseRedacted(header);
  const change = changeRecord(options.change);
  const forked = forkJournal(records, { runId: `${runId}-plan`, at: point.name, change });
  return {
    point,
    ...(header.workflow !== undefined ? { workflow: header.workflow } : {}),
    replayed: forkPoints(forked).length - (change.kind === 'model' ? 0 : 1),
    live: liveWords(points, point, change),
  };
}

/**
 * The records the run `runId` in `store` may be forked at, in the order they were recorded
 * (see `forkPoints`).
 *
 * @throws {WorkflowError} `journal-missing` when the run has no journal there.
 * @example
 * ```ts
 * for (const point of await runForkPoints(store, 'r1')) console.log(point.n, point.name);
 * ```
 */
export async function runForkPoints(store: JournalStore, runId: string): Promise<ForkPoint[]> {
  return forkPoints(await readRunJournal(store, runId));
}

/**
 * The `fork` option of `run()` for a fork's journal taken up again (a fork that stopped at
 * an approval, resumed): its lineage from its header, and its changed model (`model`, when
 * the change was another model: the recorded header keeps only its id; a model id string
 * is used as it is when none is given). `undefined` for a journal that is not a fork's.
 *
 * @example
 * ```tsx
 * const fork = forkOf(await store.read(runId));
 * run(<Release />, { journal: store, resume: runId, ...(fork ? { fork } : {}) });
 * ```
 */
export function forkOf(
  records: readonly JournalRecord[],
  model?: LanguageModel,
): RunFork | undefined {
  const header = records[0];
  if (header?.type !== 'journal' || !header.forkedFrom) return undefined;
  return runForkOf(header.forkedFrom, model);
}

/**
 * The `fork` option of `run()` for a fork of lineage `forkedFrom` (see {@link forkOf}): the
 * lineage, and, when the change was another model, that model (`model`, else its recorded id)
 * from the changed call's step on. A worker over the database runs a queued fork with it.
 */
export function runForkOf(forkedFrom: ForkedFrom, model?: LanguageModel): RunFork {
  const change = forkedFrom.change;
  if (change.kind !== 'model') return { forkedFrom };
  const named = parseModelName(forkedFrom.record);
  const at = named && { step: named.step, ...(named.calls ? { calls: named.calls } : {}) };
  const chosen = model ?? change.model;
  return {
    forkedFrom,
    ...(chosen !== undefined
      ? { model: { model: chosen, ...(change.allAgents || !at ? {} : { at }) } }
      : {}),
    ...(change.settings && named
      ? {
          settings: {
            settings: change.settings,
            at: named,
            ...(change.allAgents ? { allAgents: true } : {}),
          },
        }
      : {}),
  };
}

/** The step path, composite calls and index of a model call's record name (`model a#0.0/b:c #2`). */
function parseModelName(
  name: string,
): { step: string; calls?: string[]; index: number } | undefined {
  const match = /^model (.*) #(\d+)$/.exec(name);
  if (!match) return undefined;
  const parts = match[1]!.split('/');
  const step = parts.pop()!;
  const index = Number(match[2]);
  return parts.length ? { step, calls: parts, index } : { step, index };
}

/** The change as the fork's journal keeps it. */
export function changeRecord(change: ForkChange): ForkChangeRecord {
  if ('result' in change) return { kind: 'result', result: change.result };
  if ('answer' in change) {
    const approved = change.answer === true || change.answer === 'approve';
    if (!approved && change.answer !== false && change.answer !== 'deny')
      throw new WorkflowError(
        'fork-change-invalid',
        `june: a fork's answer is approve or deny, not ${JSON.stringify(change.answer)}.`,
      );
    return {
      kind: 'answer',
      approved,
      ...(change.reason !== undefined ? { reason: change.reason } : {}),
    };
  }
  if ('output' in change) return { kind: 'output', output: change.output };
  if ('model' in change || 'settings' in change) {
    const settings = 'settings' in change ? checkedSettings(change.settings) : undefined;
    return {
      kind: 'model',
      ...(change.model !== undefined ? { model: modelName(change.model) } : {}),
      ...(settings ? { settings } : {}),
      ...(change.allAgents ? { allAgents: true as const } : {}),
    };
  }
  throw new WorkflowError(
    'fork-change-invalid',
    'june: a fork makes one change: result (a tool execution), answer (an approval), output (a model call or a question) or model (a model call).',
  );
}

/** A model's id as a fork's record keeps it. */
function modelName(model: LanguageModel): string {
  if (typeof model === 'string') return model;
  const { provider, modelId } = modelIdentity(model);
  return modelId ?? provider ?? 'a model given to the run';
}

/**
 * A fork's call settings, checked: known names, numbers (stop sequences: texts).
 * @throws {WorkflowError} `fork-change-invalid`
 */
function checkedSettings(settings: unknown): ModelCallSettings | undefined {
  if (settings === undefined) return undefined;
  const refuse = (problem: string) =>
    new WorkflowError(
      'fork-change-invalid',
      `june: a fork's model settings ${problem}; they are ${MODEL_CALL_SETTINGS.join(', ')} (e.g. { "temperature": 0.2, "maxOutputTokens": 500 }).`,
    );
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    throw refuse('are an object');
  const entries = Object.entries(settings);
  if (entries.length === 0) throw refuse('name at least one setting');
  for (const [name, value] of entries) {
    if (!(MODEL_CALL_SETTINGS as readonly string[]).includes(name))
      throw refuse(`have no setting "${name}"`);
    const fits =
      name === 'stopSequences'
        ? Array.isArray(value) && value.every((each) => typeof each === 'string')
        : typeof value === 'number' && Number.isFinite(value);
    if (!fits)
      throw refuse(
        `give ${name} as ${name === 'stopSequences' ? 'a list of texts' : 'a number'}, not ${JSON.stringify(value)}`,
      );
  }
  return settings as ModelCallSettings;
}

/**
 * Refuses recorded props that hold a redacted value: the fork would run with `[redacted]`
 * where a secret was.
 * @throws {WorkflowError} `fork-redacted`
 */
function refuseRedacted(header: JournalHeader): void {
  const paths = redactedPaths(header.props ?? {});
  if (paths.length === 0) return;
  throw new WorkflowError(
    'fork-redacted',
    `june: the run ${header.runId} was recorded with redacted props (${paths.join(', ')}), which a fork cannot run with; give the props again (props in forkRun, --props or --secret-props with june fork).`,
  );
}

/** What runs live after the fork point, from the original run's records after it. */
export function liveWords(
  points: readonly ForkPoint[],
  point: ForkPoint,
  change: ForkChangeRecord,
): string {
  const after = points.slice(point.n - (change.kind === 'model' ? 1 : 0));
  const models = after.filter((each) => each.type === 'model-call').length;
  const tools = after.filter((each) => each.type === 'tool-call');
  const approvals = after.filter((each) => each.type === 'approval').length;
  const names = [...new Set(tools.map((each) => (each.record as { tool: string }).tool))];
  // counts of 0 are left out
  const counts = [
    ...(models ? [`${models} model call${models === 1 ? '' : 's'}`] : []),
    ...(tools.length
      ? [
          `${tools.length} tool execution${tools.length === 1 ? '' : 's'}${names.length ? ` (${names.join(', ')})` : ''}`,
        ]
      : []),
    ...(approvals ? [`${approvals} approval${approvals === 1 ? '' : 's'} (asked again)`] : []),
  ];
  const had = counts.length
    ? `the recorded run had ${counts.join(', ')} there`
    : 'the recorded run made no model call, tool execution or approval there';
  const changed =
    change.kind !== 'model'
      ? change.kind
      : change.model === undefined
        ? 'settings'
        : change.settings
          ? 'model and settings'
          : 'model';
  return `after ${point.name} everything runs live; ${had}, and the new ${changed} may lead elsewhere`;
}
