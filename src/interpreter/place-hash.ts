/**
 * A 64-bit hash of a node's place, as 16 hex digits: two 32-bit multiply-xor lanes over the
 * text's UTF-16 code units, each mixed with the other at the end (the cyrb53 scheme, both
 * lanes kept). The same text gives the same digits in every process and on every platform, so
 * a run told again after a restart names its nodes as before. Not a cryptographic hash: a
 * place is not a secret, and one run's places only need to differ from each other. On a
 * place's few dozen characters it takes about 0.1 µs, a seventh of a SHA-256 digest's time
 * (`createHash`), once per node.
 *
 * @example
 * ```ts
 * placeHash('n0b7c9e21f4a6d3c5\nstep:release'); // 16 hex digits
 * ```
 */
export function placeHash(text: string): string {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return hex8(h2) + hex8(h1);
}

/** The two hex digits of each byte, by value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** `value`'s 32 bits as 8 hex digits, by table (`toString(16)` and `padStart` take several times the hash). */
function hex8(value: number): string {
  return (
    HEX[(value >>> 24) & 255]! +
    HEX[(value >>> 16) & 255]! +
    HEX[(value >>> 8) & 255]! +
    HEX[value & 255]!
  );
}
