import { JuneError, WorkflowError } from '../errors/index.js';
import { keepScriptFile, keptScriptFile } from '../host/kept-script.js';
import { runsFolderJournal } from '../host/runs-folder-journal.js';
import {
  forkPlan,
  forkRun,
  runForkPoints,
  type ForkChange,
  type ForkPoint,
} from '../run/fork-run.js';
import type { CliIO } from './cli-io.js';
import { cliRedaction } from './cli-redaction.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import type { ForkFlagValues } from './fork-flags.js';
import { parseProps } from './parse-props.js';
import { printedResumeCommand } from './resume-flags.js';
import { runCommand, runsFolder } from './run-command.js';
import { checkedProps } from './run-inputs.js';
import { loadWorkflow, type LoadedWorkflow } from './load-workflow.js';
import { readPrices } from './prices-file.js';
import { terminalJson, visibleText } from './visible-text.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { Redactor } from '../redaction/redactor.js';
import { loadScript } from '../testing/load-script.js';
import { quietDriver } from './quiet-driver.js';
import type { ModelCallSettings } from '../models/settings-from.js';

/**
 * `june fork <run>`: without `--at`, lists the run's records (the fork points) by number and
 * name; with `--at` and one change (`--result`, `--answer`, `--output` or `--model`), makes
 * the fork's journal in `.june/runs`, says what runs live after the fork point, and runs the
 * fork as `june run` runs a resumed run (its workflow file is the one the recorded run was
 * started with), or, with `--no-start`, prints the fork's run id.
 *
 * @returns the exit code, as {@link runCommand}'s.
 * Everything that can be checked is checked before the fork's journal is written (the
 * change at its record, `--script`, `--prices`, the workflow file and `--props` against its
 * schema), so a refused fork leaves nothing in the runs folder.
 *
 * @throws {JuneError} `cli-option-invalid` (no change, or more than one; JSON that does not
 *   parse; a bad `--prices` file), `journal-missing`, `fork-record-unknown`,
 *   `fork-change-invalid`, `fork-redacted`, `cli-workflow-missing`, `cli-props-invalid`, the
 *   workflow's load errors, and what `june run --resume` throws before its run starts.
 * @example
 * ```ts
 * process.exitCode = await forkCommand('r1', { at: '3', answer: 'deny' }, processIO());
 * ```
 */
export async function forkCommand(
  runId: string,
  options: ForkFlagValues,
  io: CliIO,
): Promise<ExitCodeValue> {
  if (options.database !== undefined)
    return databaseForkCommand(runId, options, options.database, io);
  const journal = runsFolderJournal(runsFolder);
  const known = <T>(work: () => Promise<T>) =>
    knownRun(runId, work, runsFolder, 'june runs', async () =>
      (await journal.list()).slice(-5).reverse(),
    );
  if (options.at === undefined) {
    io.stdout.write(listing(runId, await known(() => runForkPoints(journal, runId)), options));
    return ExitCode.success;
  }
  const change = changeOf(options);
  const given = options.props === undefined ? undefined : parseProps(options.props);
  const { secretProps } = cliRedaction(options);
  // props given again: the recorded ones may hold redacted values
  const props = given || secretProps ? { props: { ...given, ...secretProps } } : {};
  // everything that can be checked is, before the fork's journal is written
  const plan = await known(() => forkPlan(journal, runId, { at: options.at!, change, ...props }));
  const script = await forkScript(runId, options);
  if (options.prices !== undefined) readPrices(options.prices);
  const loaded = await forkWorkflow(plan.workflow, given && props.props);
  const fork = await known(() => forkRun(journal, runId, { at: options.at!, change, ...props }));
  const workflow = fork.workflow;
  // progress, not a problem: on stdout, unless stdout is for a program (JSON lines, the id)
  const progress = options.json || options.start === false ? io.stderr : io.stdout;
  progress.write(`${visibleText(summary(fork, runId))}\n`);
  if (fork.unchanged) io.stderr.write(`${visibleText(unchangedWarning(fork, runId))}\n`);
  // the fork keeps its script, so it and its resumes are answered by it without --script
  if (script !== undefined) await keepScriptFile(runsFolder, fork.runId, script.path);
  if (script?.recorded) progress.write(`${visibleText(recordedScriptWords(runId, options))}\n`);
  if (options.start === false || workflow === undefined) {
    io.stdout.write(`${fork.runId}\n`);
    if (workflow !== undefined)
      io.stderr.write(
        `${visibleText(`start it: ${printedResumeCommand(workflow, fork.runId, { ...options, script: undefined })}`)}\n`,
      );
    if (workflow === undefined && options.start !== false)
      io.stderr.write(
        `june: the recorded run names no workflow file; run the fork with june run <file> --resume ${fork.runId}.\n`,
      );
    return ExitCode.success;
  }
  const {
    at: _at,
    result: _result,
    answer: _answer,
    reason: _reason,
    output: _output,
    model: _model,
    allAgents: _all,
    start: _start,
    database: _database,
    follow: _follow,
    ...runFlags
  } = options;
  return runCommand(workflow, { ...runFlags, resume: fork.runId }, io, loaded);
}

