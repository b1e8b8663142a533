import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { SystemError } from '../errors/index.js';

/** Who may use a Studio server: the `Host` names requests may address, and the access token, if any. */
export interface StudioAccess {
  /** Host names (lower case, IPv6 in brackets, no port) a request's `Host` header may name. */
  allowedHosts: ReadonlySet<string>;
  /** Required on every API request when set (a header, a query parameter or the cookie the page gets). */
  token?: string;
  /**
   * Required on every answering request (an approval answer), wherever Studio listens: `token`
   * when there is one, else a random one made at start. The URL Studio prints carries it.
   */
  answerToken: string;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The name of the cookie that carries Studio's token for the page served on `port`. */
export const tokenCookie = (port: number | undefined) => `june_studio_token_${port ?? 0}`;

/**
 * Decides who may use a Studio bound to `host`. The allowed `Host` names follow the bound
 * address: a loopback address allows the loopback names (`127.0.0.1`, `localhost`, `[::1]`)
 * when it is one of them, itself otherwise; a wildcard (`0.0.0.0`, `::`) allows the loopback
 * names and this machine's interface addresses; any other address allows itself. Names in
 * `allowHosts` are added (a DNS name the server is reached by). The check stays on whatever
 * the address, so DNS rebinding cannot reach Studio through another name.
 *
 * Beyond loopback, Studio also requires an access token: `token`, or a random one (24 bytes,
 * base64url). Answering requests need a token wherever Studio listens (`answerToken`: the
 * access token, or a random one on loopback).
 *
 * @throws {SystemError} `studio-host-invalid` when an `allowHosts` entry is not a host name or address.
 * @example
 * ```ts
 * studioAccess('0.0.0.0', ['studio.internal']); // { allowedHosts: Set { '127.0.0.1', ..., 'studio.internal' }, token: '...' }
 * ```
 */
export function studioAccess(
  host: string,
  allowHosts: readonly string[] = [],
  token?: string,
): StudioAccess {
  const bound = hostName(host);
  const wildcard = bound === '0.0.0.0' || bound === '[::]' || bound === '';
  const allowed = new Set<string>();
  if (wildcard || LOOPBACK_NAMES.includes(bound))
    LOOPBACK_NAMES.forEach((name) => allowed.add(name));
  if (wildcard) for (const address of interfaceAddresses(bound !== '0.0.0.0')) allowed.add(address);
  else allowed.add(bound);
  for (const name of allowHosts) {
    const normal = hostName(name);
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?)$/.test(normal)) {
      throw new SystemError(
        'studio-host-invalid',
        `june: --allow-host takes a host name or address such as studio.example.com, got ${JSON.stringify(name)}.`,
      );
    }
    allowed.add(normal);
  }
  const needsToken = token !== undefined || !isLoopback(bound);
  const answerToken = token ?? randomBytes(24).toString('base64url');
  return { allowedHosts: allowed, ...(needsToken ? { token: answerToken } : {}), answerToken };
}

/** True for an address that only this machine can reach: `localhost`, `127.0.0.0/8`, `::1`. */
export function isLoopback(host: string): boolean {
  const name = hostName(host);
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** A host as a `Host` header names it: lower case, an IPv6 address in brackets, no port. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  if (lower.split(':').length > 2) return `[${lower}]`; // a bare IPv6 address
  return lower.replace(/:\d*$/, '');
}

/**
 * True when `request` carries `token`: as `Authorization: Bearer <token>`, as `?token=` in
 * its URL, or in the cookie Studio sets when the page is opened with `?token=`. Compared in
 * constant time.
 */
export function carriesToken(request: IncomingMessage, url: URL, token: string): boolean {
  const given = [
    bearer(request.headers.authorization),
    url.searchParams.get('token') ?? undefined,
    cookie(request.headers.cookie, tokenCookie(request.socket.localPort)),
  ];
  const expected = Buffer.from(token);
  return given.some(
    (value) =>
      value !== undefined &&
      Buffer.byteLength(value) === expected.length &&
      timingSafeEqual(Buffer.from(value), expected),
  );
}

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function interfaceAddresses(withIpv6: boolean): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => withIpv6 || entry.family === 'IPv4')
    .map((entry) => hostName(entry.address));
}
