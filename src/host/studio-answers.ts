import { watch, type FSWatcher } from 'node:fs';
import type { ApprovalRequest, ApprovalSource, SourceInbox } from '../approvals/index.js';
import {
  readAnswers,
  endRunProcess,
  runFolder,
  writeRunProcess,
  type RunProcess,
  type StudioAnswer,
} from './run-answers.js';
import { sealResume } from './resume-seal.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';

const POLL_MS = 250;

/** How the reason of a call denied because the run refused its answer from the answers file starts. */
export const REFUSED_ANSWER = 'the answer was refused: ';

/**
 * The refusal's message, without its `june: ` and the sentence that says the request still
 * waits: an answer of the answers file is kept for good, so the run denies the call instead.
 */
function refusalOf(error: unknown): string {
  return (error as Error).message
    .replace(/^june: /, '')
    .replace(
      / Nothing changed and the (request|question) still waits.*$/s,
      ' The call was denied: an answer given through the runs folder is final.',
    );
}

/**
 * The answers among `keys` (call keys) that the run took from the answers file and refused
 * (an edit or an answer instead of the tool that its schema refused), with the refusal, as
 * the trace shows them: the call denied with a reason that starts with {@link REFUSED_ANSWER}.
 * The tree is walked without recursion; calls of a composite tool's own run are not looked at.
 */
export function refusedAnswersIn(trace: Trace, keys: readonly string[]): Map<string, string> {
  const refused = new Map<string, string>();
  const stack: TraceNode[] = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const approval = node.approval;
    if (
      approval?.key !== undefined &&
      keys.includes(approval.key) &&
      approval.status === 'denied' &&
      approval.reason?.startsWith(REFUSED_ANSWER) === true
    )
      refused.set(approval.key, approval.reason.slice(REFUSED_ANSWER.length));
    stack.push(...node.children);
  }
  return refused;
}

/**
 * The `studio` approval source of one `june run` (`--approve studio`, and `--approve wait`
 * while its process is up): writes `<runs>/<runId>/process.json` (this process, and the
 * sealed details that let Studio resume the run), watches `<runs>/<runId>/answers.jsonl`,
 * where Studio appends answers by call key, and gives the run's inbox each answer whose call
 * waits, with who gave it and when (the time Studio wrote it, so an answer given while the
 * run was stopped keeps its own time). Answers written before the run asked (Studio answered
 * a stopped run, then resumed it) count too.
 *
 * @example
 * ```ts
 * const answers = await StudioAnswers.start({ runsDir: '.june/runs', runId: handle.runId, approve: 'studio', resume });
 * handle.connect(answers);
 * await answers.close();
 * ```
 */
export class StudioAnswers implements ApprovalSource {
  readonly name = 'studio';
  readonly #folder: string;
  #inbox: SourceInbox | undefined;
  #closed = false;
  /** Requests waiting for Studio, by call key: their ids in this process. */
  readonly #waiting = new Map<string, string>();
  #watcher: FSWatcher | undefined;
  #poll: NodeJS.Timeout | undefined;
  #reading: Promise<void> = Promise.resolve();

  private constructor(folder: string) {
    this.#folder = folder;
  }

  /**
   * Registers the process with Studio (`process.json`) and starts watching for answers.
   * @throws {SystemError} `run-folder-unsafe` when the run's folder is a link, another
   *   user's, or writable by others
   */
  static async start(options: {
    runsDir: string;
    runId: string;
    approve: RunProcess['approve'];
    resume: RunProcess['resume'];
    /** `false`: the details get no seal, so Studio never resumes the run (`june try-tool`). @default true */
    sealed?: boolean;
  }): Promise<StudioAnswers> {
    const folder = runFolder(options.runsDir, options.runId);
    const answers = new StudioAnswers(folder);
    const seal =
      options.sealed === false ? undefined : await sealResume(options.runId, options.resume);
    await writeRunProcess(folder, {
      pid: process.pid,
      approve: options.approve,
      resume: options.resume,
      ...(seal !== undefined ? { seal } : {}),
      startedAt: new Date().toISOString(),
    });
    try {
      answers.#watcher = watch(folder, { persistent: false }, () => answers.#look());
      answers.#watcher.on('error', () => answers.#watcher?.close());
    } catch {
      // no fs.watch here: the poll finds the answers
    }
    answers.#poll = setInterval(() => answers.#look(), POLL_MS);
    answers.#poll.unref();
    return answers;
  }

  /** @inheritdoc */
  connect(inbox: SourceInbox): void {
    this.#inbox = inbox;
  }

  /** @inheritdoc Answered at once when Studio already answered its call. */
  requested(request: ApprovalRequest): void {
    if (request.key === undefined) return;
    this.#waiting.set(request.key, request.id);
    this.#look();
  }

  /** @inheritdoc The request went away (answered otherwise, or the run stopped). */
  settled(request: ApprovalRequest): void {
    for (const [key, waiting] of this.#waiting)
      if (waiting === request.id) this.#waiting.delete(key);
  }

  /** Stops watching, and marks the process as ended in `process.json` (its resume details stay). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#poll);
    this.#watcher?.close();
    this.#waiting.clear();
    await this.#reading;
    await endRunProcess(this.#folder);
  }

  #look(): void {
    if (this.#waiting.size === 0) return;
    this.#reading = this.#reading.then(async () => {
      // a folder that became another's, or writable by others, gives no answers
      const answers = await readAnswers(this.#folder).catch(() => new Map<string, StudioAnswer>());
      for (const [key, id] of this.#waiting) {
        const answer = answers.get(key);
        if (!answer) continue;
        this.#waiting.delete(key);
        // too late (the request went away, or another source answered first) changes nothing
        const given = {
          approved: answer.approved,
          ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
          ...(answer.input !== undefined ? { input: answer.input } : {}),
          ...(answer.output !== undefined ? { output: answer.output } : {}),
          ...(answer.by !== undefined ? { answeredBy: answer.by } : {}),
          answeredAt: answer.at,
        };
        try {
          this.#inbox?.answer(id, given, answer.source);
        } catch (error) {
          // the file holds this answer for good: one the tool's schema refuses denies the call, saying why
          const { input: _input, output: _output, ...plain } = given;
          this.#inbox?.answer(
            id,
            {
              ...plain,
              approved: false,
              reason: `${REFUSED_ANSWER}${refusalOf(error)}`,
            },
            answer.source,
          );
        }
      }
    });
  }
}
