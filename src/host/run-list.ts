import type { TraceStatus } from '../trace/trace-node.js';

/**
 * One readable run in Studio's list, from its trace file. Served by `GET /api/runs`.
 *
 * - `runId`: the file's name without `.json` (what `GET /api/runs/<runId>` takes).
 * - `durationMs`: from `startedAt` to `endedAt`, in milliseconds; absent while running.
 * - `totalTokens`: the run's total tokens (child runs included); while running, the sum of
 *   the model calls so far; absent when no model call reported usage.
 * - `costUsd`: what the run's model calls cost, in USD (child runs included; the calls
 *   with a price); absent when none had one. `unpricedCalls`: the calls whose cost is
 *   unknown (their model has no price), absent when none.
 * - `status`: `runState` of the trace, as the run page shows it.
 * - `nodeCount`: trace nodes in the file, composite child runs included.
 * - `updatedAt`: when the file last changed (ISO 8601).
 *
 * @example
 * ```ts
 * const summary: RunSummary = {
 *   runId: '20261129-185225-4f2a', file: '20261129-185225-4f2a.json', workflow: 'Release', status: 'succeeded',
 *   startedAt: '2026-11-29T18:52:25.000Z', endedAt: '2026-11-29T18:52:27.500Z', durationMs: 2500,
 *   totalTokens: 1234, nodeCount: 9, updatedAt: '2026-11-29T18:52:27.510Z',
 * };
 * ```
 */
export interface RunSummary {
  runId: string;
  file: string;
  workflow?: string;
  status: TraceStatus;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  totalTokens?: number;
  costUsd?: number;
  unpricedCalls?: number;
  /**
   * What failed inside the run without failing it: the run node's `failures` (tool calls,
   * caught attempts), and `childRuns`, how many of the failed calls were composite calls
   * whose child run failed (absent when none).
   */
  failures?: { tools: number; caught: number; childRuns?: number };
  /**
   * Tool calls waiting for a person's approval (absent when none): pending in the trace (the
   * run's `status` is then `waiting`), or, for a run of a runs folder stopped while they
   * waited, withdrawn and left unanswered in its journal (the run stays `aborted`; an answer
   * resumes it).
   */
  pendingApprovals?: number;
  /** The id of the worker that took the run (a database's runs; absent elsewhere). */
  worker?: string;
  /**
   * The thread the run belongs to (`june run --thread`): its id and the run's place in it
   * (from its journal's header; `order` absent where the host does not read it).
   */
  thread?: { id: string; order?: number };
  /** A failed run's error message, when the host knows it from outside the trace (a database's list). */
  error?: string;
  nodeCount: number;
  updatedAt: string;
}

/**
 * A trace file Studio could not read: not JSON, half-written, or not a June trace.
 * `unreadable` says why, in a sentence.
 *
 * @example
 * ```ts
 * const entry: UnreadableRun = {
 *   runId: 'broken', file: 'broken.json', updatedAt: '2026-11-29T18:52:27.510Z',
 *   unreadable: 'not valid JSON (Unexpected end of JSON input); a file the run is still writing reads like this',
 * };
 * ```
 */
export interface UnreadableRun {
  runId: string;
  file: string;
  unreadable: string;
  updatedAt: string;
}

/** One entry of Studio's run list: a run, or a file it could not read (it has `unreadable`). */
export type RunListEntry = RunSummary | UnreadableRun;

/**
 * The body of `GET /api/runs`: the directory it reads (as given to `startStudio`), its
 * runs, newest first, and whether this Studio serves a project's workflows (`june dev`'s
 * workbench: `GET /api/workflows` answers), so the page asks for them only then.
 *
 * @example
 * ```ts
 * const { runs }: RunList = await (await fetch(`${studio.url}api/runs`)).json();
 * ```
 */
export interface RunList {
  dir: string;
  runs: RunListEntry[];
  /** True when Studio serves the workflows of a project (`june dev`); false for plain `june studio`. */
  workflows: boolean;
  /**
   * Set when Studio forks runs ("Fork from here", `POST /api/runs/<runId>/fork`): over a
   * database, a host it was given, or `june dev`'s runs folder with its catalog; absent for
   * plain `june studio` over a runs folder. `modelChoice`: a fork request may say how the live
   * part's models answer (`june dev`: a script of the project or the provider); otherwise they
   * answer as the recorded run's did.
   */
  forks?: { modelChoice: boolean };
}

/**
 * What the live channel (`GET /api/events`, Server-Sent Events) sends, as each event's JSON
 * `data`; the SSE event name is the `type`:
 *
 * - `run`: a run appeared or its file changed (a running run writes its file as it goes);
 * - `run-removed`: its file is gone.
 *
 * @example
 * ```ts
 * const events = new EventSource('/api/events');
 * events.addEventListener('run', (e) => console.log(JSON.parse(e.data).run.status));
 * ```
 */
export type StudioEvent =
  { type: 'run'; run: RunListEntry } | { type: 'run-removed'; runId: string };

/**
 * True for an entry Studio could not read.
 *
 * @example
 * ```ts
 * const readable = runs.filter((entry) => !isUnreadable(entry));
 * ```
 */
export function isUnreadable(entry: RunListEntry): entry is UnreadableRun {
  return 'unreadable' in entry;
}
