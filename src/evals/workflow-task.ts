import { resolve } from 'node:path';
import type { LanguageModel } from 'ai';
import type { ApprovalPolicy } from '../approvals/approval-request.js';
import type { Component, JuneElement } from '../elements/element.js';
import { errorMessage } from '../errors/error-message.js';
import { JuneError } from '../errors/june-error.js';
import { traceWriter } from '../events/trace-writer.js';
import { fileJournalStore } from '../journal/file-journal-store.js';
import { loadJournal } from '../journal/load-journal.js';
import { emptyUsage } from '../models/usage.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import { Redactor, type RedactOptions } from '../redaction/redactor.js';
import type { JournalRecord } from '../journal/journal-record.js';
import type { RunHandle } from '../interpreter/run.js';
import { run, type RunOptions } from '../run/run.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { loadScript } from '../testing/load-script.js';
import { scriptAfterJournal } from '../testing/script-after-journal.js';
import { forkRun, type ForkChange } from '../run/fork-run.js';
import type { Trace } from '../trace/trace-node.js';
import type { EvalApprove, EvalCaseInput, EvalFork } from './eval-case.js';
import type { EvalModelSource, WorkflowEvalOutput } from './eval-output.js';
import { DEFAULT_STUDIO_URL, studioRunUrl } from './studio-link.js';
import { storedRedacted } from './stored-redacted.js';

/** Options of {@link workflowTask}. */
export interface WorkflowTaskOptions<OUTPUT = unknown> {
  /**
   * The folder of the cases' trace files (`<runId>.json`) and journals (`<runId>/journal.jsonl`),
   * relative to the current directory (evalite's: where it runs) or absolute; Studio shows
   * them with `npx june studio <runsDir>`. @default '.june/runs'
   */
  runsDir?: string;
  /**
   * Where June Studio serves, for each case's `studioUrl`; `false` leaves the link out.
   * @default 'http://127.0.0.1:4000/' (`npx june studio`'s address)
   */
  studioUrl?: string | false;
  /**
   * A model that answers every model call of a case that has neither `script` nor `replay`
   * (instead of the models the workflow names), or a function of the case that picks one
   * (`undefined`: the workflow's own). @default the workflow's own models
   */
  model?: LanguageModel | ((input: EvalCaseInput) => LanguageModel | undefined);
  /**
   * Answers approval requests before the case's `approve` does: `true`/`false` or a
   * decision; `undefined` leaves a request to the case's `approve`, so a case never waits
   * for a person. A call a `<Guard>` escalated is answered this way too (an eval has nobody
   * to ask): score the escalations with `guardDecisions`.
   */
  onApproval?: ApprovalPolicy;
  /** How requests are answered in cases that do not say (`approve` on the case). @default 'all' */
  approve?: EvalApprove;
  /**
   * Fail a case's run when it would succeed with a workflow error inside, or with script
   * turns that never ran (`run()`'s `strict`). @default false
   */
  strict?: boolean;
  /** Keep each case's journal in `runsDir`, as `june run` does, so a case can be replayed later. @default true */
  journal?: boolean;
  /** Picks the run's `output` from its results (`run()`'s `output`). */
  output?: RunOptions<OUTPUT>['output'];
  /**
   * Values and patterns to keep out of every case's records (`run()`'s `redact`): its trace
   * file and journal, and what evalite keeps of the case (its input, the task's output, the
   * columns), besides the credentials June removes by itself (`OPENAI_API_KEY`, the
   * credentials in `OPENAI_BASE_URL`, ...). See docs/redaction.md.
   */
  redact?: RedactOptions;
}

