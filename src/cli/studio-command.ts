import { WorkflowError } from '../errors/index.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';

/** The flags of `june studio`. */
export interface StudioCommandOptions {
  /** `--port`: the TCP port, as typed; `0` picks a free one. @default Studio's own (4000) */
  port?: string;
  /** `--host`: the address to listen on. @default '127.0.0.1' */
  host?: string;
  /** `--allow-host` (repeatable): more host names requests may address. */
  allowHost?: string[];
  /** `--database`: show this PostgreSQL database's runs (DBOS) instead of `dir`'s. */
  database?: string;
}

/**
 * The `--port` flag as a number (undefined when not given).
 * @throws {WorkflowError} `cli-option-invalid` when it is not a whole number from 0 to 65535.
 */
export function portOption(text: string | undefined): number | undefined {
  const port = text === undefined ? undefined : Number(text);
  if (
    port !== undefined &&
    !(text!.trim() !== '' && Number.isInteger(port) && port >= 0 && port <= 65535)
  ) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --port must be a whole number from 0 to 65535 (0 picks a free one), got ${JSON.stringify(text)}.`,
    );
  }
  return port;
}

/**
 * `june studio [dir]`: serves June Studio (`startStudio()` from `src/studio`) over the run
 * traces in `dir` (or, with `--database`, the runs of a database), prints its URL, which
 * carries the token answering approvals needs (and, bound beyond loopback, prints the access
 * token), and serves until Ctrl-C.
 *
 * @param dir - the folder of trace files. @default '.june/runs'
 * @throws {WorkflowError} `cli-option-invalid` when `--port` is not a whole number from 0 to 65535.
 * @throws {SystemError} Studio's own errors (`studio-listen-failed` when the port is taken...).
 * @example
 * ```ts
 * await studioCommand('.june/runs', { port: '0' }, processIO());
 * ```
 */
export async function studioCommand(
  dir: string | undefined,
  options: StudioCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const port = portOption(options.port);
  const { startStudio } = await import('../studio/index.js');
  const studio = await startStudio({
    ...(dir !== undefined ? { dir } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.allowHost?.length ? { allowHosts: options.allowHost } : {}),
    ...(options.database !== undefined ? { database: options.database } : {}),
  });
  io.stdout.write(`June Studio: ${studio.pageUrl} (Ctrl-C to stop)\n`);
  if (studio.token !== undefined) {
    io.stdout.write(
      `Access token: ${studio.token} (every API request needs it; the URL above carries it to the page)\n`,
    );
  }
  await new Promise((stop) => process.once('SIGINT', stop));
  await studio.close();
  return ExitCode.success;
}
