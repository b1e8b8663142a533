import { JuneError } from '../errors/june-error.js';
import type { HostForkRequest, RunHost } from '../host/run-host.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import { loadScript } from '../testing/load-script.js';
import type { ForkedRun, ForkPreview, WorkflowEntry } from '../workflows/workbench-api.js';
import { valueMisfit } from '../workflows/props-fit.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { childRunOf } from '../trace/composite-result.js';
import { modelChoiceFlags } from './model-choice-flags.js';
import { catalogWorkflow, type WorkbenchPlaces } from './start-workflow-run.js';

/**
 * Where Studio forks runs: its run host, and, under `june dev` with a runs folder, the
 * workbench's places (the catalog the recorded run's workflow must be in, and the project a
 * script file of the model choice is read from).
 */
export interface StudioForks {
  host: RunHost;
  places?: WorkbenchPlaces;
}

/**
 * `POST /api/runs/<runId>/fork` (`ForkRunRequest`): forks a recorded run of the run host at
 * one of its records with one change (`RunHost.fork`) and starts it: under `june dev`, a
 * `june run <file> --resume=<fork id> --approve=studio` of the runs folder; over a database,
 * a run queued for the workers; in memory, a run of this process. With `preview`, it only
 * says what the fork would do (200 `ForkPreview`): which record, how much replays, what runs
 * live after it.
 *
 * Everything is checked before the fork is made: the record and the change (as `forkRun`
 * checks them), the recorded run's workflow (under `june dev`, a workflow of the catalog:
 * Studio never runs a file named only by a journal), the model choice (a script file of the
 * project, or the provider; without a project, the recorded run's models answer).
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a body that is not a fork
 *   request; `studio-run-missing` (404); `studio-fork-record-unknown` (404);
 *   `studio-fork-invalid` (400); `studio-workflow-unknown` (404) when the recorded run's
 *   workflow is not one of the catalog's; `studio-model-invalid` (400); what starting a run
 *   throws (`studio-run-start-failed`).
 */
export async function forkWorkflowRun(
  forks: StudioForks,
  runId: string,
  body: unknown,
): Promise<{ status: 200; body: ForkPreview } | { status: 202; body: ForkedRun }> {
  const request = forkRequest(body);
  const plan = await forks.host.forkPlan(runId, request);
  const preview: ForkPreview = {
    record: plan.record,
    what: plan.what,
    replayed: plan.replayed,
    live: plan.live,
  };
  const workflow = forks.places
    ? await catalogWorkflow(forks.places.catalog, plan.workflow ?? '')
    : undefined;
  const value = await valueSchema(forks.host, runId, plan.record, workflow?.entry);
  if (value) {
    preview.schema = value.schema;
    refuseMisfit(request.change, plan.record, value);
  }
  if ((body as { preview?: unknown }).preview === true) return { status: 200, body: preview };
  const script = await scriptOf((body as { model?: unknown }).model, forks.places);
  const fork = await forks.host.fork(runId, { ...request, ...(script ? { script } : {}) });
  return { status: 202, body: { ...preview, runId: fork.runId } };
}

/**
 * The script the model choice names (a `.json` file of the project), or none (the provider).
 * Without a project, no choice is taken: the fork's models answer as the recorded run's did.
 * @throws {StudioRequestError} `studio-model-invalid` (400)
 */
async function scriptOf(choice: unknown, places: WorkbenchPlaces | undefined) {
  if (places === undefined) {
    if (choice === undefined) return undefined;
    throw new StudioRequestError(
      'studio-model-invalid',
      "june: this Studio has no project to take a script from; leave out model: the fork's models answer as the recorded run's did (its script, or the workflow's models).",
      400,
    );
  }
  if ((choice as { kind?: unknown } | undefined)?.kind === 'replay')
    throw new StudioRequestError(
      'studio-model-invalid',
      "june: a fork's live part is answered by a script of the project or the provider, not by a replay of another run.",
      400,
    );
  const flags = await modelChoiceFlags(choice, {
    root: places.catalog.root,
    runsDir: places.runsDir,
    ...(places.env ? { env: places.env } : {}),
  });
  const path = flags.find((flag) => flag.startsWith('--script='))?.slice('--script='.length);
  if (path === undefined) return undefined;
  try {
    return loadScript(path);
  } catch (error) {
    if (!JuneError.isInstance(error)) throw error;
    throw new StudioRequestError('studio-model-invalid', error.message, 400);
  }
}

