import { basename, sep } from 'node:path';
import { errorMessage, JuneError, WorkflowError } from '../errors/index.js';
import { previewProps } from '../workflows/preview-props.js';
import type { CapabilityMap, WorkflowEntry, WorkflowProblem } from '../workflows/workbench-api.js';
import type { LoadedWorkflow } from './load-workflow.js';
import { propsSchemaOf } from '../workflows/index.js';
import { runFailureMessage } from './run-failure-message.js';
import { sampleInput } from '../workflows/sample-input.js';

/**
 * A loaded workflow's entry in `june dev`'s catalog: its capability map, `inspect()` (from the
 * copy of June the workflow imports) with `details` for `props` (a chat workflow's with an
 * empty conversation when they give none: `previewProps`), or the error that stops it, as
 * `june run` would print it (an error of the workflow's own code as
 * `june: the workflow failed: <message> (at <file>:<line>:<column>)`). Never throws.
 *
 * @example
 * ```ts
 * const entry = await workflowEntry('release.tsx', await loadWorkflow('release.tsx'), {});
 * ```
 */
export async function workflowEntry(
  id: string,
  loaded: LoadedWorkflow,
  props: Record<string, unknown>,
  root?: string,
): Promise<WorkflowEntry> {
  const propsSchema = await propsSchemaOf(loaded.exports.props);
  const base = {
    id,
    name: loaded.component.name || basename(id).replace(/\.[^.]+$/, ''),
    loadedAt: new Date().toISOString(),
    props,
    ...(propsSchema ? { propsSchema } : {}),
    // june/web's chat handler passes the conversation as `chat` (`{ messages }`)
    takesMessages: hasProperty(propsSchema, 'messages') || hasProperty(propsSchema, 'chat'),
  };
  try {
    const map = await openComposites(loaded, previewProps(props, propsSchema));
    return fromRoot({ ...base, status: 'ready', map }, root);
  } catch (error) {
    const problem = JuneError.isInstance(error)
      ? error
      : new WorkflowError(
          'workflow-failed',
          runFailureMessage(error, loaded, root === undefined ? {} : { from: root }),
          { cause: error },
        );
    return fromRoot({ ...base, status: 'broken', error: workflowProblem(problem) }, root);
  }
}

/**
 * `entry` with the files it names (declarations, places in messages) given from `root`
 * (`workflows/release.tsx:12:7`), whatever the current directory of the process.
 */
export function fromRoot(entry: WorkflowEntry, root: string | undefined): WorkflowEntry {
  if (root === undefined) return entry;
  const prefix = `${root}${sep}`;
  return JSON.parse(JSON.stringify(entry), (_key, value: unknown) =>
    typeof value === 'string' && value.includes(prefix) ? value.split(prefix).join('') : value,
  ) as WorkflowEntry;
}

/** The entry of a workflow file that does not load: `broken`, with the loader's error. */
export function brokenEntry(id: string, error: unknown, root?: string): WorkflowEntry {
  return fromRoot(
    {
      id,
      name: basename(id).replace(/\.[^.]+$/, ''),
      status: 'broken',
      loadedAt: new Date().toISOString(),
      props: {},
      takesMessages: false,
      error: workflowProblem(error),
    },
    root,
  );
}

/**
 * An error as the workbench shows it: its code, its `june:` message, and the first
 * declaration it names with a place (`at workflows/release.tsx:12:7` → `workflows/release.tsx:12`).
 */
export function workflowProblem(error: unknown): WorkflowProblem {
  const code =
    typeof (error as { code?: unknown })?.code === 'string'
      ? (error as { code: string }).code
      : 'workflow-load-failed';
  const text = errorMessage(error);
  const message = text.startsWith('june: ') ? text : `june: ${text}`;
  const place = /\bat ((?:[A-Za-z]:)?[^\s:()]+\.[cm]?[jt]sx?):(\d+)(?::\d+)?/.exec(message);
  return { code, message, ...(place ? { declaration: `${place[1]}:${place[2]}` } : {}) };
}

/** How many times composite bodies found inside composite bodies are looked into. */
const COMPOSITE_ROUNDS = 4;

/**
 * `inspect()` with `details`, and then again with a sample input (`sampleInput`) for each
 * composite tool it found, so the map shows the agents of their bodies (the private scope of
 * a composite tool or a `defineAgent` agent), as far as a body renders for that input. A
 * body that does not render for it is left closed: the map stays as the last report that
 * resolved.
 *
 * @throws what `inspect()` throws for the tree itself (without sample inputs).
 */
async function openComposites(
  loaded: LoadedWorkflow,
  props: Record<string, unknown>,
): Promise<CapabilityMap> {
  let map = await loaded.june.inspect(loaded.component, { props, details: true });
  const compositeInputs: Record<string, unknown> = {};
  for (let round = 0; round < COMPOSITE_ROUNDS; round++) {
    const fresh = map.agents
      .flatMap((agent) => agent.tools)
      .filter((tool) => tool.composite && !Object.hasOwn(compositeInputs, tool.name));
    if (fresh.length === 0) break;
    for (const tool of fresh) compositeInputs[tool.name] = sampleInput(tool.inputSchema);
    try {
      map = await loaded.june.inspect(loaded.component, { props, details: true, compositeInputs });
    } catch {
      break;
    }
  }
  return map;
}

function hasProperty(schema: Record<string, unknown> | undefined, name: string): boolean {
  const properties = schema?.properties;
  return typeof properties === 'object' && properties !== null && name in properties;
}
