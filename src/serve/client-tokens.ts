import { SystemError } from '../errors/june-error.js';

/**
 * The bearer tokens, by client name, checked and as bytes (for `clientOf`'s constant-time
 * comparison).
 *
 * @throws {SystemError} `serve-option-invalid` for a client name that is not 1 to 64 letters,
 *   digits, `_`, `.`, `@` or `-`, a token shorter than 16 characters, or no token at all.
 */
export function checkedTokens(tokens: Record<string, string>): Map<string, Buffer> {
  const checked = new Map<string, Buffer>();
  for (const [name, token] of Object.entries(tokens)) {
    if (!/^[A-Za-z0-9_.@-]{1,64}$/.test(name) || typeof token !== 'string' || token.length < 16)
      throw new SystemError(
        'serve-option-invalid',
        `june: the token of the client ${JSON.stringify(name)} is not one: a client's name is 1 to 64 letters, digits, "_", ".", "@" or "-", and its token at least 16 characters.`,
      );
    checked.set(name, Buffer.from(token));
  }
  if (checked.size === 0)
    throw new SystemError('serve-option-invalid', 'june: give at least one client token.');
  return checked;
}
