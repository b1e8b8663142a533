import type { IncomingMessage } from 'node:http';
import { StudioRequestError } from './studio-request-error.js';

/** The largest body a workbench request may have, in bytes (props, a tool's input). */
export const WORKBENCH_BODY_BYTES = 256 * 1024;

/**
 * Reads a workbench request's JSON body (at most {@link WORKBENCH_BODY_BYTES}).
 * @param what - the request in messages (`a start-run request`).
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a larger body or one that is not JSON.
 */
export async function readJsonBody(request: IncomingMessage, what: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > WORKBENCH_BODY_BYTES)
      throw new StudioRequestError(
        'studio-request-invalid',
        `june: ${what}'s body is larger than ${WORKBENCH_BODY_BYTES} bytes; send smaller props or input.`,
        400,
      );
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: ${what}'s body is not JSON; send a JSON object.`,
      400,
    );
  }
}
