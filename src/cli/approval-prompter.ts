import { confirm, input } from '@inquirer/prompts';
import { visibleText } from './visible-text.js';
import type { ApprovalRequest } from '../approvals/index.js';
import type { ProgressPrinter } from './progress-printer.js';
import type { TerminalStyle } from './terminal-style.js';

/** What the prompter answers through: the run handle's `approve` and `deny`. */
export interface ApprovalAnswerer {
  approve(id: string): void;
  deny(id: string, reason?: string): void;
}

/** Options of {@link ApprovalPrompter}. */
export interface ApprovalPrompterOptions {
  answerer: ApprovalAnswerer;
  /** Output is held back while a prompt is on screen. */
  printer: ProgressPrinter;
  style: TerminalStyle;
  /** The terminal: keys are read from `input`, the prompt is drawn on `output`. */
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Called when the person presses Ctrl-C in a prompt (the terminal is in raw mode, so no SIGINT comes). */
  onInterrupt: () => void;
}

/**
 * Asks a person at the terminal about each approval request, one at a time (requests that
 * arrive together queue up): it shows the tool, the step path and the exact input JSON, asks
 * y/n with `@inquirer/prompts` `confirm` (default: no), and on "no" asks for an optional
 * reason, which the model sees.
 *
 * @example
 * ```ts
 * const prompter = new ApprovalPrompter({ answerer: handle, printer, style, input: process.stdin, output: process.stdout, onInterrupt });
 * for await (const event of handle.events) if (event.type === 'approval-request') prompter.ask(event.request);
 * ```
 */
export class ApprovalPrompter {
  readonly #options: ApprovalPrompterOptions;
  readonly #withdrawn = new Set<string>();
  #queue: Promise<void> = Promise.resolve();
  #active: { id: string; controller: AbortController } | undefined;
  #closed = false;

  constructor(options: ApprovalPrompterOptions) {
    this.#options = options;
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
    const { answerer, printer, style, output } = this.#options;
    const controller = new AbortController();
    this.#active = { id: request.id, controller };
    printer.end();
    printer.hold();
    const context = { input: this.#options.input, output, signal: controller.signal };
    const tool = visibleText(request.tool);
    try {
      // the input's newlines are JSON's own layout (a string's newlines are escaped by JSON)
      const json = visibleText(JSON.stringify(request.input, null, 2) ?? 'undefined', {
        keepNewlines: true,
      });
      output.write(
        `${style.attention(`? ${style.bold(tool)} needs approval`)} in step ${style.bold(visibleText(request.step))}, with input:\n`,
      );
      output.write(`${json.replace(/^/gm, '    ')}\n`);
      const approved = await confirm(
        { message: `Allow this ${tool} call?`, default: false },
        context,
      );
      if (approved) {
        answer(() => answerer.approve(request.id));
        return;
      }
      const reason = (await input({ message: 'Reason for the model (optional):' }, context)).trim();
      answer(() => answerer.deny(request.id, reason === '' ? undefined : reason));
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'ExitPromptError') this.#options.onInterrupt();
      else if (name !== 'AbortPromptError') {
        const why = `the approval prompt failed: ${(error as Error).message}`;
        output.write(`${style.failure(`june: ${visibleText(why)}; denying the ${tool} call.`)}\n`);
        answer(() => answerer.deny(request.id, why));
      }
    } finally {
      this.#active = undefined;
      printer.release();
    }
  }
}

/** Answers, unless the request went away meanwhile (the run was aborted): then there is nothing to answer. */
function answer(send: () => void): void {
  try {
    send();
  } catch (error) {
    if ((error as { code?: string }).code !== 'approval-unknown') throw error;
  }
}
