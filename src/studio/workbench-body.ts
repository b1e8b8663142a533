import { StudioRequestError } from '../host/studio-request-error.js';

/** The largest body a workbench request may have, in bytes (props, a tool's input). */
export const WORKBENCH_BODY_BYTES = 256 * 1024;

/** A workbench request's body over {@link WORKBENCH_BODY_BYTES}: `studio-request-invalid` (400). */
export const workbenchBodyTooLarge = (): StudioRequestError =>
  new StudioRequestError(
    'studio-request-invalid',
    `june: a workbench request's body is larger than ${WORKBENCH_BODY_BYTES} bytes; send smaller props or input.`,
    400,
  );

/**
 * Reads a workbench request's JSON body (its size is limited before, see `workbenchRoutes`).
 * @param what - the request in messages (`a start-run request`).
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a body that is not JSON.
 */
export async function readJsonBody(request: Request, what: string): Promise<unknown> {
  try {
    return JSON.parse(await request.text()) as unknown;
  } catch {
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: ${what}'s body is not JSON; send a JSON object.`,
      400,
    );
  }
}
