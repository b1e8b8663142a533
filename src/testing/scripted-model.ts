import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { pacedStream } from '../models/paced-stream.js';
import { SystemError, WorkflowError } from '../errors/index.js';
import { loadScript } from './load-script.js';
import { scriptLabel, validateScript, type ModelScript, type ScriptTurn } from './script-format.js';
import { turnAnswer, turnStreamParts, type TurnAnswer } from './turn-answer.js';
import type { ApprovalSource } from '../approvals/approval-source.js';
import { scriptAnswers } from './script-answers.js';

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /**
   * The model id shown in traces and results.
   * @default the script file's name without `.json`, or `"scripted"` for a script object
   */
  name?: string;
  /**
   * Turns of the script that earlier runs took already (a thread's earlier runs, or the
   * journal of a run resumed or forked, given the script without them): how many of each
   * step's, and who took them, in words (`the thread's earlier runs`). Turns are numbered as
   * in the whole script (in calls, errors and unused turns); with `by`, a call of a step
   * whose turns they took all says so.
   * @default none
   */
  taken?: { turns: Record<string, number>; by?: string };
  /**
   * The file the script (given as an object) was read from, named in errors and in the
   * unused turns. @default the path, when `script` is one
   */
  source?: string;
  /**
   * Turns left over are expected, not a failure: {@link ScriptedModel.assertAllTurnsUsed}
   * passes (`unusedTurns()` still lists them). For a fork answered by the script of the run
   * it forks: its turns on the recorded run's path after the fork point may never be reached.
   * @default false
   */
  unusedTurnsAllowed?: boolean;
  /**
   * The approval source the model gives as {@link ScriptedModel.approvals}, instead of one
   * made from `script` (such as `scriptAnswers(wholeScript, { answered })` for a script given
   * without the turns a journal took, whose calls may still wait for their answers).
   * @default `scriptAnswers(script, { taken })`
   */
  approvals?: ApprovalSource;
}

/** One model call answered from the script: its step path, its 1-based turn, its prompt. */
export interface ScriptedCall {
  step: string;
  turn: number;
  prompt: LanguageModelV4Prompt;
}

/** A scripted turn, by step path and 1-based turn number. */
export interface ScriptedTurnRef {
  step: string;
  turn: number;
}

/**
 * A `LanguageModelV4` that answers from a {@link ModelScript}, made by {@link scriptedModel}.
 *
 * Each call reads its step path from `providerOptions.june.step` (June sets it on every call)
 * and takes that step's next turn. `calls` records the calls; `unusedTurns()` and
 * `assertAllTurnsUsed()` find turns that never ran.
 *
 * @example
 * ```ts
 * const model = scriptedModel({ steps: { greet: [{ text: 'Hello!' }] } });
 * // ... run the workflow with <Agent model={model}> ...
 * model.assertAllTurnsUsed();
 * ```
 */
