import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StudioEvent } from './studio-api.js';

const HEARTBEAT_MS = 20_000;

/**
 * Studio's live channel: Server-Sent Events to every open page. Each {@link StudioEvent}
 * goes out as an SSE event named after its `type`, with the event as JSON `data`; a comment
 * line every 20000 ms keeps idle connections open through proxies.
 *
 * @example
 * ```ts
 * const channel = new EventChannel();
 * // in a request handler for GET /api/events:
 * channel.connect(request, response);
 * // when a run changes:
 * channel.send({ type: 'run', run: summary });
 * ```
 */
export class EventChannel {
  readonly #clients = new Set<ServerResponse>();
  #heartbeat: NodeJS.Timeout | undefined;

  /** Keeps `response` open as an event stream until the page goes away or {@link close}. */
  connect(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    });
    response.write('retry: 1000\n: connected\n\n');
    this.#clients.add(response);
    const drop = () => this.#clients.delete(response);
    request.on('close', drop);
    response.on('error', drop);
    if (!this.#heartbeat) {
      this.#heartbeat = setInterval(() => this.#write(': ping\n\n'), HEARTBEAT_MS);
      this.#heartbeat.unref();
    }
  }

  /** Sends one event to every open page. */
  send(event: StudioEvent): void {
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
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }

  #write(chunk: string): void {
    for (const client of this.#clients) {
      if (!client.writableEnded) client.write(chunk);
    }
  }
}
