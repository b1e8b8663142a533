import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Component } from '../elements/element.js';
import { SystemError } from '../errors/june-error.js';
import { traceWriter } from '../events/trace-writer.js';
import { fileJournalStore } from '../journal/file-journal-store.js';
import type { ModelScript } from '../testing/script-format.js';
import { folderRunHost } from './folder-run-host.js';
import { HostListeners } from './host-listeners.js';
import { MemoryRuns, type HostedRunOptions, type MemoryRun } from './memory-runs.js';
import { runFolder } from './run-answers.js';
import type { RunListEntry } from './run-list.js';
import type { HostFork, HostForkRequest, HostRunRequest, RunHost } from './run-host.js';
import type { RunHandle } from '../interpreter/run.js';
import { runState } from './run-state.js';
import { StudioAnswers } from './studio-answers.js';
import type { Trace } from '../trace/trace-node.js';

/** Options of {@link localRunHost}. */
export interface LocalRunHostOptions {
  /** The runs folder (`<project>/.june/runs`); made when missing. */
  dir: string;
  /** The workflows it runs, by the name {@link RunHost.start} takes: their root components. */
  workflows: Record<string, Component>;
  /** How often to look at the folder even when `fs.watch` reports nothing, in ms. @default 1000 */
  pollIntervalMs?: number;
  /**
   * How many ended runs it keeps in memory, newest first, to follow their events again (a
   * chat page that sends a message again); older ones are read from the folder, which
   * keeps traces, not events. @default 1000
   */
  keepEnded?: number;
  /** Further options of every run it runs (a `model`, `redact`, ...), as `memoryRunHost` takes them. */
  runOptions?: HostedRunOptions;
}

/**
 * A {@link RunHost} that runs workflows in this process and keeps them in a runs folder, as
 * `june run` does: each run's journal (`<runId>/journal.jsonl`, leased while it runs) and its
 * trace (`<runId>.json`, written as it goes) are the folder's, so `june studio`, `june runs`
 * and `june approve` in other processes list it and answer it (through its answers file, as
 * for a `june run --approve studio`). Its own runs are followed, answered, cancelled and
 * waited for here, like {@link memoryRunHost}'s; the folder's other runs as
 * {@link folderRunHost} does. `resume` takes an aborted run of one of `workflows` up again
 * from its journal, in this process, whichever process ran it before: after a restart too.
 * `close` aborts the runs it runs (their journals keep them for a resume).
 *
 * @throws {SystemError} `run-folder-unsafe` when the runs folder is not to be trusted.
 * @example
 * ```ts
 * const host = await localRunHost({ dir: '.june/runs', workflows: { release: Release } });
 * const runId = await host.start({ workflow: 'release', props: { version: '1.2' } });
 * for await (const event of host.events(runId)) console.log(event.type);
 * ```
 */
