import { JuneError } from '../errors/june-error.js';
import type { TraceStatus } from '../trace/trace-node.js';

/** The trace status an error settles a node with: `aborted` for an abort, else `failed`. */
export function statusOf(error: unknown): TraceStatus {
  return JuneError.isInstance(error) && error.code === 'run-aborted' ? 'aborted' : 'failed';
}
