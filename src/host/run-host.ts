import type { RunLogEvent } from '../events/run-event.js';
import type { RedactOptions } from '../redaction/redactor.js';
import type { RequestPolicy } from '../approvals/request-policy.js';
import type { ModelScript } from '../testing/script-format.js';
import type { Trace } from '../trace/trace-node.js';
import type { AnswerOutcome, ApprovalAnswerInput } from './approval-desk.js';
import type { TraceLookup } from './run-directory.js';
import type { RunListEntry, StudioEvent } from './run-list.js';
import type { RunApprovals } from './waiting-approvals.js';
import type { ThreadRun } from '../journal/thread-run.js';
import type { HostFork, HostForkPlan, HostForkRequest } from './host-fork.js';

export type { ThreadRun };
export type { HostFork, HostForkChange, HostForkPlan, HostForkRequest } from './host-fork.js';

/**
 * A run to start on a host ({@link RunHost.start}).
 *
 * - `workflow`: the workflow as the host knows it: a workflow file for the runs folder
 *   (`release.tsx`, relative to the project folder the runs folder belongs to), a worker's
 *   workflow name for a database (`release`), a name given to `memoryRunHost`;
 * - `props`: the root component's props (plain JSON);
 * - `script`: a model script answering every model call (`june run --script`);
 * - `runId`: the run's id (1 to 128 file-name characters). @default a new one
 * - `strict`: `RunOptions.strict`;
 * - `redact`: the run's own redaction (`RunOptions.redact`), with `env`, names of variables
 *   whose values are read where the run runs (a worker's environment, this process's);
 * - `secretProps`: names of secret props whose values are given where the run runs (a
 *   worker's `--secret-props`), so they never travel with the request; a host that runs in
 *   this process refuses them (`run-host-unsupported`): give their values as `props`;
 * - `thread`: the thread the run continues (`RunOptions.thread`, `june run --thread`): in
 *   the runs folder's journal store, in memory, or in a database's `june.threads`;
 * - `policy`: how requests are answered with nobody asked (`june run --approve all|none`,
 *   `--approve-escalations`), where the run runs: its answers are the source `policy`'s,
 *   recorded as automatic, as `RunOptions.onApproval`'s are. Without it every request waits
 *   for an answer through {@link RunHost.answer} (or another source of the host).
 */
export interface HostRunRequest {
  workflow: string;
  props?: Record<string, unknown>;
  script?: ModelScript;
  runId?: string;
  strict?: boolean;
  redact?: RedactOptions & { env?: readonly string[] };
  secretProps?: readonly string[];
  thread?: string;
  policy?: RequestPolicy;
}

/**
 * Where runs live, as every entry point (the CLI, Studio, the web handler) sees them: start
 * a run, follow its events, list the runs, read a run's trace, the decisions it waits for,
 * answer one, cancel, wait for the result, resume. Three hosts implement it: the runs folder
 * (`folderRunHost`, `.june/runs`), a database of runs over DBOS (`databaseRunHost`, through
 * `RunClient`) and this process's memory (`memoryRunHost`); `openRunHost` is the one place
 * that picks one from the options. An entry point takes a host and never asks which it is.
 *
 * Every host answers alike (`test/host/host-contract.ts` runs the same cases against each):
 *
 * - a run's state in {@link list} is always {@link runState} of the trace {@link readTrace}
 *   gives (the run page): `running`, `waiting` (a call waits for a person), `succeeded`,
 *   `failed` or `aborted`; an aborted run is never listed as waiting, even when a stopped
 *   run's withdrawn call may still be answered to resume it (`pendingApprovals` counts those);
 * - a run the host does not have is `StudioRequestError` `studio-run-missing` (404) from
 *   {@link decisions}, {@link answer}, {@link cancel} and {@link result};
 * - a second answer to one call, or an answer to a call that does not wait, is
 *   `studio-approval-unknown` (409), and changes nothing.
 *
 * @example
 * ```ts
 * const host = await openRunHost({ dir: '.june/runs' });
 * const runId = await host.start({ workflow: 'release.tsx', props: { version: '1.2' } });
 * const [call] = (await host.decisions(runId)).waiting;
 * await host.answer(runId, { key: call.key, approved: true, input: { env: 'staging' } });
 * console.log((await host.result(runId)).status);
 * await host.close();
 * ```
 */
export interface RunHost {
  /**
   * Where the runs are, for people: the runs folder as given, the database's URL without
   * its password, or `memory`.
   */
  readonly label: string;

  /**
   * Starts a run and resolves once it exists (its trace can be read).
   * @returns the run's id.
   * @throws {StudioRequestError} `studio-workflow-unknown` (404) for a workflow the host does
   *   not know; `studio-run-exists` (409) for the id of a run it has (nothing starts, that run
   *   goes on); `studio-run-start-failed` (422) for a run that ended before it began (the
   *   runs folder: a `june run` that could not load the workflow).
   */
  start(request: HostRunRequest): Promise<string>;

