import { expand, input } from '@inquirer/prompts';
import { JuneError } from '../errors/index.js';
import { visibleText } from './visible-text.js';
import { localUser } from '../approvals/local-user.js';
import { budgetQuestion, isQuestion } from '../approvals/approval-request.js';
import { questionForm, type PromptContext } from './question-form.js';
import type {
  ApprovalRequest,
  ApprovalSource,
  BudgetAsk,
  GivenAnswer,
  SourceInbox,
} from '../approvals/index.js';
import type { ProgressPrinter } from './progress-printer.js';
import type { TerminalStyle } from './terminal-style.js';

type Choice = 'approve' | 'deny' | 'edit' | 'respond';

/** Whether `text` is a JSON value. */
function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** An answer typed at the prompt: its JSON value, or the text itself when it is not JSON. */
function answerValue(text: string): unknown {
  return parsesAsJson(text) ? (JSON.parse(text) as unknown) : text;
}

/**
 * What the prompter answers through when it is not connected to a run's inbox (a run
 * followed over the database). Each may return a promise: one that rejects with a
 * {@link JuneError} (an edited input or an answer the tool's schema refuses) is shown in red
 * and the person asked again; the request waits meanwhile.
 */
export interface ApprovalAnswerer {
  /** Approves the call `id`; with `input`, to run with that input instead of the model's. */
  approve(id: string, input?: unknown): void | Promise<void>;
  deny(id: string, reason?: string): void | Promise<void>;
  /**
   * Answers the call `id` instead of the tool, or the question `id`, with `output`; without
   * it, a question can only be declined here and a call not answered instead.
   */
  respond?(id: string, output: unknown): void | Promise<void>;
}

/** Options of {@link ApprovalPrompter}. */
export interface ApprovalPrompterOptions {
  /**
   * Where answers go when the prompter is not connected to a run's inbox as a source
   * (`handle.connect(prompter)`); connected, it answers through the inbox.
   */
  answerer?: ApprovalAnswerer;
  /** Output is held back while a prompt is on screen. */
  printer: ProgressPrinter;
  style: TerminalStyle;
  /** The terminal: keys are read from `input`, the prompt is drawn on `output`. */
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Called when the person presses Ctrl-C in a prompt (the terminal is in raw mode, so no SIGINT comes). */
  onInterrupt: () => void;
  /** Called when the terminal goes away (closed, hung up): `input` ends. @default onInterrupt */
  onHangup?: () => void;
}

/**
 * Asks a person at the terminal about each approval request, one at a time (requests that
 * arrive together queue up): it shows the tool, the step path and the exact input JSON and
 * asks, with `@inquirer/prompts` `expand` (default: no), `y` to run the call, `n` to deny it
 * (then an optional reason, which the model sees), `e` to edit its input as JSON and run it
 * with that, or `a` to answer instead of the tool (JSON or text the model reads as its
 * result). An edit the tool's schema refuses is shown and asked for again. Edits and answers
 * are offered through a run's inbox, and through an `answerer` that can `respond`; through
 * one that cannot, `y` and `n`.
 * A question (`kind: 'question'`) is asked as one instead: its prompt, then a form built
 * from its answer schema, or declining it (see `#question`).
 *
 * It is the `terminal` approval source: connected to a run's inbox, it is asked about each
 * request, answers as the user this process runs as (`answeredBy`), and takes a prompt off
 * the screen when the request is answered elsewhere (Studio) or withdrawn.
 *
 * @example
 * ```ts
 * const prompter = new ApprovalPrompter({ printer, style, input: process.stdin, output: process.stdout, onInterrupt });
 * handle.connect(prompter);
 * ```
 */
export class ApprovalPrompter implements ApprovalSource {
  readonly name = 'terminal';
  readonly #options: ApprovalPrompterOptions;
  #inbox: SourceInbox | undefined;
  readonly #withdrawn = new Set<string>();
  #queue: Promise<void> = Promise.resolve();
  #active: { id: string; controller: AbortController } | undefined;
  #closed = false;

  constructor(options: ApprovalPrompterOptions) {
    this.#options = options;
    // A terminal that went away ends `input`. A prompt's readline would then take the terminal
    // out of raw mode, fail with EIO and throw it unhandled, leaving the run's trace running:
    // there is no terminal mode left to restore, and the run stops as on a hang-up.
    options.input.prependOnceListener('end', () => {
      (options.input as { setRawMode?: (mode: boolean) => unknown }).setRawMode = () =>
        options.input;
      this.#closed = true;
      (options.onHangup ?? options.onInterrupt)();
    });
  }

  /** @inheritdoc */
  connect(inbox: SourceInbox): () => void {
    this.#inbox = inbox;
    return () => {
      this.#inbox = undefined;
    };
  }