export class ScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'june.scripted';
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  /** Every call that took a turn, in call order (failed turns included). */
  readonly calls: ScriptedCall[] = [];
  /**
   * The script's answers to the approval requests of its tool calls (each call's `answer`:
   * approve, approve with an edited input, deny, or answer instead of the tool), as an
   * approval source named `script`: pass it as `run(el, { approvalSources: [model.approvals] })`.
   */
  readonly approvals: ApprovalSource;
  readonly #script: ModelScript;
  readonly #source: string | undefined;
  readonly #used = new Map<string, number>();
  readonly #taken: ScriptedModelOptions['taken'];
  readonly #unusedAllowed: boolean;

  /**
   * Use {@link scriptedModel}; this takes a script that is already valid, its `name` (the
   * model id) and the file it came from (`source`), if any.
   */
  constructor(
    script: ModelScript,
    options: {
      name: string;
      source?: string;
      taken?: ScriptedModelOptions['taken'];
      unusedTurnsAllowed?: boolean;
      approvals?: ApprovalSource;
    },
  ) {
    this.#script = script;
    this.#source = options.source;
    this.#taken = options.taken;
    this.#unusedAllowed = options.unusedTurnsAllowed === true;
    this.approvals =
      options.approvals ??
      scriptAnswers(script, options.taken ? { taken: options.taken.turns } : {});
    this.modelId = options.name;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { answer, responseId } = this.#answer(options);
    return {
      content: answer.content,
      finishReason: answer.finishReason,
      usage: answer.usage,
      warnings: [],
      response: { id: responseId, modelId: this.modelId },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { answer, responseId } = this.#answer(options);
    const chunks = turnStreamParts(answer, { id: responseId, modelId: this.modelId });
    return { stream: pacedStream(chunks) };
  }

  /** The turns no call has taken yet, in script order, numbered as in the whole script. */
  unusedTurns(): ScriptedTurnRef[] {
    return Object.entries(this.#script.steps).flatMap(([step, turns]) => {
      const used = this.#used.get(step) ?? 0;
      const first = this.#takenOf(step) + used + 1;
      return turns.slice(used).map((_, index) => ({ step, turn: first + index }));
    });
  }

  /** How many of `step`'s turns earlier runs (or the journal) took: the script's numbers start after them. */
  #takenOf(step: string): number {
    return this.#taken?.turns[step] ?? 0;
  }

  /**
   * Fails if any turn never ran, so a test notices a script that no longer matches its workflow
   * (unless made with `unusedTurnsAllowed`).
   *
   * @throws {WorkflowError} `script-turns-unused` listing each step path and its unused turns.
   */
  assertAllTurnsUsed(): void {
    const unused = this.unusedTurns();
    if (unused.length === 0 || this.#unusedAllowed) return;
    const list = unused.map(({ step, turn }) => `step "${step}" turn ${turn}`).join(', ');
    const [turns, them] = unused.length === 1 ? ['turn', 'it'] : ['turns', 'them'];
    throw new WorkflowError(
      'script-turns-unused',
      `june: ${scriptLabel(this.#source)} has ${unused.length} ${turns} that never ran: ${list}. ` +
        `Remove ${them} from the script, or find why the workflow stopped before ${them}.`,
    );
  }

  #answer(options: LanguageModelV4CallOptions): { answer: TurnAnswer; responseId: string } {
    options.abortSignal?.throwIfAborted();
    const step = stepPathOf(options);
    const turns = this.#script.steps[step];
    const taken = this.#takenOf(step);
    const by = this.#taken?.by;
    if (
      by !== undefined &&
      taken > 0 &&
      (turns === undefined || (this.#used.get(step) ?? 0) >= turns.length)
    ) {
      const all = taken + (turns?.length ?? 0);
      throw new WorkflowError(
        'script-turns-exhausted',
        `june: ${scriptLabel(this.#source)} has no turn left for step "${step}": ${by} used ${taken === all ? (all === 1 ? 'its one turn' : `all its ${all} turns`) : `${taken} of its ${all} turns, and this run the rest`}. ` +
          `Add a turn to steps["${step}"] in the script for this run.`,
      );
    }
    if (turns === undefined) {
      const known = Object.keys(this.#script.steps)
        .map((path) => `"${path}"`)
        .join(', ');
      throw new WorkflowError(
        'script-step-missing',
        `june: ${scriptLabel(this.#source)} has no turns for step "${step}"; ${known ? `it has turns for ${known}` : 'it has no turns left for any step'}. ` +
          `Add "${step}" under "steps" in the script, or check the step's id.`,
      );
    }
    const used = (this.#used.get(step) ?? 0) + 1;
    const turn: ScriptTurn | undefined = turns[used - 1];
    // numbered as in the whole script: after the turns earlier runs (or the journal) took
    const number = taken + used;
    if (turn === undefined) {
      const all = taken + turns.length;
      throw new WorkflowError(
        'script-turns-exhausted',
        `june: ${scriptLabel(this.#source)} ran out of turns for step "${step}": the model was called for ` +
          `turn ${number}, but the step has ${all} ${all === 1 ? 'turn' : 'turns'}. ` +
          `Add a turn to steps["${step}"] in the script.`,
      );
    }
    this.#used.set(step, used);
    this.calls.push({ step, turn: number, prompt: options.prompt });
    if (turn.error !== undefined) throw new SystemError('scripted-model-error', turn.error);
    checkTools(turn, { step, turn: number }, this.#source, options);
    return {
      answer: turnAnswer(turn, { step, turn: number, prompt: options.prompt }),
      responseId: `resp_${step}_${number}`,
    };
  }
}

/**
 * Makes a scripted model: a real `LanguageModelV4` (both `doGenerate` and `doStream`) whose
 * answers come from a script of turns keyed by step path, for running workflows offline.
 *
 * @param script - a {@link ModelScript}, or the path of a JSON file holding one.
 * @param options - `name`, the model id; `taken`, `source`, `unusedTurnsAllowed`.
 * @throws {WorkflowError} `script-invalid` / `script-unreadable` when the script is wrong or
 *   missing. Calls fail with `scripted-call-outside-step` (no `providerOptions.june.step`),
 *   `script-step-missing`, `script-turns-exhausted`, `script-tool-unavailable` (a turn calls
 *   a tool the agent does not have), or {@link SystemError} `scripted-model-error` for a
 *   turn's `error`.
 * @example
 * ```ts
 * import { scriptedModel } from 'june/testing';
 * const model = scriptedModel('test/fixtures/scripts/release.json');
 * const result = await run(<Agent model={model}><Step id="release" prompt="Ship it" /></Agent>).result;
 * model.assertAllTurnsUsed();
 * ```
 */
export function scriptedModel(
  script: ModelScript | string,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  if (typeof script === 'string') {
    const name = options.name ?? script.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
    return new ScriptedModel(loadScript(script), {
      name,
      source: options.source ?? script,
      ...(options.taken ? { taken: options.taken } : {}),
      ...(options.unusedTurnsAllowed ? { unusedTurnsAllowed: true } : {}),
      ...(options.approvals ? { approvals: options.approvals } : {}),
    });
  }
  return new ScriptedModel(validateScript(script), {
    name: options.name ?? 'scripted',
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.taken ? { taken: options.taken } : {}),
    ...(options.unusedTurnsAllowed ? { unusedTurnsAllowed: true } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
}

function stepPathOf(options: LanguageModelV4CallOptions): string {
  const step = options.providerOptions?.june?.step;
  if (typeof step === 'string' && step !== '') return step;
  throw new WorkflowError(
    'scripted-call-outside-step',
    'june: the scripted model was called outside a June step: the call has no providerOptions.june.step. ' +
      'Use the model as an <Agent model> in a workflow, or pass providerOptions: { june: { step: "<step id>" } } ' +
      'when calling the AI SDK yourself.',
  );
}

function checkTools(
  turn: ScriptTurn,
  place: ScriptedTurnRef,
  source: string | undefined,
  options: LanguageModelV4CallOptions,
): void {
  const available = (options.tools ?? []).map((tool) => tool.name);
  const missing = turn.toolCalls?.find((call) => !available.includes(call.tool));
  if (missing === undefined) return;
  const has =
    available.length === 0
      ? 'it has no tools'
      : `it has ${available.map((name) => `"${name}"`).join(', ')}`;
  throw new WorkflowError(
    'script-tool-unavailable',
    `june: ${scriptLabel(source)} calls the tool "${missing.tool}" at step "${place.step}", turn ${place.turn}, ` +
      `but the agent has no such tool; ${has}. Change the tool in the script, or give the agent the tool.`,
  );
}
