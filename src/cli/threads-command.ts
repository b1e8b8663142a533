import { folderThreads, type FolderThread } from '../host/folder-threads.js';
import type { ThreadRun } from '../host/run-host.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import type { CommandOutput } from './run-commands.js';
import { terminalJson, visibleText } from './visible-text.js';

/** The flags of `june threads`: the runs folder (or a database), and JSON output. */
export interface ThreadsCommandOptions {
  /** The runs folder. @default ".june/runs" */
  dir?: string;
  /** A PostgreSQL URL of runs over a database (`june worker --database`): its threads instead. */
  database?: string;
  /** `--json`: the answer as one JSON value. */
  json?: boolean;
}

const DEFAULT_DIR = '.june/runs';

/** Where `june threads` reads threads: the runs folder's, or a database's (`june.threads`). */
interface ThreadSource {
  /** How the place is named in messages: the folder, or "the database". */
  label: string;
  list(): Promise<string[]>;
  show(threadId: string): Promise<FolderThread>;
  delete(threadId: string): Promise<ThreadRun[]>;
}

/** Runs `work` on the threads of the runs folder, or of `options.database` (then closes it). */
async function withThreads<T>(
  options: ThreadsCommandOptions,
  work: (threads: ThreadSource) => Promise<T>,
): Promise<T> {
  if (options.database === undefined)
    return work({
      label: options.dir ?? DEFAULT_DIR,
      ...folderThreads(options.dir ?? DEFAULT_DIR),
    });
  const { databaseThreads } = await import('../host/database-threads.js');
  const threads = await databaseThreads(options.database);
  try {
    return await work({ label: 'the database', ...threads });
  } finally {
    await threads.close();
  }
}

/** `june threads`: each thread of the runs folder, with how many runs it has and its last one. */
export async function threadsCommand(
  io: CommandOutput,
  options: ThreadsCommandOptions = {},
): Promise<ExitCodeValue> {
  const { ids, shown, label } = await withThreads(options, async (threads) => {
    const ids = await threads.list();
    return {
      ids,
      shown: await Promise.all(ids.map((id) => threads.show(id))),
      label: threads.label,
    };
  });
  if (options.json) {
    io.stdout.write(
      `${terminalJson(shown.map((thread) => ({ id: thread.id, runs: thread.runs })))}\n`,
    );
    return ExitCode.success;
  }
  if (ids.length === 0) io.stdout.write(`no threads in ${label}\n`);
  for (const thread of shown) {
    const last = thread.runs.at(-1);
    const count = `${thread.runs.length} run${thread.runs.length === 1 ? '' : 's'}`;
    io.stdout.write(
      `${thread.id}  ${count}${last ? `  last: ${last.runId} ${last.state} (${last.startedAt})` : ''}\n`,
    );
  }
  return ExitCode.success;
}

/**
 * `june threads show <id>`: the thread's runs in order (`<order>. <runId>  <state>  <start>`),
 * then the conversation its next run starts from, one line per message.
 */
export async function threadShowCommand(
  io: CommandOutput,
  threadId: string,
  options: ThreadsCommandOptions = {},
): Promise<ExitCodeValue> {
  const { thread, label } = await withThreads(options, async (threads) => ({
    thread: await threads.show(threadId),
    label: threads.label,
  }));
  if (options.json) {
    io.stdout.write(`${terminalJson(thread)}\n`);
    return ExitCode.success;
  }
  if (thread.runs.length === 0) {
    io.stderr.write(`june: thread ${threadId} has no runs in ${label}.\n`);
    return ExitCode.failed;
  }
  io.stdout.write(
    `thread ${threadId} · ${thread.runs.length} run${thread.runs.length === 1 ? '' : 's'}\n`,
  );
  for (const run of thread.runs)
    io.stdout.write(`${run.order}. ${run.runId}  ${run.state}  ${run.startedAt}\n`);
  const { conversation } = thread;
  if (conversation.messages.length === 0) {
    io.stdout.write('no conversation yet (no run of it has finished its agent)\n');
    return ExitCode.success;
  }
  io.stdout.write(
    `\nconversation of ${conversation.agent ?? 'the agent'} (as run ${conversation.runId} left it):\n`,
  );
  for (const message of conversation.messages) io.stdout.write(`${messageLine(message)}\n`);
  return ExitCode.success;
}

/** `june threads delete <id>`: deletes the thread's runs (journals and traces) and its index. */
export async function threadDeleteCommand(
  io: CommandOutput,
  threadId: string,
  options: ThreadsCommandOptions = {},
): Promise<ExitCodeValue> {
  const deleted = await withThreads(options, (threads) => threads.delete(threadId));
  if (options.json) {
    io.stdout.write(`${terminalJson({ id: threadId, deleted })}\n`);
    return ExitCode.success;
  }
  io.stdout.write(
    deleted.length === 0
      ? `thread ${threadId} has no runs; nothing to delete\n`
      : `deleted thread ${threadId}: ${deleted.length} run${deleted.length === 1 ? '' : 's'} (${deleted.map((run) => run.runId).join(', ')})\n`,
  );
  return ExitCode.success;
}

/** One message of a conversation for people: `user: …`, `assistant: …`, its tool calls and results. */
function messageLine(message: unknown): string {
  const { role, content } = message as { role?: string; content?: unknown };
  const parts = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const shown = (Array.isArray(parts) ? parts : []).map((part: Record<string, unknown>) => {
    if (part.type === 'text' || part.type === 'reasoning') return String(part.text ?? '');
    if (part.type === 'tool-call')
      return `[calls ${String(part.toolName)} ${terminalJson(part.input)}]`;
    if (part.type === 'tool-result') {
      const output = part.output as { value?: unknown } | undefined;
      return `[${String(part.toolName)} → ${terminalJson(output?.value ?? output)}]`;
    }
    return `[${String(part.type)}]`;
  });
  return `${role ?? 'message'}: ${visibleText(shown.join(' '))}`;
}