  /** @inheritdoc */
  requested(request: ApprovalRequest): void {
    this.ask(request);
  }

  /** @inheritdoc A prompt for a request answered elsewhere, or withdrawn, goes away. */
  settled(request: ApprovalRequest): void {
    this.withdraw(request.id);
  }

  /** Queues a prompt for `request`. */
  ask(request: ApprovalRequest): void {
    this.#queue = this.#queue.then(() => this.#prompt(request));
  }

  /** Drops the request `id`: its prompt is taken off the screen, or never shown. */
  withdraw(id: string): void {
    this.#withdrawn.add(id);
    if (this.#active?.id === id) this.#active.controller.abort();
  }

  /** Takes any prompt off the screen and asks nothing more; resolves when the queue is done. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#active?.controller.abort();
    await this.#queue;
  }

  async #prompt(request: ApprovalRequest): Promise<void> {
    if (this.#closed || this.#withdrawn.has(request.id)) return;
    const { printer, style, output } = this.#options;
    const controller = new AbortController();
    this.#active = { id: request.id, controller };
    printer.end();
    printer.hold();
    const context = { input: this.#options.input, output, signal: controller.signal };
    const tool = visibleText(request.tool);
    try {
      if (isQuestion(request)) {
        await this.#question(request, context);
        return;
      }
      if (request.budget) {
        await this.#budget(request, request.budget, context);
        return;
      }
      // the input's newlines are JSON's own layout (a string's newlines are escaped by JSON)
      const json = visibleText(JSON.stringify(request.input, null, 2) ?? 'undefined', {
        keepNewlines: true,
      });
      output.write(
        `${style.attention(`? ${style.bold(tool)} needs approval`)} in step ${style.bold(visibleText(request.step))}, with input:\n`,
      );
      output.write(`${json.replace(/^/gm, '    ')}\n`);
      if (request.guard)
        output.write(
          `  ${style.attention(`escalated by the guard ${style.bold(visibleText(request.guard.name))}`)}: ${visibleText(request.guard.reason ?? 'no reason given')}\n`,
        );
      let choice = await this.#choose(tool, context);
      // an edit or an answer left empty goes back to the choices
      while (
        (choice === 'edit' || choice === 'respond') &&
        !(await this.#edit(request, choice, context))
      )
        choice = await this.#choose(tool, context);
      if (choice === 'approve') await this.#send(request, { approved: true });
      else if (choice === 'deny') {
        const reason = (
          await input({ message: 'Reason for the model (optional):' }, context)
        ).trim();
        await this.#send(request, { approved: false, ...(reason === '' ? {} : { reason }) });
      }
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'ExitPromptError') this.#options.onInterrupt();
      else if (name !== 'AbortPromptError') {
        const why = `the approval prompt failed: ${(error as Error).message}`;
        output.write(`${style.failure(`june: ${visibleText(why)}; denying the ${tool} call.`)}\n`);
        await this.#send(request, { approved: false, reason: why }).catch(() => {});
      }
    } finally {
      this.#active = undefined;
      printer.release();
    }
  }

  /**
   * Asks a question: shows its prompt, then `a` to answer it with a form built from its
   * answer schema (see {@link questionForm}) or `d` to decline it with a reason the model
   * reads. An answer the schema refuses is shown in red, then the choice comes again: the form
   * again, filled with it, or declining. Through an `answerer` without `respond`, only declining is offered.
   */
  async #question(
    request: ApprovalRequest & { question: NonNullable<ApprovalRequest['question']> },
    context: PromptContext,
  ): Promise<void> {
    const { output, style } = this.#options;
    const prompt = visibleText(request.question.prompt, { keepNewlines: true });
    output.write(
      `${style.attention(`? ${style.bold(visibleText(request.tool))} asks`)} in step ${style.bold(visibleText(request.step))}:\n`,
    );
    output.write(`${prompt.replace(/^/gm, '    ')}\n`);
    const answerable = this.#inbox !== undefined || this.#options.answerer?.respond !== undefined;
    let previous: unknown;
    // after an answer the schema refused, the choice comes again: answer anew, or decline
    for (;;) {
      const choice = await expand<'answer' | 'decline'>(
        {
          message: previous === undefined ? 'Answer this question?' : 'Answer it again?',
          default: answerable ? 'a' : 'd',
          expanded: true,
          choices: [
            ...(answerable
              ? [{ key: 'a' as const, name: 'Answer it', value: 'answer' as const }]
              : []),
            { key: 'd', name: 'Decline (with a reason for the model)', value: 'decline' },
          ],
        },
        context,
      );
      if (choice === 'decline') {
        const reason = (
          await input({ message: 'Reason for the model (optional):' }, context)
        ).trim();
        await this.#send(request, { approved: false, ...(reason === '' ? {} : { reason }) });
        return;
      }
      previous = await questionForm(request.question.answerSchema, previous, context);
      try {
        await this.#send(request, { approved: false, output: previous });
        return;
      } catch (error) {
        if (!JuneError.isInstance(error)) throw error;
        output.write(`${style.failure(visibleText(error.message))}\n`);
      }
    }
  }

