import {
  BUDGET_REQUEST_TOOL,
  budgetQuestion,
  isQuestion,
  type ApprovalRequest,
} from '../approvals/index.js';
import type { RunConsumer, RunLogEvent, RunLogEventOf } from '../events/index.js';
import { modelOutputOf, type TraceStatus } from '../trace/index.js';
import { compactJson, formatDuration, formatTokens, toolInputRefusal } from './format.js';
import type { TerminalStyle } from './terminal-style.js';
import { visibleText as v } from './visible-text.js';

/** Where the printer writes: a stream's `write`. */
export interface TextOutput {
  write(text: string): unknown;
}

/** Options of {@link ProgressPrinter}. */
export interface ProgressPrinterOptions {
  /** True when a person answers approvals at the terminal: the prompt shows the request, so the printer does not. */
  approvalsPrompted?: boolean;
  /** The longest tool input or output shown, in characters (a terminal's width, say). @default 120 */
  jsonChars?: number;
  /**
   * `false` when no model is called (`june try-tool`'s scripted turns): a step's line shows
   * no tokens. @default true
   */
  usage?: boolean;
}

type Of<T extends RunLogEvent['type']> = RunLogEventOf<T>;

/** The indent of what happens inside a step (tool calls, text, approvals). */
const inner = '  ';

const mark: Record<TraceStatus, string> = {
  succeeded: '✓',
  failed: '✗',
  aborted: '■',
  denied: '✗',
  running: '…',
  waiting: '…',
};

/**
 * Prints a run's events as progress lines: agents and their tools, steps with their prompt,
 * the model's text as it streams, tool calls with their input, tool results, approvals, and
 * each step's status, duration and tokens. Child runs (composite tools) are indented under
 * the tool call that started them. Colour comes from `style` (none when piped).
 *
 * The run's first and last lines (what runs, and how it ended) are the command's to print.
 *
 * @example
 * ```ts
 * const printer = new ProgressPrinter(process.stdout, terminalStyle(process.stdout));
 * for await (const event of handle.events) printer.event(event);
 * printer.end();
 * ```
 */
export class ProgressPrinter implements RunConsumer {
  readonly #out: TextOutput;
  readonly #style: TerminalStyle;
  readonly #approvalsPrompted: boolean;
  readonly #jsonChars: number;
  readonly #usage: boolean;
  /** The indent of the text line being streamed, or undefined at the start of a line. */
  #textIndent: string | undefined;
  #textStep: string | undefined;
  #held: string[] | undefined;
  readonly #requests = new Map<string, ApprovalRequest>();
  readonly #toolNames = new Map<string, string>();
  readonly #stepStarts = new Map<string, number>();
  /** How deep each run is (0 for the outermost), by run id, and each tool call's run, by node id. */
  readonly #runDepths = new Map<string, number>();
  readonly #callRuns = new Map<string, string>();
  /** The tool of each tool call's trace node: a replayed answer comes with no request before it. */
  readonly #callTools = new Map<string, string>();
  /** The steps running now (`<runId> <step>`): when more than one runs (a `<Parallel>`), lines inside a step name it. */
  readonly #running = new Set<string>();
  /**
   * A step's streamed text not yet printed, by `<runId> <step>`: while other steps run too,
   * each step's text prints in whole lines under its name, so branches streaming at once do
   * not interleave word by word. `indent` is the line's start, with the step's name.
   */
  readonly #pending = new Map<string, { indent: string; text: string }>();

  constructor(out: TextOutput, style: TerminalStyle, options: ProgressPrinterOptions = {}) {
    this.#out = out;
    this.#style = style;
    this.#approvalsPrompted = options.approvalsPrompted ?? false;
    this.#jsonChars = options.jsonChars ?? 120;
    this.#usage = options.usage ?? true;
  }

  /** Holds output back (while a prompt is on screen) until {@link release}. */
  hold(): void {
    this.#held ??= [];
  }

