/**
 * Collects one output stream of a command, keeping at most `maxBytes` bytes (the first ones)
 * and counting the rest, so a command that prints gigabytes costs memory for the cap only.
 *
 * `text()` decodes what was kept as UTF-8: a character cut in half by the cap is dropped
 * whole, and bytes that are not UTF-8 (binary output) become U+FFFD, so the text is always
 * well-formed and JSON-serializable.
 *
 * @example
 * ```ts
 * const out = new CappedOutput(65_536);
 * child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
 * // later
 * const { text, truncated } = { text: out.text(), truncated: out.truncated };
 * ```
 */
export class CappedOutput {
  /** The most bytes kept. */
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #keptBytes = 0;
  #seenBytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Adds a chunk; bytes past the cap are counted and dropped. */
  push(chunk: Buffer): void {
    this.#seenBytes += chunk.length;
    const room = this.maxBytes - this.#keptBytes;
    if (room <= 0) return;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(kept);
    this.#keptBytes += kept.length;
  }

  /** True when the stream had more than `maxBytes` bytes. */
  get truncated(): boolean {
    return this.#seenBytes > this.maxBytes;
  }

  /** How many bytes the stream had in all, kept or not. */
  get seenBytes(): number {
    return this.#seenBytes;
  }

  /** What was kept, decoded as UTF-8 with U+FFFD for invalid bytes. */
  text(): string {
    const bytes = Buffer.concat(this.#chunks, this.#keptBytes);
    const end = this.truncated ? completeUtf8Length(bytes) : bytes.length;
    return bytes.subarray(0, end).toString('utf8');
  }
}

/** The length of `bytes` without a UTF-8 character the end cuts in half. */
function completeUtf8Length(bytes: Buffer): number {
  let lead = bytes.length - 1;
  // Walk back over at most 3 continuation bytes (10xxxxxx) to the start of the last character.
  while (lead >= 0 && bytes.length - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes.length;
  const first = bytes[lead] ?? 0;
  const size = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + size > bytes.length ? lead : bytes.length;
}