/**
 * Makes a workflow an eval task: a function evalite calls once per case
 * (`evalite(name, { data, task, scorers })`) that runs the workflow with the case's props
 * and gives back the run's results and trace ({@link WorkflowEvalOutput}).
 *
 * Each case's model answers come from its `script` (a model script, offline), its `replay`
 * (a recorded run's journal, offline), or else the workflow's own models (the configured
 * provider; `model` overrides them). Approval requests are answered by `onApproval`, then by
 * the case's `approve` (default `all`), never by a person, a `<Guard>`'s escalations included. Every run writes its trace file
 * (and journal) to `runsDir`, so Studio shows it; the output carries the file and Studio's
 * link to the run.
 *
 * What the task hands evalite passes the run's redaction (the `redact` option and the
 * credentials June removes by itself), as the trace file and journal do: its output (`output`,
 * `steps`, `answer` and the rest, so the scorers and columns see `[redacted]` too) and an
 * error it rejects with; the case's input is kept by evalite redacted, while the run and the
 * scorers get its real props.
 *
 * A run that fails does not fail the task: its output says how it failed (`status`,
 * `error`) and scorers score it (see `noErrors`). The task rejects only when the case cannot
 * start: a script or recording that cannot be read.
 *
 * @param workflow - the workflow's root component (or an element; the case's props are merged over its own).
 * @throws {WorkflowError} (through the returned promise) `script-unreadable`, `script-invalid`,
 *   `journal-unreadable`, `journal-corrupt` for a case's `script` or `replay` file.
 * @example
 * ```ts
 * import { evalite } from 'evalite';
 * import { loadDataset, toolsCalled, workflowTask } from 'june/evals';
 * import Release from './release.js';
 *
 * evalite('release', {
 *   data: () => loadDataset('changelogs.jsonl'),
 *   task: workflowTask(Release),
 *   scorers: [toolsCalled(['deploy'])],
 * });
 * ```
 */
export function workflowTask<OUTPUT = unknown>(
  workflow: JuneElement | Component,
  options: WorkflowTaskOptions<OUTPUT> = {},
): (input: EvalCaseInput) => Promise<WorkflowEvalOutput<OUTPUT>> {
  return async (input) => {
    const redactor = new Redactor(options.redact ?? {}, configuredSecrets);
    storedRedacted(input, redactor);
    try {
      return redactor.value(await runCase(workflow, input, options));
    } catch (error) {
      throw redactor.error(error);
    }
  };
}

