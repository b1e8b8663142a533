import type { RunList, StudioEvent } from '../../src/host/run-list.js';
import type { Trace } from '../../src/trace/trace-node.js';

/** `GET api/runs`. */
export async function fetchRuns(): Promise<RunList> {
  const response = await fetch('api/runs', { cache: 'no-store' });
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as RunList;
}

/** `GET api/runs/<runId>`: the trace, or the reason Studio could not read it. */
export async function fetchTrace(
  runId: string,
): Promise<{ trace: Trace } | { error: string; status: number }> {
  const response = await fetch(`api/runs/${encodeURIComponent(runId)}`, { cache: 'no-store' });
  if (!response.ok) return { error: await errorText(response), status: response.status };
  return { trace: (await response.json()) as Trace };
}

/**
 * Listens to `GET api/events`. `onOpen` runs on every (re)connection: the page reloads the
 * list then, so nothing missed while disconnected stays missing. Returns a function that
 * stops listening.
 */
export function listenToRuns(handlers: {
  onOpen(): void;
  onEvent(event: StudioEvent): void;
  onDown(): void;
}): () => void {
  const source = new EventSource('api/events');
  const onMessage = (message: MessageEvent<string>) =>
    handlers.onEvent(JSON.parse(message.data) as StudioEvent);
  source.addEventListener('open', () => handlers.onOpen());
  source.addEventListener('error', () => handlers.onDown());
  source.addEventListener('run', onMessage as EventListener);
  source.addEventListener('run-removed', onMessage as EventListener);
  return () => source.close();
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { unreadable?: string; error?: string };
    return body.unreadable ?? body.error ?? text;
  } catch {
    return text || `HTTP ${response.status}`;
  }
}