/** The JSON Schema a fork's new value at a record must fit, and whose it is. */
interface ValueSchema {
  schema: Record<string, unknown>;
  /** `the tool's output schema`, `the question's answer schema`. */
  whose: string;
  /** The change that carries the value: `result` at a tool execution, `output` at a question. */
  kind: 'result' | 'output';
}

/**
 * The schema of the value a fork changes at `record`: a tool execution's result fits the
 * tool's output schema (from the workflow's capability map: the catalog found it), a
 * question's answer its answer schema (from the run's trace, which carries it on the
 * question's node). `undefined` when there is none to check (a model's text, a tool without
 * an output schema, a workflow Studio has no map of).
 */
async function valueSchema(
  host: RunHost,
  runId: string,
  record: string,
  entry: WorkflowEntry | undefined,
): Promise<ValueSchema | undefined> {
  const tool = /^tool (\S+) /.exec(record)?.[1];
  if (tool !== undefined) {
    const schema = entry?.map?.agents
      .flatMap((agent) => agent.tools)
      .find((each) => each.name === tool && each.outputSchema !== undefined)?.outputSchema;
    return schema
      ? { schema, whose: `the tool ${tool}'s output schema`, kind: 'result' }
      : undefined;
  }
  if (!record.startsWith('approval ')) return undefined;
  const found = await host.readTrace(runId);
  if (!('text' in found)) return undefined;
  const named = record.replace(/^approval /, 'tool ');
  const schema = findNode(JSON.parse(found.text) as Trace, named)?.approval?.question?.answerSchema;
  return schema ? { schema, whose: "the question's answer schema", kind: 'output' } : undefined;
}

/** The node of a trace (child runs included) whose record name is `record`. */
function findNode(trace: Trace, record: string): TraceNode | undefined {
  const stack = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.record === record) return node;
    stack.push(...node.children);
    const child = childRunOf(node);
    if (child) stack.push(child.root);
  }
  return undefined;
}

/**
 * Refuses a new value that does not fit its schema, naming the record and what does not fit.
 * @throws {StudioRequestError} `studio-fork-invalid` (400)
 */
function refuseMisfit(change: HostForkRequest['change'], record: string, value: ValueSchema): void {
  if (!(value.kind in change)) return;
  const given = (change as Record<string, unknown>)[value.kind];
  const problem = valueMisfit(given, value.schema);
  if (problem === undefined) return;
  throw new StudioRequestError(
    'studio-fork-invalid',
    `june: the new ${value.kind === 'result' ? 'result' : 'answer'} at ${record} does not fit ${value.whose}: ${problem}. Change it so it fits, and fork again.`,
    400,
    'fork-value-invalid',
  );
}

/** `{ at, change }` as `RunHost.fork` takes them, or a 400. */
function forkRequest(body: unknown): HostForkRequest {
  const { at, change } = (body ?? {}) as Record<string, unknown>;
  const atText = typeof at === 'number' ? String(at) : at;
  if (
    typeof atText !== 'string' ||
    atText.trim() === '' ||
    typeof change !== 'object' ||
    change === null ||
    Array.isArray(change)
  )
    throw new StudioRequestError(
      'studio-request-invalid',
      'june: a fork request is JSON { "at": "<record name or number>", "change": { "result" } | { "answer": "approve" | "deny", "reason"? } | { "output" } | { "model": "<model id>" }, "model": { "kind": "script", "path" } | { "kind": "provider" } }.',
      400,
    );
  const given = change as Record<string, unknown>;
  if ('model' in given && given.model !== undefined && typeof given.model !== 'string')
    throw new StudioRequestError(
      'studio-fork-invalid',
      "june: a fork's other model is given by its id (a text, such as gpt-5).",
      400,
    );
  return { at: atText, change: given as HostForkRequest['change'] };
}