/** One case: its run, settled, with where to find it. */
async function runCase<OUTPUT>(
  workflow: JuneElement | Component,
  input: EvalCaseInput,
  options: WorkflowTaskOptions<OUTPUT>,
): Promise<WorkflowEvalOutput<OUTPUT>> {
  const runsDir = resolve(options.runsDir ?? '.june/runs');
  if (input.fork) return forkCase(workflow, input, input.fork, options, runsDir);
  const source: EvalModelSource =
    input.script !== undefined ? 'script' : input.replay !== undefined ? 'replay' : 'provider';
  const recording = input.replay !== undefined ? await loadJournal(input.replay) : undefined;
  const model =
    input.script !== undefined
      ? scriptedModel(input.script)
      : source === 'provider'
        ? typeof options.model === 'function'
          ? options.model(input)
          : options.model
        : undefined;
  const handle = run<OUTPUT>(workflow, {
    props: input.props ?? recordedProps(recording),
    onApproval: answerEveryRequest(options.onApproval, input.approve ?? options.approve),
    // a case never waits for a person, a guard's escalation included
    guardEscalations: 'on-approval',
    consumers: [traceWriter({ dir: runsDir })],
    ...(model ? { model } : {}),
    ...(recording ? { replay: recording, replayTools: input.replayTools === true } : {}),
    ...(options.journal !== false ? { journal: fileJournalStore({ dir: runsDir }) } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.output ? { output: options.output } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  });
  const settled = await settle(handle);
  return {
    caseId: input.id,
    ...settled,
    traceFile: resolve(runsDir, `${settled.runId}.json`),
    ...(options.studioUrl !== false
      ? { studioUrl: studioRunUrl(options.studioUrl ?? DEFAULT_STUDIO_URL, settled.runId) }
      : {}),
    model: source,
  };
}

/**
 * A fork case: forks the recorded run `fork.from` of `runsDir` at `fork.at` with the case's
 * change, and runs the fork (its live part answered by the case's script, which starts
 * after the turns the prefix answered, or by the workflow's models).
 */
async function forkCase<OUTPUT>(
  workflow: JuneElement | Component,
  input: EvalCaseInput,
  fork: EvalFork,
  options: WorkflowTaskOptions<OUTPUT>,
  runsDir: string,
): Promise<WorkflowEvalOutput<OUTPUT>> {
  const store = fileJournalStore({ dir: runsDir });
  const made = await forkRun(store, fork.from, {
    at: fork.at,
    change: forkChange(fork),
    ...(input.props ? { props: input.props } : {}),
  });
  const model =
    input.script !== undefined
      ? scriptedModel(scriptAfterJournal(loadScript(input.script), await store.read(made.runId)))
      : typeof options.model === 'function'
        ? options.model(input)
        : options.model;
  const handle = run<OUTPUT>(workflow, {
    ...made.options,
    onApproval: answerEveryRequest(options.onApproval, input.approve ?? options.approve),
    guardEscalations: 'on-approval',
    consumers: [traceWriter({ dir: runsDir })],
    ...(model ? { model } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.output ? { output: options.output } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  });
  const settled = await settle(handle);
  return {
    caseId: input.id,
    ...settled,
    traceFile: resolve(runsDir, `${settled.runId}.json`),
    ...(options.studioUrl !== false
      ? { studioUrl: studioRunUrl(options.studioUrl ?? DEFAULT_STUDIO_URL, settled.runId) }
      : {}),
    model: input.script !== undefined ? 'script' : 'provider',
  };
}

/** A fork case's change, as `forkRun` takes it. */
function forkChange(fork: EvalFork): ForkChange {
  if (fork.answer !== undefined) return { answer: fork.answer };
  if (fork.output !== undefined) return { output: fork.output };
  const allAgents = fork.allAgents ? { allAgents: true } : {};
  if (fork.settings !== undefined)
    return {
      settings: fork.settings,
      ...(fork.model !== undefined ? { model: fork.model } : {}),
      ...allAgents,
    };
  if (fork.model !== undefined) return { model: fork.model, ...allAgents };
  return { result: fork.result };
}

/** The run's results, or how it failed, with its trace: what a case's output holds of the run. */
async function settle<OUTPUT>(
  handle: RunHandle<OUTPUT>,
): Promise<Omit<WorkflowEvalOutput<OUTPUT>, 'caseId' | 'traceFile' | 'studioUrl' | 'model'>> {
  try {
    const result = await handle.result;
    return {
      runId: result.trace.runId,
      status: result.trace.status,
      output: result.output,
      steps: result.steps,
      answer: answerText(result.output),
      usage: result.usage,
      trace: result.trace,
    };
  } catch (error) {
    const trace = (error as { trace?: Trace } | null)?.trace ?? handle.trace();
    return {
      runId: trace.runId,
      status: trace.status === 'running' || trace.status === 'waiting' ? 'failed' : trace.status,
      output: undefined,
      steps: {},
      answer: '',
      usage: trace.root.usage ?? emptyUsage(),
      error: {
        ...(JuneError.isInstance(error) ? { code: error.code } : {}),
        message: errorMessage(error),
      },
      trace,
    };
  }
}

/** The given policy first; what it leaves, the case's `approve` answers (automatically). */
function answerEveryRequest(
  policy: ApprovalPolicy | undefined,
  approve: EvalApprove = 'all',
): ApprovalPolicy {
  const fallback = approve === 'all' || {
    approved: false,
    reason: 'denied by the eval case (approve: none)',
  };
  return async (request) => (await policy?.(request)) ?? fallback;
}

/** The props a recorded run was started with (its journal's header), for a replay case that gives none. */
function recordedProps(
  recording: JournalRecord[] | undefined,
): Record<string, unknown> | undefined {
  const header = recording?.[0];
  return header?.type === 'journal' ? header.props : undefined;
}

function answerText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  return JSON.stringify(output);
}