  /** Writes what was held back and prints as it comes again. */
  release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    if (held.length) this.#out.write(held.join(''));
  }

  /** Ends a text line left open by streamed text, so the next output starts on its own line. */
  end(): void {
    if (this.#textIndent !== undefined) this.#write('\n');
    this.#textIndent = undefined;
    this.#textStep = undefined;
  }

  /** Prints a full line at the run's depth (`runId`), after ending any streamed text. */
  line(text: string, runId?: string, extraIndent = ''): void {
    this.end();
    this.#write(`${this.#indentOf(runId)}${extraIndent}${text}\n`);
  }

  /**
   * Prints one event. A child run is as deep as the run of the tool call that started it
   * (its `parentId`), plus one.
   */
  event(event: RunLogEvent): void {
    // a finish whose start never came, a withdrawal of a request nobody was asked: nothing to print
    if ('unstarted' in event || 'unasked' in event) return;
    // what a step does next starts on a line of its own, after the text it streamed so far
    if (event.type === 'approval-request') this.#flush(`${event.runId} ${event.request.step}`);
    else if (event.type !== 'text-delta' && 'step' in event && typeof event.step === 'string')
      this.#flush(`${event.runId} ${event.step}`);
    switch (event.type) {
      case 'run-start':
        return this.#runStart(event);
      case 'agent-start':
        return this.#agentStart(event);
      case 'step-start':
        return this.#stepStart(event);
      case 'text-delta':
        return this.#text(
          event.runId,
          event.step,
          v(event.delta, { keepNewlines: true }),
          `${this.#indentOf(event.runId)}${inner}${this.#tag(event.runId, event.step)}`,
        );
      case 'parallel-start':
        return this.#parallelStart(event);
      case 'tool-call':
        return this.#toolCall(event);
      case 'tool-result':
      case 'tool-error':
        return this.#toolEnd(event);
      case 'approval-request':
      case 'approval-response':
      case 'approval-withdraw':
        return this.#approval(event);
      case 'step-finish':
        return this.#stepFinish(event);
      case 'guard-decision':
        return this.#guard(event);
      case 'error':
        return this.#error(event);
      case 'compaction':
        return this.#compaction(event);
      default:
        return;
    }
  }

  #runStart(event: Of<'run-start'>): void {
    const parentId = event.parentId;
    const caller = parentId === undefined ? undefined : this.#callRuns.get(parentId);
    this.#runDepths.set(event.runId, caller === undefined ? 0 : this.#depthOf(caller) + 1);
    if (event.parentToolCallId === undefined) return;
    const tool = this.#toolNames.get(event.parentToolCallId) ?? 'tool';
    this.line(
      this.#style.dim(`↳ ${v(tool)} runs its workflow (run ${v(event.runId)})`),
      caller,
      inner,
    );
  }

  #agentStart(event: Of<'agent-start'>): void {
    const s = this.#style;
    this.line(
      `${s.bold(event.agent === 'agent' ? 'agent' : `agent ${v(event.agent)}`)}${s.dim(event.tools.length ? ` · tools: ${v(event.tools.join(', '))}` : ' · no tools')}`,
      event.runId,
    );
  }

  /** `⇉ parallel: 4 branches (cart.ts, price.ts, …), 2 at once`. */
  #parallelStart(event: Of<'parallel-start'>): void {
    const shown = event.branches.slice(0, 5).join(', ');
    const more = event.branches.length > 5 ? ', …' : '';
    const count = `${event.branches.length} branch${event.branches.length === 1 ? '' : 'es'}`;
    const limit = event.limit !== undefined ? `, ${event.limit} at once` : '';
    this.line(this.#style.dim(`⇉ parallel: ${count} (${v(shown + more)})${limit}`), event.runId);
  }

  /** `review-cart › ` before a line inside a step while other steps run too; '' otherwise. */
  #tag(runId: string, step: string): string {
    return this.#running.size > 1 && this.#running.has(`${runId} ${step}`)
      ? this.#style.dim(`${v(step)} › `)
      : '';
  }

  #stepStart(event: Of<'step-start'>): void {
    const s = this.#style;
    this.#running.add(`${event.runId} ${event.step}`);
    this.#stepStarts.set(`${event.runId} ${event.step}`, Date.now());
    this.line(
      `${s.bold(`▸ ${v(event.step)}`)} ${s.dim(v(compactText(event.prompt)))}`,
      event.runId,
    );
  }

  /** Under its step: `⇣ compacted the conversation: 6 messages → a summary (11 → 6 messages)`. */
  #compaction(event: Of<'compaction'>): void {
    const { replaced, messages } = event;
    this.line(
      this.#style.dim(
        `⇣ compacted the conversation: ${replaced} messages → a summary (${messages.before} → ${messages.after} messages)`,
      ),
      event.runId,
      inner,
    );
  }

  #toolCall(event: Of<'tool-call'>): void {
    // a budget's request shows as its approval request
    if (event.tool === BUDGET_REQUEST_TOOL) return;
    const s = this.#style;
    this.#toolNames.set(event.toolCallId, event.tool);
    this.#callRuns.set(event.nodeId, event.runId);
    this.#callTools.set(event.nodeId, event.tool);
    this.line(
      `${this.#tag(event.runId, event.step)}${s.tool(`→ ${v(event.tool)}`)} ${s.dim(v(compactJson(event.input, this.#jsonChars)))}`,
      event.runId,
      inner,
    );
  }

  #toolEnd(event: Of<'tool-result'> | Of<'tool-error'>): void {
    // a budget's request ends with its answer, shown with the approval
    if (event.tool === BUDGET_REQUEST_TOOL) return;
    const s = this.#style;
    const text =
      event.type === 'tool-result'
        ? `${s.tool(`← ${v(event.tool)}`)} ${s.dim(v(compactJson(modelOutputOf(event.output), this.#jsonChars)))}`
        : s.failure(
            `✗ ${v(event.tool)} failed: ${v(toolInputRefusal(event.error.message) ?? event.error.message)}`,
          );
    this.line(`${this.#tag(event.runId, event.step)}${text}`, event.runId, inner);
  }

  /** A guard's decision other than `allow` (an escalation shows with its approval request). */
  #guard(event: Of<'guard-decision'>): void {
    if (event.action === 'allow' || event.action === 'escalate') return;
    const s = this.#style;
    const what = event.tool !== undefined ? `the call of ${v(event.tool)}` : `the ${event.check}`;
    const verb = event.action === 'reject' ? 'rejected' : 'tripped on';
    this.line(
      s.failure(
        `✗ guard ${v(event.guard)} ${verb} ${what}: ${v(event.reason ?? 'no reason given')}`,
      ),
      event.runId,
      inner,
    );
  }

  #approval(
    event: Of<'approval-request'> | Of<'approval-response'> | Of<'approval-withdraw'>,
  ): void {
    const s = this.#style;
    if (event.type === 'approval-request') {
      this.#requests.set(event.request.id, event.request);
      if (this.#approvalsPrompted) return;
      const { request } = event;
      const asks = request.budget
        ? `${s.attention(`? ${v(budgetQuestion(request.budget))}`)} ${s.dim(`(before a model call of step ${v(request.step)})`)}`
        : isQuestion(request)
          ? `${s.attention(`? ${v(request.tool)} asks`)} ${s.dim(`in step ${v(request.step)}: ${v(request.question.prompt)}`)}`
          : `${s.attention(`? ${v(request.tool)} needs approval`)} ${s.dim(`in step ${v(request.step)}: ${v(compactJson(request.input, this.#jsonChars))}`)}${request.guard ? s.dim(` (the guard ${v(request.guard.name)} escalated it: ${v(request.guard.reason ?? 'no reason given')})`) : ''}`;
      this.line(asks, event.runId, inner);
    } else if (event.type === 'approval-response') {
      const asked = this.#requests.get(event.id);
      const tool = asked?.budget
        ? `more for the budget ${v(asked.budget.name)}`
        : v(asked?.tool ?? this.#callTools.get(event.nodeId) ?? 'the tool call');
      const how = event.replayed
        ? ` (${v(replayedFrom(event))})`
        : event.automatic
          ? ' (automatic)'
          : '';
      const question = asked?.kind === 'question' || event.question !== undefined;
      const text =
        event.output !== undefined
          ? s.success(
              `✓ ${question ? 'answered' : 'answered instead of'} ${tool}: ${v(compactJson(event.output, this.#jsonChars))}${how}`,
            )
          : event.approved
            ? s.success(
                `✓ approved ${tool}${event.input !== undefined ? ` with an edited input: ${v(compactJson(event.input, this.#jsonChars))}` : ''}${how}`,
              )
            : s.failure(
                `✗ ${question ? 'declined' : 'denied'} ${tool}${event.reason ? `: ${v(event.reason)}` : ''}${how}`,
              );
      this.line(text, event.runId, inner);
    } else {
      const asked = this.#requests.get(event.id);
      const what = asked?.kind === 'question' ? 'question' : 'approval for';
      const tool = v(asked?.tool ?? 'a tool call');
      this.line(s.dim(`${what} ${tool} withdrawn: ${v(event.reason)}`), event.runId, inner);
    }
  }

  #stepFinish(event: Of<'step-finish'>): void {
    const s = this.#style;
    this.#running.delete(`${event.runId} ${event.step}`);
    const started = this.#stepStarts.get(`${event.runId} ${event.step}`);
    const took = started === undefined ? '' : ` · ${formatDuration(Date.now() - started)}`;
    const text = `${mark[event.status]} ${v(event.step)}${event.status === 'succeeded' ? '' : ` ${event.status}`}${took}${this.#usage ? ` · ${formatTokens(event.usage)}` : ''}`;
    this.line(event.status === 'succeeded' ? s.success(text) : s.failure(text), event.runId);
  }

  /** A failure: a retry, a `<Catch>` rendering its fallback, or a child run's own failure. */
  #error(event: Of<'error'>): void {
    const s = this.#style;
    const attempts = `${event.attempt} attempt${event.attempt === 1 ? '' : 's'}`;
    if (event.willRetry === true)
      this.line(s.attention(`✗ ${v(event.error.message)} (retrying)`), event.runId);
    else if (event.fallback)
      this.line(
        s.attention(
          `✗ ${v(event.error.message)} (<Catch> gave up after ${attempts}; rendering its fallback)`,
        ),
        event.runId,
      );
    else if (this.#depthOf(event.runId) > 0)
      this.line(s.failure(`✗ ${v(event.error.message)}`), event.runId);
  }

  #depthOf(runId: string): number {
    return this.#runDepths.get(runId) ?? 0;
  }

  /** Four spaces per level of child run. */
  #indentOf(runId: string | undefined): string {
    return '    '.repeat(runId === undefined ? 0 : this.#depthOf(runId));
  }

  #text(runId: string, step: string, delta: string, indent: string): void {
    const key = `${runId} ${step}`;
    const pending = this.#pending.get(key);
    if (pending !== undefined || this.#running.size > 1) {
      // other steps stream too: print this step's text a whole line at a time
      const lines = `${pending?.text ?? ''}${delta}`.split('\n');
      const rest = lines.pop()!;
      for (const text of lines) this.line(text === '' ? '' : `${indent}${text}`);
      if (rest === '') this.#pending.delete(key);
      else this.#pending.set(key, { indent, text: rest });
      return;
    }
    if (this.#textIndent !== undefined && this.#textStep !== step) this.end();
    this.#textStep = step;
    delta.split('\n').forEach((segment, index) => {
      if (index > 0) {
        this.#write('\n');
        this.#textIndent = undefined;
      }
      if (segment === '') return;
      if (this.#textIndent === undefined) {
        this.#textIndent = indent;
        this.#write(indent);
      }
      this.#write(segment);
    });
  }

  /** Prints what a step streamed and has not printed yet, as a line of its own. */
  #flush(key: string): void {
    const pending = this.#pending.get(key);
    if (pending === undefined) return;
    this.#pending.delete(key);
    this.line(`${pending.indent}${pending.text}`);
  }

  #write(text: string): void {
    if (this.#held) this.#held.push(text);
    else this.#out.write(text);
  }
}

function compactText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}

/**
 * Where a replayed answer came from, as its line says it: the journal, with who answered and
 * through what when the journal kept them (`from the journal: ana, through terminal`).
 */
function replayedFrom(event: Of<'approval-response'>): string {
  const through =
    event.source !== undefined && event.source !== 'journal' ? `through ${event.source}` : '';
  const who = [event.answeredBy, through].filter((part) => part !== undefined && part !== '');
  return who.length > 0 ? `from the journal: ${who.join(', ')}` : 'from the journal';
}
