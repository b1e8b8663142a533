import { WorkflowError } from '../errors/index.js';
import { isRunId, newRunId } from '../engine/run-id.js';
import { checkThreadId } from '../engine/thread-id.js';
import { forkOf } from '../run/fork-run.js';
import {
  recordedRun,
  runInFolder,
  runsFolderJournal,
  threadJournals,
  type JournalRecord,
  type JournalStore,
  type RunLease,
  type RunOwner,
} from '../host/runs-folder-journal.js';
import type { RedactOptions } from '../redaction/index.js';
import {
  loadScript,
  scriptAfterJournal,
  scriptAnswers,
  scriptedModel,
  type ScriptedModel,
} from '../testing/index.js';
import { cliRedaction, resumedProps } from './cli-redaction.js';
import { loadWorkflow, type LoadedWorkflow } from './load-workflow.js';
import { parseProps } from './parse-props.js';
import { fitProps, propsMisfitMessage, propsSchemaOf } from '../workflows/index.js';
import { checkRunFolder } from '../host/run-folder.js';
import { runFolder } from '../host/run-answers.js';
import { join, resolve } from 'node:path';
import type { ModelPrices } from '../models/price.js';
import { readPrices } from './prices-file.js';
import type { RunCommandOptions } from './run-command-options.js';

/** What `june run` starts a run with, read from its flags and files before anything runs. */
export interface RunInputs {
  workflow: LoadedWorkflow;
  /** The file journal in the runs folder: every run keeps one. */
  journal: JournalStore;
  /** The journal `--resume` or `--replay` names, read and checked. */
  recorded: JournalRecord[] | undefined;
  /**
   * `--props` and `--secret-props` (checked against the workflow's `props` schema, given or
   * not); when resuming or replaying without `--props`, the journal's.
   */
  props: Record<string, unknown> | undefined;
  /** The `--script` model (when resuming, without the turns the journal answered). */
  model: ScriptedModel | undefined;
  redact: RedactOptions | undefined;
  /** `--prices`: the run's own prices, read from the file and checked. */
  prices: ModelPrices | undefined;
  /**
   * With `--resume`: the run's lease in the runs folder, taken before its journal is read, so
   * no other process runs it from then on; the run lets go of it when it ends (and `june run`
   * once more when it exits).
   */
  lease: RunLease | undefined;
  /**
   * With `--thread`: the thread's hold, taken (or waited for, with `--wait-for-owner`) before
   * the thread's earlier runs are read for the script's turns, for the run {@link runId}; the
   * run lets go of it when it ends (and `june run` once more when it exits).
   */
  threadLease?: RunLease | undefined;
  /** The new run's id: `--run-id`, or, for a run of a thread, the one its hold was taken for. */
  runId?: string | undefined;
}

/**
 * Reads what `june run` needs before the run starts, in the order a bad flag or file is
 * reported: the props, the redaction flags, the script, the workflow, then (with
 * `--resume`, once the run's lease is taken: see {@link RunInputs.lease}) the journal
 * `--resume`/`--replay` names (a bad one stops here, before any trace is written).
 *
 * @param runsFolder - where the runs' journals are, relative to the current directory.
 * @param waiting - told when `--wait-for-owner` waits for the process that holds the run (or
 *   the thread, then with the run that holds it).
 * @param loaded - `file`, loaded already (`june fork` loads it before it makes the fork).
 * @param scriptKept - `--script` is the one the resumed run keeps, not given on the command line.
 * @throws {JuneError} what {@link runCommand} lists as thrown before the run starts.
 */
