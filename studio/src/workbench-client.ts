import { pageToken } from './approvals-api.js';
import type {
  ForkedRun,
  ForkRunRequest,
  StartedRun,
  StartRunRequest,
  WorkflowEntry,
  WorkflowEvent,
  WorkflowList,
  WorkflowRemovedEvent,
} from '../../src/workflows/workbench-api.js';

/** `GET api/workflows`: the project's workflows, or undefined when this Studio has none (not `june dev`). */
export async function fetchWorkflows(): Promise<WorkflowList | undefined> {
  const response = await fetch('api/workflows', { cache: 'no-store' });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as WorkflowList;
}

/** `GET api/workflows/<id>?props=`: the workflow with its map resolved for `props`. */
export async function fetchWorkflow(
  id: string,
  props: Record<string, unknown>,
): Promise<WorkflowEntry> {
  const query = Object.keys(props).length
    ? `?props=${encodeURIComponent(JSON.stringify(props))}`
    : '';
  const response = await fetch(`api/workflows/${encodeURIComponent(id)}${query}`, {
    cache: 'no-store',
  });
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as WorkflowEntry;
}

/**
 * Starts the workflow's last run again (`POST api/workflows/<id>/runs`, an answering request
 * with the page's token): the same model answers, replayed from that run's journal, through
 * today's code, for `props`. Resolves to the new run.
 */
export async function rerun(
  id: string,
  runId: string,
  props: Record<string, unknown>,
): Promise<StartedRun> {
  const token = pageToken();
  const body: StartRunRequest = { props, model: { kind: 'replay', runId } };
  const response = await fetch(`api/workflows/${encodeURIComponent(id)}/runs`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as StartedRun;
}

/** Listens to the `workflow` and `workflow-removed` events of `api/events`; returns how to stop. */
export function listenToWorkflows(handlers: {
  onOpen(): void;
  onEvent(event: WorkflowEvent | WorkflowRemovedEvent): void;
}): () => void {
  const source = new EventSource('api/events');
  const onMessage = (message: MessageEvent<string>) =>
    handlers.onEvent(JSON.parse(message.data) as WorkflowEvent | WorkflowRemovedEvent);
  source.addEventListener('open', () => handlers.onOpen());
  source.addEventListener('workflow', onMessage as EventListener);
  source.addEventListener('workflow-removed', onMessage as EventListener);
  return () => source.close();
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    return (JSON.parse(text) as { error?: string }).error ?? text;
  } catch {
    return text || `HTTP ${response.status}`;
  }
}

/**
 * Forks the run `runId` (`POST api/runs/<runId>/fork`, an answering request with the page's
 * token): with `preview`, what the fork would do; else the started fork.
 */
export async function forkRun(runId: string, request: ForkRunRequest): Promise<ForkedRun> {
  const token = pageToken();
  const response = await fetch(`api/runs/${encodeURIComponent(runId)}/fork`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as ForkedRun;
}
