import type {
  ModelChoice,
  StartedRun,
  TriedTool,
  TryToolRequest,
} from '../../src/studio/workbench-api.js';
import { pageToken } from './approvals-api.js';

/** `POST api/workflows/<id>/<what>` with the page's token; the JSON answer, or the `june:` error. */
async function postWorkbench<T>(id: string, what: string, body: unknown): Promise<T> {
  const token = pageToken();
  const response = await fetch(`api/workflows/${encodeURIComponent(id)}/${what}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    let message = text || `HTTP ${response.status}`;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      // not JSON: the text as it is
    }
    throw new Error(message);
  }
  return JSON.parse(text) as T;
}

/** Starts a run of the workflow (`StartRunRequest`): its id, once its trace exists. */
export const startRun = (id: string, props: Record<string, unknown>, model: ModelChoice) =>
  postWorkbench<StartedRun>(id, 'runs', { props, model });

/** Calls one tool once (`TryToolRequest`); answers when the call is over. */
export const tryTool = (id: string, request: TryToolRequest) =>
  postWorkbench<TriedTool>(id, 'tools', request);
