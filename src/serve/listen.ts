import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../errors/error-message.js';
import { SystemError } from '../errors/june-error.js';

/**
 * Listens on `hostname`:`port` (0 for a free port).
 * @returns the port it got.
 * @throws {SystemError} `serve-option-invalid` when it cannot listen there (the port is taken,
 *   the address is not this machine's).
 */
export async function listen(server: Server, hostname: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new SystemError(
          'serve-option-invalid',
          `june: cannot listen on ${hostname}:${port}: ${errorMessage(error)}; pick another --port or --host.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, hostname, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