export async function runInputs(
  file: string,
  options: RunCommandOptions,
  runsFolder: string,
  waiting?: (owner: RunOwner, holder?: string) => void,
  loaded?: LoadedWorkflow,
  scriptKept = false,
): Promise<RunInputs> {
  const given = options.props === undefined ? undefined : parseProps(options.props);
  const { secretProps, redact } = cliRedaction(options);
  const scriptModel = options.script === undefined ? undefined : scriptedModel(options.script);
  const prices = options.prices === undefined ? undefined : readPrices(options.prices);
  const workflow = loaded ?? (await loadWorkflow(file));
  const journal = runsFolderJournal(runsFolder);
  checkJournalFlags(options);
  if (options.runId !== undefined && options.resume === undefined)
    checkRunIdFree(runsFolder, options.runId);
  // answers and resume details come only from a run folder no one else can write to
  const approve = options.approve ?? 'ask';
  if (options.resume !== undefined && (approve === 'studio' || approve === 'wait'))
    await checkRunFolder(runFolder(resolve(runsFolder), options.resume));
  const lease =
    options.resume === undefined
      ? undefined
      : await journal.lease!(options.resume, {
          wait: options.waitForOwner === true,
          ...(waiting ? { onWait: waiting } : {}),
        });
  let threadLease: RunLease | undefined;
  try {
    // a thread's earlier runs are read once the thread is held: a run it waited for is one of them
    const runId = options.thread !== undefined ? (options.runId ?? newRunId()) : options.runId;
    if (options.thread !== undefined) {
      threadLease = await journal.threadLease!(options.thread, runId!, {
        wait: options.waitForOwner === true,
        ...(waiting ? { onWait: waiting } : {}),
      });
    }
    const recorded = await recordedRun(journal, options, workflow.name);
    const props =
      given !== undefined
        ? await checkedProps(file, workflow, { ...given, ...secretProps })
        : options.resume === undefined && options.replay === undefined
          ? await unflaggedProps(file, workflow, secretProps)
          : resumedProps(
              recorded?.[0]?.type === 'journal' ? recorded[0].props : undefined,
              secretProps,
            );
    const model = (await runScript(options, journal, recorded, scriptKept)) ?? scriptModel;
    return { workflow, journal, recorded, props, model, redact, prices, lease, threadLease, runId };
  } catch (error) {
    await threadLease?.release();
    await lease?.release();
    throw error;
  }
}

/**
 * The `--script` model of a resumed run (a fork's too) or of a new run of a thread, without
 * the turns the journal (or the thread's earlier runs) answered; undefined for any other run.
 */
async function runScript(
  options: RunCommandOptions,
  journal: JournalStore,
  recorded: JournalRecord[] | undefined,
  scriptKept: boolean,
): Promise<ScriptedModel | undefined> {
  if (options.script === undefined) return undefined;
  if (options.resume !== undefined && recorded)
    return resumedScript(
      options.script,
      // a resumed run of a thread (a fork of one too) goes on after its thread's earlier runs
      [...(await threadBefore(journal, recorded)), recorded],
      undefined,
      // a fork answered by the script its recorded run kept: the turns of the recorded
      // path after the fork point may never be reached, and are no problem
      scriptKept && forkOf(recorded) !== undefined,
    );
  if (options.thread !== undefined)
    return resumedScript(
      options.script,
      await threadJournals(journal, options.thread),
      "the thread's earlier runs",
    );
  return undefined;
}

/**
 * The journal flags that do not go together, refused before anything is read.
 * @throws {WorkflowError} `cli-option-invalid`; `thread-id-invalid` for a bad `--thread`
 */
function checkJournalFlags(options: RunCommandOptions): void {
  if (options.resume !== undefined && options.replay !== undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --resume and --replay do not go together: --resume takes a stopped run up again, --replay answers a new run from a recording.',
    );
  }
  if (options.replay !== undefined && options.script !== undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --replay answers every model call from the recording; leave out --script.',
    );
  }
  if (options.replayTools && options.replay === undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --replay-tools answers tool calls from the recording --replay names; pass it with --replay <runId|file>.',
    );
  }
  const runId: unknown = options.runId;
  if (runId !== undefined && !isRunId(runId)) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --run-id takes 1 to 128 letters, digits, '.', '_' and '-' (not starting with '.' or '-'), got ${JSON.stringify(String(options.runId).slice(0, 80))}.`,
    );
  }
  if (options.runId !== undefined && options.resume !== undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --run-id names a new run, and a resumed run keeps its id: leave out --run-id with --resume.',
    );
  }
  if (options.waitForOwner && options.resume === undefined && options.thread === undefined) {
    throw new WorkflowError(
      'cli-option-invalid',
      'june: --wait-for-owner waits for the process that runs the run --resume names, or the thread --thread names; pass it with one of them.',
    );
  }
  // a thread id no thread can have is bad usage, found before the run starts
  if (options.thread !== undefined) checkThreadId(options.thread);
  if (
    options.thread !== undefined &&
    (options.resume !== undefined || options.replay !== undefined)
  ) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --thread starts a new run of a thread; ${options.resume !== undefined ? 'a resumed run stays in the thread its journal names: leave out --thread' : '--replay answers a run from its recording: leave out --thread'}.`,
    );
  }
}

