import { createHash } from 'node:crypto';
import { JuneError, WorkflowError } from '../errors/june-error.js';
import { stableJson } from '../json/stable-json.js';
import { runState } from '../host/run-state.js';
import type { Trace } from '../trace/trace-node.js';
import type { CallContext } from './call-context.js';
import type { Served } from './served-workflow.js';

/**
 * The run id a client's idempotency key names with these props: `mcp-`, 32 hex digits of
 * the SHA-256 of the client, tool and key, `-` and 16 of the props' (as stable JSON). The
 * same key with other props names another run, which {@link startOrFind} refuses to start.
 */
export function keyedRunId(
  client: string,
  tool: string,
  key: string,
  props: Record<string, unknown>,
): string {
  return `${keyPrefix(client, tool, key)}${sha256(stableJson(props)).slice(0, 16)}`;
}

/** What every run id of one client's key for one tool starts with. */
function keyPrefix(client: string, tool: string, key: string): string {
  return `mcp-${sha256(`${client}\0${tool}\0${key}`).slice(0, 32)}-`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Refuses an idempotency key that named a run with other props: a call made again must
 * ask the same thing, or it would get the result of a run it did not ask for.
 * @throws {WorkflowError} `serve-key-reused`; nothing starts.
 */
export async function checkKeyProps(
  context: CallContext,
  client: string,
  tool: string,
  key: string,
  runId: string,
): Promise<void> {
  const prefix = keyPrefix(client, tool, key);
  const runs = await context.host.list();
  const other = runs.find((run) => run.runId.startsWith(prefix) && run.runId !== runId);
  if (other)
    throw new WorkflowError(
      'serve-key-reused',
      `june: the idempotency key ${JSON.stringify(key)} named a call of ${tool} with other arguments (run ${other.runId}); a call made again must send the arguments it sent first. Use a new key for new arguments.`,
    );
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
