import { JuneError, SystemError } from '../errors/june-error.js';
import { databaseApprovalDesk } from './database-approval-desk.js';
import type { RunClient } from '../dbos/index.js';
import { DatabaseRuns, databaseLabel } from './database-runs.js';
import { HostListeners } from './host-listeners.js';
import type { HostRunRequest, RunHost } from './run-host.js';
import { runExists } from './studio-request-error.js';
import { forkRefused, hostForkPlan } from './host-fork.js';
import { runMissing, waitForEnd } from './wait-for-end.js';
import { untilAborted } from './until-aborted.js';

/** Options of {@link databaseRunHost}. */
export interface DatabaseRunHostOptions {
  /** The PostgreSQL URL of the runs (`june worker --database`). */
  database: string;
  /**
   * A connection to that database the caller opened (`RunClient.connect`), to use instead of
   * one of the host's own; the host's `close` leaves it open.
   */
  client?: RunClient;
  /** How often to read the list of runs, in ms. @default 1000 */
  pollIntervalMs?: number;
}

/**
 * A database of runs over DBOS as a {@link RunHost}, through one `RunClient`: a run starts
 * queued (`RunClient.enqueue`) for a worker that has its workflow; the list is the
 * database's (`DatabaseRuns`), a run's trace is built from the events its worker publishes,
 * answers go as DBOS messages (`databaseApprovalDesk`), `cancel` is DBOS's, a fork is
 * `RunClient.fork` (its records copied, the fork queued). Workers take
 * stopped runs up themselves: `resume` throws `run-host-unsupported`. A run of a thread
 * (`thread`) takes its place in `june.threads` as it is queued (`thread-busy` while another
 * run of the thread is queued or runs); `threadRuns` lists a thread's runs from there.
 *
 * @throws {SystemError} `dbos-missing` without `@dbos-inc/dbos-sdk`; `database-unreachable`,
 *   `database-auth-failed` for a database it cannot use.
 * @example
 * ```ts
 * const host = await databaseRunHost({ database: 'postgres://localhost/june' });
 * const runId = await host.start({ workflow: 'release', props: { version: '1.2' } });
 * ```
 */
export async function databaseRunHost(options: DatabaseRunHostOptions): Promise<RunHost> {
  const listeners = new HostListeners();
  const opened = {
    database: options.database,
    onChange: listeners.send,
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  };
  const runs = options.client
    ? DatabaseRuns.over(options.client, opened)
    : await DatabaseRuns.open(opened);
  await runs.start().catch((error: unknown) => {
    runs.close();
    throw error;
  });
  const desk = databaseApprovalDesk(runs);
  const readTrace = (runId: string) => runs.readTrace(runId);
  const known = async (runId: string) => {
    if ('missing' in (await readTrace(runId))) throw runMissing(runId);
  };
  return {
    label: databaseLabel(options.database),
    start: (request) => enqueueOnce(runs, request),
    list: () => runs.list(),
    readTrace,
    subscribe: (onChange) => listeners.add(onChange),
    async *events(runId, follow = {}) {
      await known(runId);
      yield* untilAborted(runs.client.events(runId), follow.signal);
    },
    decisions: (runId) => desk.approvals(runId),
    answer: (runId, answer) => desk.answer(runId, answer),
    async cancel(runId) {
      await known(runId);
      await runs.client.cancel(runId);
    },
    async result(runId, waiting = {}) {
      await known(runId);
      return waitForEnd(runId, readTrace, waiting.signal);
    },
    async resume(runId) {
      await known(runId);
      throw new SystemError(
        'run-host-unsupported',
        `june: run "${runId}" is in a database, whose workers take stopped runs up themselves; start a worker (june worker --database) to go on with it.`,
      );
    },
    ...databaseForks(runs),
    threadRuns: (threadId) => runs.client.listThread(threadId),
    threadMessages: async (threadId) => (await runs.client.threadConversation(threadId)).messages,
    close: async () => runs.close(),
  };
}

/**
 * Queues the request's run, once: an id the database has is `studio-run-exists` (409), and
 * that run goes on as it was. Resolves once the list has it.
 */
async function enqueueOnce(runs: DatabaseRuns, request: HostRunRequest): Promise<string> {
  const run = {
    workflow: request.workflow,
    ...(request.props !== undefined ? { props: request.props } : {}),
    ...(request.script !== undefined ? { script: request.script } : {}),
    ...(request.runId !== undefined ? { runId: request.runId } : {}),
    ...(request.strict ? { strict: true } : {}),
    ...(request.policy !== undefined ? { policy: request.policy } : {}),
    ...(request.redact !== undefined ? { redact: request.redact } : {}),
    ...(request.secretProps?.length ? { secretProps: request.secretProps } : {}),
    ...(request.thread !== undefined ? { thread: request.thread } : {}),
  };
  const runId = await runs.client.enqueue(run, { onlyNew: true }).catch((error: unknown) => {
    if (JuneError.isInstance(error) && error.code === 'dbos-run-exists')
      throw runExists(request.runId!);
    throw error;
  });
  await runs.list();
  return runId;
}

/** A database's forks (`RunClient.forkPlan`, `RunClient.fork`), refused as every host refuses them. */
function databaseForks(runs: DatabaseRuns): Pick<RunHost, 'forkPlan' | 'fork'> {
  return {
    forkPlan: (runId, request) =>
      forkRefused(async () =>
        hostForkPlan(await runs.client.forkPlan(runId, { at: request.at, change: request.change })),
      ),
    async fork(runId, request) {
      const made = await forkRefused(() =>
        runs.client.fork(runId, {
          at: request.at,
          change: request.change,
          ...(request.props !== undefined ? { props: request.props } : {}),
          ...(request.script !== undefined ? { script: request.script } : {}),
          ...(request.runId !== undefined ? { runId: request.runId } : {}),
        }),
      );
      await runs.list(); // resolves once the list has it, as a start does
      return { ...hostForkPlan(made), runId: made.runId };
    },
  };
}