/**
 * `--run-id` of a new run: refused when the runs folder has a run of that id already (its
 * trace or its journal), before anything is written, so that run's trace stays as it was.
 *
 * @param resumable - whether the run there can be taken up with `--resume` (not `june try-tool`'s).
 * @throws {WorkflowError} `cli-option-invalid` naming the run and, when `resumable`, `--resume`.
 */
export function checkRunIdFree(runsFolder: string, runId: string, resumable = true): void {
  const found = runInFolder(runsFolder, runId);
  if (found === undefined) return;
  const has =
    found === 'trace' ? `its trace ${runId}.json` : `its journal ${join(runId, 'journal.jsonl')}`;
  const resume = resumable ? `--resume ${runId} takes that run up again; ` : '';
  throw new WorkflowError(
    'cli-option-invalid',
    `june: there is a run ${runId} in ${runsFolder} already (${has}); ${resume}pass another --run-id, or none, for a new run.`,
  );
}

/**
 * For a resumed run of a thread, or a fork of one (`threadFrom`), the journals of the
 * thread's runs before it: a script's turns they used are not the resumed run's.
 */
async function threadBefore(
  journal: JournalStore,
  recorded: JournalRecord[],
): Promise<JournalRecord[][]> {
  const header = recorded[0];
  const thread = header?.type === 'journal' ? (header.thread ?? header.threadFrom) : undefined;
  return thread ? threadJournals(journal, thread.id, thread.order) : [];
}

/**
 * The `--script` model; when resuming, without the turns the journal already answered, so
 * the resumed run's first new model call gets the turn the stopped process would have used;
 * for a new run of a thread, without the turns its earlier runs' journals answered, so a
 * thread's runs take a script's turns one after another (a step whose turns they used up
 * says so: `by` names them). Turns are numbered as in the file, which warnings and errors
 * name. `unusedTurnsAllowed` for a fork answered by the script of the run it forks.
 */
function resumedScript(
  path: string,
  journals: JournalRecord[][],
  by?: string,
  unusedTurnsAllowed = false,
): ScriptedModel {
  const name = path.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
  const whole = loadScript(path);
  const script = journals.reduce((rest, records) => scriptAfterJournal(rest, records), whole);
  // the turns the thread's earlier runs took, for the error of a step they used up
  const turns = Object.fromEntries(
    Object.entries(whole.steps).map(([step, all]) => [
      step,
      all.length - (script.steps[step]?.length ?? 0),
    ]),
  );
  // the whole script's answers, less those the journals hold: a call of a turn the journal
  // answered (a fork's prefix) may still wait for its approval, and its answer is in the script
  const answered = journals.flatMap((records) =>
    records.flatMap((record) =>
      record.type === 'approval-answer'
        ? [{ step: record.step, toolCallId: record.toolCallId }]
        : [],
    ),
  );
  return scriptedModel(script, {
    name,
    source: path,
    taken: { turns, ...(by !== undefined ? { by } : {}) },
    approvals: scriptAnswers(whole, { answered }),
    ...(unusedTurnsAllowed ? { unusedTurnsAllowed: true } : {}),
  });
}

/**
 * `--props` (with `--secret-props`) checked against the `props` schema the workflow file
 * exports, as Studio checks the props of its form: the props as parsed (defaults filled in).
 *
 * @throws {WorkflowError} `cli-props-invalid` naming each field that does not fit.
 */
export async function checkedProps(
  file: string,
  workflow: LoadedWorkflow,
  props: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const fit = fitProps(props, await propsSchemaOf(workflow.exports.props));
  if ('props' in fit) return fit.props;
  throw new WorkflowError(
    'cli-props-invalid',
    propsMisfitMessage(file, fit.problems, 'Fix --props and run again.'),
  );
}

/**
 * The props of a new run without `--props`: none (with `--secret-props`, those), checked
 * against the `props` schema the workflow file exports as `--props '{}'` would be, so a run
 * whose schema wants props is refused before it starts rather than failing inside.
 *
 * @returns the props as parsed (defaults filled in); `undefined` when there are none.
 * @throws {WorkflowError} `cli-props-invalid`, as {@link checkedProps}.
 */
async function unflaggedProps(
  file: string,
  workflow: LoadedWorkflow,
  secretProps: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined> {
  const fitted = await checkedProps(file, workflow, { ...secretProps });
  return secretProps === undefined && Object.keys(fitted).length === 0 ? undefined : fitted;
}