  /** Asks whether a `<Budget>` may spend more: yes raises its cap, no fails the run. */
  async #budget(
    request: ApprovalRequest,
    budget: BudgetAsk,
    context: PromptContext,
  ): Promise<void> {
    const { style, output } = this.#options;
    output.write(
      `${style.attention(`? ${visibleText(budgetQuestion(budget))}`)} (before a model call of step ${style.bold(visibleText(request.step))})\n`,
    );
    const choice = await expand<'approve' | 'deny'>(
      {
        message: `Allow the budget ${visibleText(budget.name)} more?`,
        default: 'n',
        expanded: true,
        choices: [
          { key: 'y', name: 'Yes, raise its cap and go on', value: 'approve' },
          { key: 'n', name: 'No, the run fails', value: 'deny' },
        ],
      },
      context,
    );
    await this.#send(request, { approved: choice === 'approve' });
  }

  /** Asks what to do with the call of `tool`: run it, deny it, or (through an inbox) edit it or answer instead. */
  #choose(tool: string, context: PromptContext): Promise<Choice> {
    return expand<Choice>(
      {
        message: `Allow this ${tool} call?`,
        default: 'n',
        expanded: true,
        choices: [
          { key: 'y', name: 'Yes, run it', value: 'approve' },
          { key: 'n', name: 'No, deny it (with a reason for the model)', value: 'deny' },
          ...(this.#inbox || this.#options.answerer?.respond
            ? [
                { key: 'e' as const, name: 'Edit the input, then run it', value: 'edit' as const },
                {
                  key: 'a' as const,
                  name: 'Answer instead of the tool',
                  value: 'respond' as const,
                },
              ]
            : []),
        ],
      },
      context,
    );
  }

  /**
   * Asks for an edited input (JSON, the model's as the default) or an answer instead of the
   * tool (JSON; text that is not JSON is taken as a string), and answers with it. One the
   * tool's schema refuses is shown in red and asked for again, with what was typed as the
   * default; the request waits meanwhile. Left empty or as it was (the model's input, or what
   * was refused), nothing is sent.
   * @returns whether it answered: `false` when the person left it so, to choose again
   */
  async #edit(
    request: ApprovalRequest,
    choice: 'edit' | 'respond',
    context: PromptContext,
  ): Promise<boolean> {
    const { output, style } = this.#options;
    let typed = choice === 'edit' ? JSON.stringify(request.input) : '';
    for (;;) {
      // an empty line gives the default back, so one left as it was goes back to the choices too
      const shown = typed;
      typed = await input(
        {
          message:
            choice === 'edit'
              ? 'Input to run the call with (JSON), or empty to go back:'
              : 'Answer the model reads as the result (JSON or text), or empty to go back:',
          default: typed,
          prefill: 'editable',
          validate: (text) =>
            choice === 'respond' || text.trim() === '' || parsesAsJson(text)
              ? true
              : 'This is not JSON; check quotes and brackets.',
        },
        context,
      );
      if (typed.trim() === '' || typed === shown) return false;
      const value = choice === 'edit' ? (JSON.parse(typed) as unknown) : answerValue(typed);
      try {
        await this.#send(
          request,
          choice === 'edit' ? { approved: true, input: value } : { approved: false, output: value },
        );
        return true;
      } catch (error) {
        if (!JuneError.isInstance(error)) throw error;
        output.write(`${style.failure(visibleText(error.message))}\n`);
      }
    }
  }

  /**
   * Answers `request`: through the inbox when connected (an answer that comes too late, the
   * request answered elsewhere or withdrawn, changes nothing), else through the answerer.
   */
  async #send(request: ApprovalRequest, decision: GivenAnswer): Promise<void> {
    if (this.#inbox) {
      const user = localUser();
      this.#inbox.answer(request.id, {
        ...decision,
        ...(user !== undefined ? { answeredBy: user } : {}),
      });
      return;
    }
    const answerer = this.#options.answerer;
    if (decision.approved) await answerer?.approve(request.id, decision.input);
    else if (decision.output !== undefined && answerer?.respond)
      await answerer.respond(request.id, decision.output);
    else await answerer?.deny(request.id, decision.reason);
  }
}
