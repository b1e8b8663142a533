import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';

const HEARTBEAT_MS = 20_000;

/** One event on Studio's live channel: its `type` names the SSE event, the whole is its data. */
export interface ChannelEvent {
  type: string;
}

/**
 * Studio's live channel: Server-Sent Events to every open page (Hono's `streamSSE`). Each
 * event goes out as an SSE event named after its `type`, with the event as JSON `data`; a
 * comment line every 20000 ms keeps idle connections open through proxies. Studio sends
 * `StudioEvent`s (runs) and, under `june dev`, `WorkflowEvent`s.
 *
 * @example
 * ```ts
 * const channel = new EventChannel();
 * app.get('/api/events', (c) => channel.connect(c));
 * channel.send({ type: 'run', run: summary }); // when a run changes
 * ```
 */
export class EventChannel {
  readonly #clients = new Map<SSEStreamingApi, () => void>();
  #heartbeat: NodeJS.Timeout | undefined;

  /** The response that keeps the page's stream open until it goes away or {@link close}. */
  connect(c: Context): Response {
    return streamSSE(c, async (stream) => {
      const ended = new Promise<void>((resolve) => {
        this.#clients.set(stream, resolve);
        stream.onAbort(resolve);
      });
      await stream.write('retry: 1000\n: connected\n\n');
      if (!this.#heartbeat) {
        this.#heartbeat = setInterval(() => this.#write(': ping\n\n'), HEARTBEAT_MS);
        this.#heartbeat.unref();
      }
      await ended;
      this.#clients.delete(stream);
    });
  }

  /** Sends one event to every open page. */
  send(event: ChannelEvent): void {
    this.#write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /** How many pages are listening. */
  get size(): number {
    return this.#clients.size;
  }

  /** Ends every stream (pages reconnect on their own if a server comes back). */
  close(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    for (const end of this.#clients.values()) end();
    this.#clients.clear();
  }

  #write(chunk: string): void {
    for (const client of this.#clients.keys()) {
      if (!client.closed && !client.aborted) void client.write(chunk);
    }
  }
}