export async function localRunHost(options: LocalRunHostOptions): Promise<LocalRunHost> {
  const dir = resolve(options.dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const listeners = new HostListeners();
  const { folder, closeFolder } = lazyFolder(dir, options.pollIntervalMs, listeners);
  // the newest ended runs stay here (a chat streams one again); older ones are the folder's
  const runs = new MemoryRuns({
    workflows: options.workflows,
    onChange: listeners.send,
    listening: () => listeners.listening,
    journal: fileJournalStore({ dir }),
    keepEnded: options.keepEnded ?? 1000,
    ...(options.runOptions ? { runOptions: options.runOptions } : {}),
  });
  /** The runs' ends, each once its answers file let go of the run. */
  const letGo = new Set<Promise<void>>();
  const launch = (request: MemoryRun['request'], resume: boolean) =>
    launchHere(dir, runs, letGo, request, resume);
  const here = (runId: string) => runs.has(runId);
  return {
    label: options.dir,
    async start(request) {
      const runId = runs.checkedStart(request, (id) => existsInFolder(dir, id));
      if (request.script !== undefined) await keepScript(dir, runId, request.script);
      await launch({ ...request, runId }, false);
      return runId;
    },
    attach: (request, handle) => void runs.attach(request, handle),
    list: async () => listed(runs, await folder()),
    readTrace: async (runId) =>
      here(runId)
        ? { text: JSON.stringify(runs.get(runId).handle.trace()) }
        : (await folder()).readTrace(runId),
    subscribe(onChange) {
      void folder().catch(() => {});
      return listeners.add(onChange);
    },
    async *events(runId, follow) {
      yield* here(runId)
        ? runs.events(runId, follow?.signal)
        : (await folder()).events(runId, follow);
    },
    decisions: async (runId) =>
      here(runId) ? runs.decisions(runId) : (await folder()).decisions(runId),
    answer: async (runId, answer) =>
      here(runId) ? runs.answer(runId, answer) : (await folder()).answer(runId, answer),
    cancel: async (runId, options) =>
      here(runId) ? runs.cancel(runId, options?.reason) : (await folder()).cancel(runId, options),
    result: async (runId, waiting) =>
      here(runId) ? runs.result(runId) : (await folder()).result(runId, waiting),
    resume: async (runId) => resumeHere(dir, runs, letGo, await folder(), runId),
    forkPlan: (runId, request) => runs.forkPlan(runId, request),
    fork: async (runId, request) => forkHere(dir, runs, await folder(), launch, runId, request),
    threadRuns: (threadId) => runs.threadRuns(threadId),
    threadMessages: (threadId) => runs.threadMessages(threadId),
    async close() {
      await runs.close();
      await Promise.all(letGo);
      await closeFolder();
    },
  };
}

/**
 * A {@link localRunHost}: a {@link RunHost} that also takes in a run started elsewhere in
 * this process ({@link LocalRunHost.attach}).
 */
export interface LocalRunHost extends RunHost {
  /**
   * Takes in a run this process started itself (`june run` runs the workflow file with the
   * file's own June, its journal in this runs folder): from then on the host follows,
   * answers, cancels and waits for it as for the runs it starts.
   * @throws {StudioRequestError} `studio-run-exists` (409) for the id of a run it holds.
   */
  attach(request: HostRunRequest & { runId: string }, handle: RunHandle): void;
}

/**
 * The runs folder's host, opened (every trace summarized, then watched, its changes sent to
 * `listeners`) only once asked for: `june run` follows its own run and never lists the
 * folder. `closeFolder` closes it, if it was opened.
 */
function lazyFolder(dir: string, pollIntervalMs: number | undefined, listeners: HostListeners) {
  let opened: Promise<RunHost> | undefined;
  let stop = () => {};
  const folder = (): Promise<RunHost> =>
    (opened ??= folderRunHost({
      dir,
      ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    }).then((host) => {
      stop = host.subscribe(listeners.send);
      return host;
    }));
  const closeFolder = async () => {
    stop();
    await (await opened?.catch(() => undefined))?.close();
  };
  return { folder, closeFolder };
}

/** True when the folder has a trace or a journal of `runId`. */
function existsInFolder(dir: string, runId: string): boolean {
  return (
    existsSync(join(dir, `${runId}.json`)) ||
    existsSync(join(runFolder(dir, runId), 'journal.jsonl'))
  );
}

/** Keeps a run's model script in its folder (`<runId>/script.json`, this user's only), for a resume in a later process. */
async function keepScript(dir: string, runId: string, script: ModelScript): Promise<void> {
  const folder = runFolder(dir, runId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, 'script.json'), JSON.stringify(script), { mode: 0o600 });
}

/** The script {@link keepScript} kept for `runId`, if any. */
async function keptScript(dir: string, runId: string): Promise<ModelScript | undefined> {
  const text = await readFile(join(runFolder(dir, runId), 'script.json'), 'utf8').catch(
    () => undefined,
  );
  return text === undefined ? undefined : (JSON.parse(text) as ModelScript);
}

