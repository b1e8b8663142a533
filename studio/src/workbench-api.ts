import type {
  ModelChoice,
  StartedRun,
  TriedTool,
  TryToolRequest,
} from '../../src/workflows/workbench-api.js';
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
  if (!response.ok) throw new Error(errorText(text || `HTTP ${response.status}`));
  return JSON.parse(text) as T;
}

/**
 * The `june:` message of a refused request's body (`{ "error": "june: ..." }`), or the body as
 * it is when it is not such JSON. The chat's transport hands the page the body as the error's
 * message, so the chat panel reads it with this too.
 */
export function errorText(body: string): string {
  try {
    const error = (JSON.parse(body) as { error?: unknown }).error;
    return typeof error === 'string' ? error : body;
  } catch {
    return body; // not JSON: the text as it is
  }
}

/** Starts a run of the workflow (`StartRunRequest`): its id, once its trace exists. */
export const startRun = (id: string, props: Record<string, unknown>, model: ModelChoice) =>
  postWorkbench<StartedRun>(id, 'runs', { props, model });

/** Calls one tool once (`TryToolRequest`); answers when the call is over. */
export const tryTool = (id: string, request: TryToolRequest) =>
  postWorkbench<TriedTool>(id, 'tools', request);
