import type { AnswerOutcome } from '../../src/host/approval-desk.js';
import type { RunApprovals } from '../../src/host/waiting-approvals.js';

const TOKEN_KEY = 'june-studio-token';

/**
 * The answer token this page was opened with (`?token=` in the URL `june studio` printed),
 * kept for the tab's later requests; undefined when the page had none (its cookie may still
 * carry it).
 */
export function pageToken(): string | undefined {
  const fromUrl = new URLSearchParams(location.search).get('token');
  try {
    if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
    return fromUrl ?? sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return fromUrl ?? undefined;
  }
}

/** `GET api/runs/<runId>/approvals`: the calls the run waits on. */
export async function fetchApprovals(runId: string): Promise<RunApprovals> {
  const response = await fetch(`api/runs/${encodeURIComponent(runId)}/approvals`, {
    cache: 'no-store',
  });
  if (!response.ok) throw new Error(await errorOf(response));
  return (await response.json()) as RunApprovals;
}

/** `POST api/runs/<runId>/approvals`: answers one call, with the page's token. */
export async function sendAnswer(
  runId: string,
  answer: { key: string; approved: boolean; reason?: string; input?: unknown; output?: unknown },
): Promise<AnswerOutcome> {
  const token = pageToken();
  const response = await fetch(`api/runs/${encodeURIComponent(runId)}/approvals`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(answer),
  });
  if (!response.ok) throw new Error(await errorOf(response));
  return (await response.json()) as AnswerOutcome;
}

async function errorOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    return (JSON.parse(text) as { error?: string }).error ?? text;
  } catch {
    return text || `HTTP ${response.status}`;
  }
}
