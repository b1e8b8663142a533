// The worker thread of `WorkflowInspector` (workflow-inspector.ts): loads workflow files with
// tsx and resolves their maps, for `june dev`'s catalog. Everything a load imports lives in
// this thread's module graph, which goes away when the catalog ends the thread; the loaded
// workflows are kept here, by file, for maps asked for other props until then.
import { parentPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { JuneError } from '../errors/index.js';
import { loadWorkflow, type LoadedWorkflow } from './load-workflow.js';
import { brokenEntry, workflowEntry } from './workflow-entry.js';
import type { InspectorReply, InspectorRequest } from './workflow-inspector.js';

const loaded = new Map<string, LoadedWorkflow>();

async function answer(request: InspectorRequest): Promise<InspectorReply['outcome']> {
  const { file, id, root, props } = request;
  const imports = new Set<string>([file]);
  const onImport = (url: string) => {
    if (!url.startsWith('file:')) return;
    const path = fileURLToPath(url.replace(/\?.*$/, ''));
    if (!path.split(/[\\/]/).includes('node_modules')) imports.add(path);
  };
  let workflow = request.kind === 'resolve' ? loaded.get(file) : undefined;
  try {
    workflow ??= await loadWorkflow(file, root, { development: true, onImport });
  } catch (error) {
    return {
      kind: 'failed',
      entry: brokenEntry(id, error, root),
      ...(JuneError.isInstance(error) ? { code: error.code } : {}),
      imports: [...imports],
    };
  }
  loaded.set(file, workflow);
  return {
    kind: 'loaded',
    entry: await workflowEntry(id, workflow, props, root),
    imports: [...imports],
  };
}

parentPort?.on('message', (request: InspectorRequest) => {
  void answer(request).then(
    (outcome) => parentPort?.postMessage({ n: request.n, outcome } satisfies InspectorReply),
    (error: unknown) =>
      parentPort?.postMessage({
        n: request.n,
        outcome: {
          kind: 'failed',
          entry: brokenEntry(request.id, error, request.root),
          imports: [],
        },
      } satisfies InspectorReply),
  );
});