/**
 * The recorded run's workflow file, loaded, and `--props` (with `--secret-props`) checked
 * against its props schema, as `june run` checks them: before the fork is made, so a missing
 * file or props that do not fit leave nothing behind. `undefined` when the run names no file.
 * @throws {JuneError} `cli-workflow-missing`, `cli-props-invalid`, the workflow's load errors
 */
async function forkWorkflow(
  file: string | undefined,
  props: Record<string, unknown> | undefined,
): Promise<LoadedWorkflow | undefined> {
  if (file === undefined) return undefined;
  const loaded = await loadWorkflow(file);
  if (props !== undefined) await checkedProps(file, loaded, props);
  return loaded;
}

/**
 * Which model calls of a fork the model script the recorded run keeps answers: all of them,
 * but those `--model` makes (the changed agent's from the changed call on; with
 * `--all-agents`, every one).
 */
function recordedScriptWords(runId: string, options: ForkFlagValues): string {
  const script = `the model script run ${runId} was recorded with`;
  if (options.model === undefined)
    return `The fork's model calls are answered by ${script} (--script <file> gives another).`;
  if (options.allAgents)
    return `The fork's model calls are made by ${options.model} (--all-agents): ${script} answers none of them.`;
  return `The fork's model calls are answered by ${script} (--script <file> gives another), but for the agent whose call the fork changes: ${options.model} makes that call and the agent's later ones.`;
}

/**
 * The model script that answers a fork of the run `runId` of the runs folder: `--script`,
 * else the one the recorded run keeps (`<runId>/script.json`, as `june run --resume` takes
 * it), checked before anything is stored; undefined when there is neither.
 * @throws {WorkflowError} `script-unreadable`, `script-invalid`
 */
async function forkScript(
  runId: string,
  options: ForkFlagValues,
): Promise<{ path: string; recorded: boolean } | undefined> {
  const recorded =
    options.script === undefined ? await keptScriptFile(runsFolder, runId) : undefined;
  const path = options.script ?? recorded;
  if (path === undefined) return undefined;
  loadScript(path);
  return { path, recorded: recorded !== undefined };
}

/**
 * `june fork <run> --database <url>`: lists the records of a run over the database, or forks
 * it (`RunClient.fork`: its records before the fork point copied under the new run, which is
 * enqueued for the workers) and prints the fork's id; with `--follow`, follows it as
 * `june run --database --follow` does.
 */
async function databaseForkCommand(
  runId: string,
  options: ForkFlagValues,
  database: string,
  io: CliIO,
): Promise<ExitCodeValue> {
  const { databaseForks } = await import('../host/database-forks.js');
  quietDriver();
  const client = await databaseForks(database);
  try {
    const known = <T>(work: () => Promise<T>) =>
      knownRun(runId, work, 'the database', 'june runs --database <url>', () => client.newest(5));
    if (options.at === undefined) {
      io.stdout.write(
        listing(runId, await known(() => client.points(runId)), options, ' --database …'),
      );
      return ExitCode.success;
    }
    if (options.start === false)
      throw new WorkflowError(
        'cli-option-invalid',
        'june: --no-start does not go with --database: a fork over the database is queued for the workers as it is made.',
      );
    const change = changeOf(options);
    const props = options.props === undefined ? undefined : parseProps(options.props);
    const fork = await known(() =>
      client.fork(runId, {
        at: options.at!,
        change,
        ...(props ? { props } : {}),
        ...(options.script !== undefined ? { script: loadScript(options.script) } : {}),
      }),
    );
    (options.json ? io.stderr : io.stdout).write(`${visibleText(summary(fork, runId))}\n`);
    if (!options.follow) {
      io.stdout.write(
        options.json ? `${terminalJson({ runId: fork.runId })}\n` : `queued run ${fork.runId}\n`,
      );
      return ExitCode.success;
    }
    return await followFork(database, fork, options, io);
  } finally {
    await client.close();
  }
}

/**
 * Follows a fork queued over the database as `june run --database --follow` follows a run:
 * through the database's run host, redacted as `--redact-*` say.
 */
async function followFork(
  database: string,
  fork: { runId: string; workflow: string },
  options: ForkFlagValues,
  io: CliIO,
): Promise<ExitCodeValue> {
  const { redact } = cliRedaction(options);
  const redactor = redact ? new Redactor(redact, configuredSecrets) : configuredSecrets;
  const [{ followSession }, { followedSession }, { openRunHost }] = await Promise.all([
    import('./follow-run.js'),
    import('./database-run-session.js'),
    import('../host/open-run-host.js'),
  ]);
  const host = await openRunHost({ database });
  return followSession(
    followedSession(host, fork.runId, fork.workflow, io, {
      redactor,
      ...(options.approve !== undefined ? { approve: options.approve } : {}),
    }),
    options,
    io,
  );
}

/**
 * What `june fork` says of the fork it made, before it runs: progress, on stdout (on stderr
 * when stdout is for a program: `--json`, and `--no-start`, whose stdout is the fork's id).
 */
