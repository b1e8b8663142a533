import { createHash } from 'node:crypto';
import { JuneError } from '../errors/june-error.js';
import { runState } from '../host/run-state.js';
import type { Trace } from '../trace/trace-node.js';
import type { CallContext } from './call-context.js';
import type { Served } from './served-workflow.js';

/**
 * The run id a client's idempotency key names: the same for the same client, tool and key
 * (`mcp-` and 32 hex digits of their SHA-256).
 */
export function keyedRunId(client: string, tool: string, key: string): string {
  const hash = createHash('sha256').update(`${client}\0${tool}\0${key}`).digest('hex');
  return `mcp-${hash.slice(0, 32)}`;
}

/**
 * Starts the call's run, or, for an idempotency key whose run exists, finds it: an ended
 * run (succeeded or failed) is given as it ended; a stopped one (its server stopped) is
 * resumed from its journal; a live one is followed.
 * @returns the id of the run to follow, or the trace of the run that ended.
 * @throws what the host's `start` or `resume` throws, but for the run existing or being live.
 */
export async function startOrFind(
  context: CallContext,
  s: Served,
  props: Record<string, unknown>,
  runId: string | undefined,
): Promise<{ runId: string } | { ended: Trace }> {
  const { host } = context;
  const request = {
    workflow: s.name,
    props,
    ...(context.script ? { script: context.script } : {}),
  };
  if (runId === undefined) return { runId: await host.start(request) };
  try {
    return { runId: await host.start({ ...request, runId }) };
  } catch (error) {
    if (!JuneError.isInstance(error) || error.code !== 'studio-run-exists') throw error;
  }
  const found = await host.readTrace(runId);
  if ('text' in found) {
    const trace = JSON.parse(found.text) as Trace;
    const state = runState(trace);
    if (state === 'succeeded' || state === 'failed') return { ended: trace };
  }
  try {
    await host.resume(runId);
  } catch (error) {
    // a run of this process that has not stopped: followed as it goes
    if (!JuneError.isInstance(error) || error.code !== 'run-host-unsupported') throw error;
    const found = await host.readTrace(runId);
    if ('text' in found) {
      const trace = JSON.parse(found.text) as Trace;
      const state = runState(trace);
      if (state === 'succeeded' || state === 'failed') return { ended: trace };
    }
  }
  return { runId };
}