  /** The runs, newest first; a runs folder lists files it cannot read as `unreadable`. */
  list(): Promise<RunListEntry[]>;

  /** One run's trace as JSON text, as far as it got; `{ missing: true }` for a run it does not have. */
  readTrace(runId: string): Promise<TraceLookup>;

  /**
   * Calls `onChange` for each change to the list (a run appeared or changed; a runs folder's
   * file went away), until the returned function is called.
   */
  subscribe(onChange: (event: StudioEvent) => void): () => void;

  /**
   * The run's events, from its start, until it ends or `signal` aborts (the iteration then
   * ends quietly). The runs folder keeps traces, not events: there it throws.
   * @throws {StudioRequestError} `studio-run-missing`; {@link SystemError} `run-host-unsupported` on
   *   the runs folder.
   */
  events(runId: string, options?: { signal?: AbortSignal }): AsyncIterable<RunLogEvent>;

  /**
   * The decisions the run waits for (approvals), and who can take them: `live` (the run's
   * process or worker takes the answer), `stopped` (a runs folder's run whose process
   * stopped: an answer is recorded and the run resumed when it can be), `none`.
   * @throws {StudioRequestError} `studio-run-missing` (404)
   */
  decisions(runId: string): Promise<RunApprovals>;

  /**
   * Answers one waiting call by its key, once: approve (with `input`, the call as it should
   * run instead), deny (with a `reason` for the model), or answer instead of the tool
   * (`approved: false` with `output`, which the model reads as the tool's result). The run's
   * own process checks `input` and `output` against the tool's schemas.
   * @throws {StudioRequestError} `studio-run-missing` (404); `studio-approval-unknown` (409)
   *   when the call does not wait (answered already, withdrawn, never asked);
   *   `studio-request-invalid` (400) for an `input` on a denial or an `output` on an approval.
   */
  answer(runId: string, answer: ApprovalAnswerInput): Promise<AnswerOutcome>;

  /**
   * Stops the run: its work's abort signals fire, its waiting calls are withdrawn, and it
   * ends `aborted`. Resolves once asked; {@link result} waits for the end. `reason` is the
   * abort's reason, the run's error message in its trace where the host aborts the run itself
   * (in this process: `june run`'s stop signals and refusals); a runs folder's process is
   * stopped with SIGTERM and a database's run is cancelled by DBOS, each with its own reason.
   * @throws {StudioRequestError} `studio-run-missing` (404)
   */
  cancel(runId: string, options?: { reason?: string }): Promise<void>;

  /**
   * Waits until the run ended and gives its final trace (`status` `succeeded`, `failed` or
   * `aborted`; the trace holds no `output` of the run itself: each step's result is on its
   * step node). Never rejects for the
   * run's own failure.
   * @throws {StudioRequestError} `studio-run-missing` (404)
   */
  result(runId: string, options?: { signal?: AbortSignal }): Promise<Trace>;

  /**
   * Takes a stopped run up again from its journal, its recorded answers given again. A
   * database's worker resumes its runs itself, and a memory host keeps no run past an abort:
   * there it throws.
   * @throws {StudioRequestError} `studio-run-missing`; {@link SystemError}
   *   `run-host-unsupported` where the host cannot, or the run's resume details do not allow it.
   */
  resume(runId: string): Promise<void>;

  /**
   * What forking the recorded run `runId` at one of its records would do (see `forkRun`),
   * checked as {@link fork} checks it, with nothing made.
   * @throws {StudioRequestError} `studio-run-missing` (404); `studio-fork-record-unknown`
   *   (404); `studio-fork-invalid` (400: a change that does not fit the record, props recorded
   *   redacted).
   */
  forkPlan(runId: string, request: HostForkRequest): Promise<HostForkPlan>;

  /**
   * Forks the recorded run `runId` at one of its records with one change there, into a new
   * run of the same workflow on this host, and starts it: the recorded records before the
   * fork point replay (no model call, no tool execution, no approval asked) and everything
   * after it runs live, approvals asked again. Resolves once the fork exists (its trace can be
   * read). The runs folder runs it as `june run <workflow> --resume <fork>`, a database
   * queues it for a worker (`RunClient.fork`), memory runs it here.
   * @throws {StudioRequestError} as {@link forkPlan}; `studio-workflow-unknown` (404) when the
   *   recorded run's workflow is not one the host runs; `studio-run-exists` (409) for a
   *   `runId` it has; what {@link start} throws.
   */
  fork(runId: string, request: HostForkRequest): Promise<HostFork>;

  /**
   * The runs of a thread, in order (see `listThread`); absent on a host that keeps no
   * threads.
   */
  threadRuns?(threadId: string): Promise<ThreadRun[]>;

  /**
   * The conversation a thread's next run starts from (see `threadConversation`): what a
   * reloaded chat page shows. Absent on a host that keeps no threads.
   */
  threadMessages?(threadId: string): Promise<unknown[]>;

  /** Stops watching, following and polling, and lets go of connections. */
  close(): Promise<void>;
}
