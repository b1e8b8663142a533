import { WorkflowError } from '../errors/june-error.js';
import { isRunId } from './run-id.js';

/**
 * One run of a thread, as `listThread` lists it: its id, its place in the thread (1, 2, ...)
 * and when it started (ISO 8601).
 */
export interface ThreadRun {
  runId: string;
  order: number;
  startedAt: string;
}

/**
 * What a thread's next run starts from (`threadConversation`): the conversation the
 * thread's newest run before it left (its thread agent's, see `ThreadConversation`), and
 * the run that left it; no messages for a thread with no such run.
 */
export interface ThreadHistory {
  messages: unknown[];
  agent?: string;
  runId?: string;
}

/**
 * Checks a thread id: it is a run id's kind of name (1 to 128 letters, digits, `.`, `_`,
 * `-`, not starting with `.` or `-`), so it can name a file.
 * @throws {WorkflowError} `thread-id-invalid`
 */
export function checkThreadId(threadId: unknown): asserts threadId is string {
  if (typeof threadId === 'string' && isRunId(threadId)) return;
  throw new WorkflowError(
    'thread-id-invalid',
    `june: ${JSON.stringify(threadId)} is not a thread id; a thread id is 1 to 128 letters, digits, ".", "_" and "-", not starting with "." or "-" (e.g. support-ana).`,
  );
}
