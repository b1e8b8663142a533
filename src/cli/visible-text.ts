/**
 * Control characters a terminal acts on (C0 but tab, DEL, C1) and the invisible bidi and
 * direction marks that reorder what is shown. Newline is matched too; callers keep it or not.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r' };

/**
 * Text from outside June (model text, tool input, output and error messages, tool names,
 * approval reasons) made safe to print on a terminal: every control character is shown as
 * an escape (`\x1b`, `\r`, `\u202e`) instead of acting (clearing the screen, setting the
 * window title, moving the cursor, overwriting a line). Tab is kept; newline is kept only
 * with `keepNewlines` (streamed model text), so one string cannot draw lines of its own.
 *
 * @example
 * ```ts
 * visibleText('A\x1b]0;TITLE\x07B\x1b[2JC'); // 'A\\x1b]0;TITLE\\x07B\\x1b[2JC' (backslashes printed)
 * ```
 */
export function visibleText(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(CONTROL, (char) => {
    if (char === '\n' && options.keepNewlines) return char;
    const named = NAMED[char];
    if (named) return named;
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** What `JSON.stringify` leaves as it is and a terminal may still act on: DEL, C1 and bidi marks. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A value as one line of JSON that is safe on a terminal: `JSON.stringify` escapes C0
 * control characters, and this also escapes DEL, C1 and bidi marks (as `\u009b`), so the
 * line parses to the same value.
 *
 * @example
 * ```ts
 * terminalJson({ text: 'a\u009b2Jb' }); // '{"text":"a\\u009b2Jb"}'
 * ```
 */
export function terminalJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    JSON_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
