import type { IncomingMessage } from 'node:http';
import type { ApprovalAnswerInput } from '../host/approval-desk.js';
import { carriesToken, type StudioAccess } from './studio-access.js';
import { StudioRequestError } from '../host/studio-request-error.js';

const MAX_REASON_CHARS = 4000;
const MAX_ANSWERED_BY_CHARS = 200;

/**
 * Checks that an answering request (it changes a run) comes from Studio's own page or a
 * script that holds the token: a browser's `Sec-Fetch-Site` must be `same-origin`, an
 * `Origin` header must name the very host the request addressed (`Host`), and the request
 * must carry `access.answerToken` (`Authorization: Bearer`, `?token=`, or the page's cookie).
 * The `Host` check itself comes first, for every request (see `server/admit-request.ts`); the `answering` middleware
 * (`server/answering.ts`) applies this check to a route.
 *
 * @throws {StudioRequestError} `studio-request-refused`: 403 for a request from another
 *   site, 401 without the right token.
 */
export function checkAnswering(access: StudioAccess, request: IncomingMessage, url: URL): void {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const host = request.headers.host ?? '';
  const sameOrigin = origin === undefined || sameHost(origin, host);
  if ((site !== undefined && site !== 'same-origin') || !sameOrigin) {
    throw new StudioRequestError(
      'studio-request-refused',
      `june: Studio takes answers only from its own page; this request came from ${JSON.stringify(String(origin ?? site).slice(0, 80))}. Answer in Studio's page, or from a script without an Origin header.`,
      403,
    );
  }
  if (!carriesToken(request, url, access.answerToken)) {
    throw new StudioRequestError(
      'studio-request-refused',
      'june: answering needs the token `june studio` printed: open Studio by the URL it printed (it ends in ?token=...), or send "Authorization: Bearer <token>".',
      401,
    );
  }
}

/** True when `origin` (`http://host:port`) names exactly the `Host` the request addressed. */
function sameHost(origin: string, host: string): boolean {
  try {
    const parsed = new URL(origin);
    return parsed.protocol === 'http:' && parsed.host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/** How large an approval answer's body may be, in bytes (64 KiB). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Reads an answer's body: JSON `{ key, approved, reason?, answeredBy?, input?, output? }`
 * (its size checked before, up to {@link MAX_ANSWER_BYTES}, see `approvals-routes.ts`), a
 * reason of at most 4000 characters (only with a denial), who answered in at most 200, an
 * approval's edited call `input` and a denial's `output` instead of the tool (JSON values,
 * checked by the run host and the tool's schemas).
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for anything else.
 */
export async function readAnswerBody(request: Request): Promise<ApprovalAnswerInput> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw invalid('the body is not JSON');
  }
  const { key, approved, reason, answeredBy, input, output } = (body ?? {}) as Record<
    string,
    unknown
  >;
  if (typeof key !== 'string' || key === '') throw invalid('"key" must be the call\'s key');
  if (typeof approved !== 'boolean') throw invalid('"approved" must be true or false');
  if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON_CHARS))
    throw invalid('"reason" must be a string of at most 4000 characters');
  if (
    answeredBy !== undefined &&
    (typeof answeredBy !== 'string' || answeredBy.length > MAX_ANSWERED_BY_CHARS)
  )
    throw invalid('"answeredBy" must be a string of at most 200 characters');
  if (input !== undefined && approved !== true)
    throw invalid('"input" (an edited call) goes with "approved": true');
  if (output !== undefined && approved !== false)
    throw invalid('"output" (an answer instead of the tool) goes with "approved": false');
  const given = typeof reason === 'string' && reason.trim() !== '' && !approved;
  const by = typeof answeredBy === 'string' ? answeredBy.trim() : '';
  return {
    key,
    approved,
    ...(given ? { reason: reason.trim() } : {}),
    ...(by !== '' ? { answeredBy: by } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(output !== undefined ? { output } : {}),
  };
}

/** The error for an answer's body larger than {@link MAX_ANSWER_BYTES}. */
export const answerTooLarge = (): StudioRequestError => invalid('the body is larger than 64 KiB');

function invalid(problem: string): StudioRequestError {
  return new StudioRequestError(
    'studio-request-invalid',
    `june: an approval answer is JSON { "key": string, "approved": boolean, "reason"?: string, "answeredBy"?: string, "input"?: JSON (with approved: true), "output"?: JSON (with approved: false) }; ${problem}.`,
    400,
  );
}
