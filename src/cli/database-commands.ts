import type { CliIO } from './cli-io.js';
import { localUser } from '../approvals/local-user.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { terminalJson, visibleText } from './visible-text.js';
import { answerSchemaSummary } from './answer-schema-summary.js';

/** The flags of `june approve`. */
export interface ApproveCommandOptions {
  /** `--database`: the PostgreSQL URL of the runs (required). */
  database?: string;
  /** `--all`: every waiting request of the run. */
  all?: boolean;
  /** `--deny`: deny instead of approve. */
  deny?: boolean;
  /** `--reason`: the reason the model sees with a denial. */
  reason?: string;
  /** `--input <json>`: approve, the call running with this input (JSON text) instead of the model's. */
  input?: string;
  /** `--answer <json>`: answer instead of the tool (JSON text); the model reads it as the call's result. */
  answer?: string;
}

/**
 * `june approve <runId> [<requestId> | --all] [--deny --reason ...] --database <url>`:
 * answers approval requests of a run over a database, from any machine. Exits 0 when every
 * answer applied (it was the first stored for its request), else 1 with a `june:` line for
 * each other one naming the answer that stands (or the requests waiting, for an unknown id).
 * Says so on stderr when the run has not taken an applied answer within 3 s (no worker runs it).
 *
 * @throws {JuneError} `dbos-run-unknown`, `dbos-run-finished`,
 *   `cli-option-invalid` (no run id, no `--database`, or neither a request id nor `--all`),
 *   and the database errors.
 */
export async function approveCommand(
  runId: string | undefined,
  requestId: string | undefined,
  options: ApproveCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const { WorkflowError } = await import('../errors/index.js');
  if (runId === undefined)
    throw new WorkflowError(
      'cli-option-invalid',
      'june: june approve needs the id of the run to answer: june approve <runId> [<requestId> | --all] --database <url>; june runs --database <url> lists the runs of the database with their ids and waiting requests. A run started without --database keeps its id in .june/runs/ (june run prints it): answer its approvals in June Studio (june studio), or resume it with june run <file> --resume <runId>.',
    );
  if (options.database === undefined)
    throw new WorkflowError(
      'cli-option-invalid',
      `june: june approve needs --database <url>, the PostgreSQL URL the run's workers share: june approve ${runId} [<requestId> | --all] --database <url>.`,
    );
  const database = options.database;
  if ((requestId === undefined) === (options.all !== true))
    throw new WorkflowError(
      'cli-option-invalid',
      'june: june approve takes a request id or --all (one of them); june runs --database ... lists the waiting requests.',
    );
  const decision = await decisionOf(options);
  return withClient(database, async (client) => {
    const approved = decision.approved;
    const results = await client.approve(runId, {
      ...(requestId !== undefined ? { requestId } : {}),
      all: options.all === true,
      ...decision,
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...answeredByUser(),
    });
    if (results.length === 0) {
      io.stdout.write(`run ${runId} has no approval request waiting\n`);
      return ExitCode.success;
    }
    const { notAppliedText } = await import('../dbos/cli-support.js');
    const applied: string[] = [];
    for (const result of results)
      if (result.status === 'applied') {
        applied.push(result.request.id);
        io.stdout.write(
          `${answerLine(decision, `${visibleText(result.request.id)} of run ${runId}`, result.request.kind)}\n`,
        );
      } else io.stderr.write(`${visibleText(notAppliedText(runId, result, { approved }))}\n`);
    const untaken = await client.untaken(runId, applied, TAKEN_WAIT_MS);
    if (untaken.length > 0)
      io.stderr.write(
        `june: the run ${runId} has not taken ${untaken.length === 1 ? 'the answer' : `${untaken.length} answers`} yet: no worker is running it now, or every worker is busy. ${untaken.length === 1 ? 'It is' : 'They are'} stored, and no other answer counts; the run goes on once a worker takes it up (june worker <file> --database <url>).\n`,
      );
    return applied.length === results.length ? ExitCode.success : ExitCode.failed;
  });
}

type Decision = { approved: boolean; input?: unknown; output?: unknown };

/**
 * The decision the flags give: approve (with `--input`'s edit), `--deny`, or `--answer`
 * (instead of the tool, which is a denial that carries the output).
 * @throws {WorkflowError} `cli-option-invalid` for JSON that does not parse, or flags that
 *   contradict each other (`--input` with `--deny` or `--answer`).
 */
