// A client's enqueue notices never get in its way: against a database that refuses the
// connection or never answers, notices are dropped, nothing is thrown or left unhandled, and
// close() returns once the notice's time limit (2 s) is up, however many enqueues came first.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EnqueueNotices } from '../../src/dbos/enqueue-notices.js';

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A TCP server on 127.0.0.1 that takes connections and never says a word; its port. */
async function silentServer(): Promise<number> {
  server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const port = await silentServer();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
  return port;
}

describe('EnqueueNotices', () => {
  it('drops notices a refusing database cannot take, and closes at once', async () => {
    const notices = new EnqueueNotices(`postgresql://june@127.0.0.1:${await closedPort()}/june`);
    for (let n = 0; n < 20; n++) notices.notify(`june.run.w${n % 3}`);
    await expect(notices.close()).resolves.toBeUndefined();
    notices.notify('june.run.w0'); // after close: dropped
    await expect(notices.close()).resolves.toBeUndefined();
  });

  it('gives up on a database that never answers within its time limit, one notice per queue', async () => {
    const notices = new EnqueueNotices(`postgresql://june@127.0.0.1:${await silentServer()}/june`);
    for (let n = 0; n < 50; n++) notices.notify('june.run.release');
    await expect(notices.close()).resolves.toBeUndefined();
    // one connection tried for the queue's waiting notice, not fifty
    expect(sockets).toHaveLength(1);
  }, 10_000);
});