/** Runs the request in this process, answerable from the folder's answers file too. */
async function launchHere(
  dir: string,
  runs: MemoryRuns,
  letGo: Set<Promise<void>>,
  request: MemoryRun['request'],
  resume: boolean,
): Promise<MemoryRun> {
  const project = dirname(dirname(dir));
  const answers = await StudioAnswers.start({
    runsDir: dir,
    runId: request.runId,
    approve: 'studio',
    // not sealed: a stopped run is resumed by a host that has its workflow, never by Studio
    resume: { workflow: join(project, request.workflow), cwd: project, flags: {} },
    sealed: false,
  });
  const extras = { sources: [answers], consumers: [traceWriter({ dir })] };
  const known = resume
    ? await runs.resumeFromJournal(request, extras)
    : runs.launch(request, false, extras);
  // once the run let go, its process.json says so: another host may then take it up
  letGo.add(
    known.handle.result
      .catch(() => {})
      .then(() => answers.close())
      .catch(() => {}),
  );
  return known;
}

/**
 * The folder's runs, newest first, each run of this process from its live trace (a run the
 * folder does not list yet first).
 */
async function listed(runs: MemoryRuns, folder: RunHost): Promise<RunListEntry[]> {
  const mine = new Map(runs.all().map((known) => [known.request.runId, runs.entryOf(known)]));
  const entries = await folder.list();
  const unlisted = [...mine.values()].filter(
    (entry) => !entries.some((other) => other.runId === entry.runId),
  );
  return [...unlisted.reverse(), ...entries.map((entry) => mine.get(entry.runId) ?? entry)];
}

/**
 * What started a run of the folder that this host can take up again: its journal's
 * workflow is one of `workflows`; with its props and its kept script. Undefined otherwise.
 */
async function recordedRequest(
  dir: string,
  runs: MemoryRuns,
  runId: string,
): Promise<MemoryRun['request'] | undefined> {
  const [header] = await fileJournalStore({ dir })
    .read(runId)
    .catch(() => []);
  if (header?.type !== 'journal' || header.workflow === undefined) return undefined;
  if (!runs.runs(header.workflow)) return undefined;
  const script = await keptScript(dir, runId);
  return {
    workflow: header.workflow,
    runId,
    ...(header.props !== undefined ? { props: header.props } : {}),
    ...(script !== undefined ? { script } : {}),
  };
}

/**
 * Takes an aborted run up again in this process: one it ran (it must have ended aborted),
 * or one of the folder whose workflow it runs (not one that succeeded); any other is the
 * folder's to resume.
 * @throws {SystemError} `run-host-unsupported`
 */
async function resumeHere(
  dir: string,
  runs: MemoryRuns,
  letGo: Set<Promise<void>>,
  folder: RunHost,
  runId: string,
): Promise<void> {
  if (runs.has(runId)) {
    runs.checkAborted(runId);
    await launchHere(dir, runs, letGo, runs.get(runId).request, true);
    return;
  }
  const request = await recordedRequest(dir, runs, runId);
  if (request === undefined) return folder.resume(runId);
  const trace = await folder.readTrace(runId);
  if ('text' in trace && runState(JSON.parse(trace.text) as Trace) === 'succeeded')
    throw new SystemError(
      'run-host-unsupported',
      `june: run "${runId}" succeeded; there is nothing to resume. Start a new run.`,
    );
  await launchHere(dir, runs, letGo, request, true);
}

/**
 * Forks a run of the folder: in this process when its workflow is one of `workflows` (with
 * the recorded run's kept script unless the request gives one), else as the folder does
 * (a `june run` of its file).
 */
async function forkHere(
  dir: string,
  runs: MemoryRuns,
  folder: RunHost,
  launch: (request: MemoryRun['request'], resume: boolean) => Promise<MemoryRun>,
  runId: string,
  request: HostForkRequest,
): Promise<HostFork> {
  const plan = await runs.forkPlan(runId, request);
  if (plan.workflow === undefined || !runs.runs(plan.workflow)) return folder.fork(runId, request);
  const script = request.script ?? (await keptScript(dir, runId));
  const made = await runs.makeFork(runId, { ...request, ...(script ? { script } : {}) });
  if (made.request.script !== undefined)
    await keepScript(dir, made.fork.runId, made.request.script);
  await launch(made.request, true);
  return made.fork;
}