function summary(
  fork: { runId: string; point: ForkPoint; replayed: number; live: string },
  runId: string,
): string {
  const replayed =
    fork.replayed === 0
      ? 'nothing recorded replays'
      : fork.replayed === 1
        ? '1 recorded call or answer replays'
        : `${fork.replayed} recorded calls and answers replay`;
  return `Run ${fork.runId} forks run ${runId} at ${fork.point.name} (${fork.point.what}): ${replayed} without a model call or a tool; ${fork.live}.`;
}

/** Said on stderr when a fork's change is what the record holds already (see `Fork.unchanged`). */
function unchangedWarning(fork: { point: ForkPoint }, runId: string): string {
  return `june: warning: the change is what run ${runId} recorded at ${fork.point.name} (${fork.point.what}): the fork changes nothing there, and runs live what came after it with the same facts.`;
}

/**
 * The one change the flags ask for.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function changeOf(options: ForkFlagValues): ForkChange {
  const given = (['result', 'answer', 'output', 'model'] as const).filter(
    (key) => options[key] !== undefined,
  );
  // other settings come alone or with another model
  if (options.settings !== undefined && options.model === undefined) given.push('model');
  if (options.allAgents && options.model === undefined && options.settings === undefined)
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --all-agents goes with --model <id> or --settings <json> at a model call: every agent uses them from that call on${given.length ? `; it does not go with ${given.map((key) => `--${key}`).join(' or ')}` : ''}.`,
    );
  if (given.length !== 1)
    throw new WorkflowError(
      'cli-option-invalid',
      `june: a fork makes one change at its record: pass one of --result <json> (a tool execution), --answer approve|deny (an approval), --output <json> (a model call, a question, or a tool's approval: the result instead of the tool) or --model <id> and/or --settings <json> (a model call)${given.length ? `, not ${given.map((key) => `--${key}`).join(' and ')}` : ''}.`,
    );
  if (options.reason !== undefined && options.answer === undefined)
    throw new WorkflowError('cli-option-invalid', 'june: --reason goes with --answer.');
  if (options.result !== undefined) return { result: json(options.result, '--result') };
  if (options.output !== undefined) return { output: json(options.output, '--output') };
  if (options.answer !== undefined)
    return {
      answer: options.answer === 'approve' ? 'approve' : 'deny',
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    };
  const settings =
    options.settings === undefined
      ? undefined
      : (json(options.settings, '--settings') as ModelCallSettings);
  const allAgents = options.allAgents ? { allAgents: true } : {};
  if (options.model === undefined) return { settings: settings!, ...allAgents };
  return { model: options.model, ...(settings ? { settings } : {}), ...allAgents };
}

function json(text: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const hint =
      flag === '--settings'
        ? `settings are a JSON object, e.g. --settings '{"temperature":0.2}'`
        : `a text is a JSON string, e.g. ${flag} '"sold out"'`;
    throw new WorkflowError(
      'cli-option-invalid',
      `june: ${flag} is not valid JSON (${(error as Error).message}); ${hint}.`,
    );
  }
}

/**
 * Runs `work` on the run `runId`; when the run is not there (`journal-missing` in the runs
 * folder, `dbos-run-unknown` in a database), throws the same error saying so, with the
 * newest runs there and the command that lists them all.
 * @throws {WorkflowError} `journal-missing`, `dbos-run-unknown`; what `work` throws.
 */
async function knownRun<T>(
  runId: string,
  work: () => Promise<T>,
  where: string,
  lists: string,
  newest: () => Promise<string[]>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      !JuneError.isInstance(error) ||
      (error.code !== 'journal-missing' && error.code !== 'dbos-run-unknown')
    )
      throw error;
    const runs = await newest().catch(() => []);
    throw new WorkflowError(
      error.code,
      `june: there is no run ${runId} in ${where} (${runs.length ? `its newest: ${runs.join(', ')}` : 'it has no runs'}); check the run id, or list every run with ${lists}.`,
      { cause: error },
    );
  }
}

/**
 * The records of a run, numbered, as `june fork <run>` lists them; with `--json`, each
 * record as one line of JSON (its {@link ForkPoint}), as `june runs --json` lists runs.
 */
function listing(
  runId: string,
  points: readonly ForkPoint[],
  options: ForkFlagValues,
  where = '',
): string {
  if (options.json) return points.map((point) => `${terminalJson(point)}\n`).join('');
  const width = String(points.length).length;
  const lines = [
    `run ${runId}: ${points.length} record${points.length === 1 ? '' : 's'} to fork at`,
    ...points.map((point) => `${String(point.n).padStart(width)}. ${point.name}  ${point.what}`),
    `fork one: june fork ${runId}${where} --at <name or number> with --result <json>, --answer approve|deny, --output <json>, --model <id> or --settings <json>`,
  ];
  // each line shown as text: a recorded value cannot move the terminal's cursor
  return lines.map((line) => `${visibleText(line)}\n`).join('');
}
