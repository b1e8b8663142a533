import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRunId, newRunId } from '../engine/run-id.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { checkProps } from './props-check.js';
import { previewProps } from '../workflows/preview-props.js';
import {
  catalogWorkflow,
  spawnJune,
  startFailed,
  type WorkbenchPlaces,
} from './start-workflow-run.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import type { TriedTool, TryToolRequest } from '../workflows/workbench-api.js';

/**
 * `POST /api/workflows/<id>/tools`: calls one resolved tool once with `june try-tool` (June's
 * own command, in the project folder), its approval answered in Studio (`--approve=studio`),
 * and answers when the call is over with the output or error its trace recorded. The call is
 * a run of its own in the runs folder. A request may name the run's id (`runId`, unused so
 * far) so the page can show the approval it waits for while the request is open.
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a body that is not a
 *   {@link TryToolRequest} or names a run id that is taken; `studio-workflow-unknown` (404);
 *   `studio-props-invalid` (400); `studio-run-start-failed` (422, with `june try-tool`'s
 *   `june:` message: an unknown agent or tool, a composite tool) when it ends without a trace.
 */
export async function tryWorkflowTool(
  places: WorkbenchPlaces,
  id: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<TriedTool> {
  const workflow = await catalogWorkflow(places.catalog, id);
  const request = tryRequest(body);
  const schema = workflow.entry.propsSchema;
  const props = checkProps(previewProps(request.props ?? {}, schema), schema, id);
  const runId = request.runId ?? newRunId();
  const args = [
    'try-tool',
    workflow.file,
    `--agent=${request.agent}`,
    `--tool=${request.tool}`,
    `--input=${JSON.stringify(request.input ?? {})}`,
    `--props=${JSON.stringify(props)}`,
    `--run-id=${runId}`,
    '--approve=studio',
  ];
  const started = await spawnJune(args, places, runId, false);
  const stop = () => started.kill();
  signal?.addEventListener('abort', stop, { once: true });
  const code = await started.exited.finally(() => signal?.removeEventListener('abort', stop));
  const call = await toolCall(places.runsDir, runId);
  if (!call) throw startFailed(started.log, runId, code);
  if (call.status === 'succeeded') return { runId, output: call.output };
  const denied = call.approval?.status === 'denied';
  return {
    runId,
    error: denied
      ? `june: the call was denied${call.approval?.reason ? `: ${call.approval.reason}` : ''}.`
      : (call.error?.message ?? `june: the call ended ${call.status}.`),
  };
}

/** The request, checked, or a 400 saying what it should be. */
function tryRequest(body: unknown): TryToolRequest & { runId?: string } {
  const value = (body ?? {}) as Record<string, unknown>;
  const fits =
    typeof body === 'object' &&
    body !== null &&
    typeof value.agent === 'string' &&
    value.agent !== '' &&
    typeof value.tool === 'string' &&
    value.tool !== '' &&
    (value.runId === undefined || isRunId(value.runId));
  if (!fits)
    throw new StudioRequestError(
      'studio-request-invalid',
      'june: a try-tool request is JSON { "agent": "<agent path>", "tool": "<name>", "input": {...}, "props": {...}, "runId"?: "<new run id>" }.',
      400,
    );
  return value as unknown as TryToolRequest & { runId?: string };
}

/** The tool node of a tried tool's run (its one tool call), once its trace has one. */
async function toolCall(runsDir: string, runId: string): Promise<TraceNode | undefined> {
  let trace: Trace;
  try {
    trace = JSON.parse(await readFile(join(runsDir, `${runId}.json`), 'utf8')) as Trace;
  } catch {
    return undefined;
  }
  const find = (node: TraceNode): TraceNode | undefined =>
    node.kind === 'tool' ? node : node.children.map(find).find((found) => found !== undefined);
  return find(trace.root);
}