async function decisionOf(options: ApproveCommandOptions): Promise<Decision> {
  const { WorkflowError } = await import('../errors/index.js');
  const json = (flag: string, text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new WorkflowError(
        'cli-option-invalid',
        `june: june approve ${flag} takes a JSON value, and ${JSON.stringify(text)} is not one (${(error as Error).message}); quote it for the shell, as in ${flag} '{"env":"staging"}' or ${flag} '"text"'.`,
      );
    }
  };
  if (options.input !== undefined && (options.deny === true || options.answer !== undefined))
    throw new WorkflowError(
      'cli-option-invalid',
      'june: june approve --input approves the call with another input, so it takes neither --deny nor --answer; give one of them.',
    );
  if (options.input !== undefined) return { approved: true, input: json('--input', options.input) };
  if (options.answer !== undefined)
    return { approved: false, output: json('--answer', options.answer) };
  return { approved: options.deny !== true };
}

/** How an applied answer to `what` (a question's, with `kind`) (`entry#2.0 of run ...`) reads. */
function answerLine(decision: Decision, what: string, kind?: 'question'): string {
  if (kind === 'question')
    return decision.output !== undefined
      ? `answered the question ${what}`
      : `declined the question ${what}`;
  if (decision.output !== undefined) return `answered ${what} instead of the tool`;
  if (!decision.approved) return `denied ${what}`;
  return decision.input !== undefined
    ? `approved ${what} with an edited input`
    : `approved ${what}`;
}

/** How long `june approve` waits for the run to take its answer before it says a worker has yet to, in ms. */
const TAKEN_WAIT_MS = 3000;

/**
 * `june runs --database <url> [--json]`: the runs in the database, newest first, with
 * their status, worker and waiting approvals.
 */
export async function runsCommand(
  options: { database: string; json?: boolean; limit?: string },
  io: CliIO,
): Promise<ExitCodeValue> {
  return withClient(options.database, async (client) => {
    const runs = await client.list({ limit: options.limit ? Number(options.limit) : 50 });
    if (options.json) {
      for (const run of runs) io.stdout.write(`${terminalJson(run)}\n`);
      return ExitCode.success;
    }
    if (runs.length === 0) io.stdout.write('no runs in the database\n');
    for (const run of runs) {
      const worker = run.worker ? ` · worker ${run.worker}` : '';
      const error = run.error ? ` · ${run.error}` : '';
      io.stdout.write(
        visibleText(`${run.runId}  ${run.workflow}  ${run.status}${worker}${error}`) + '\n',
      );
      for (const request of run.waiting)
        io.stdout.write(
          visibleText(
            request.kind === 'question' && request.question
              ? `  question: ${request.id} · ${request.tool} ${JSON.stringify(request.question.prompt)} (step ${request.step}); answer: ${answerSchemaSummary(request.question.answerSchema)}`
              : `  waiting: ${request.id} · ${request.tool} ${JSON.stringify(request.input)} (step ${request.step})`,
          ) + '\n',
        );
      for (const request of run.held ?? [])
        io.stdout.write(
          visibleText(
            `  held: ${request.id} · ${request.tool} ${JSON.stringify(request.input)} (step ${request.step}; approved, runs once the requests of its turn are answered)`,
          ) + '\n',
        );
    }
    return ExitCode.success;
  });
}

/** `june cancel <runId> --database <url>`: its worker aborts the run; it ends cancelled. */
export async function cancelCommand(
  runId: string,
  options: { database: string },
  io: CliIO,
): Promise<ExitCodeValue> {
  return withClient(options.database, async (client) => {
    await client.cancel(runId);
    io.stdout.write(`cancelled run ${runId}\n`);
    return ExitCode.success;
  });
}

/** Connects to the database, runs `work`, and closes the connection. */
export async function withClient<T>(
  database: string,
  work: (client: import('../dbos/run-client.js').RunClient) => Promise<T>,
): Promise<T> {
  quietDriver();
  const { RunClient } = await import('../dbos/cli-support.js');
  const client = await RunClient.connect(database);
  try {
    return await work(client);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The PostgreSQL driver under DBOS warns about its own query pattern on stderr; a command's output stays its own. */
export function quietDriver(): void {
  process.noDeprecation = true;
}

/** `{ answeredBy }`: the user running `june approve`, when the system names one. */
function answeredByUser(): { answeredBy?: string } {
  const user = localUser();
  return user === undefined ? {} : { answeredBy: user };
}
