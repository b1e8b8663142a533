import { styleText } from 'node:util';

/** The styles June's CLI uses. Each returns its text unchanged when colour is off. */
export interface TerminalStyle {
  readonly color: boolean;
  bold(text: string): string;
  dim(text: string): string;
  tool(text: string): string;
  success(text: string): string;
  failure(text: string): string;
  attention(text: string): string;
}

/**
 * Styles for a stream: colours (via `node:util` `styleText`) only when the stream is a
 * terminal that has colours (so `NO_COLOR` and `FORCE_COLOR` are honoured); plain text
 * when it is piped or redirected.
 *
 * @example
 * ```ts
 * const style = terminalStyle(process.stdout);
 * process.stdout.write(style.success('✓ done') + '\n');
 * ```
 */
export function terminalStyle(stream: NodeJS.WriteStream): TerminalStyle {
  const color =
    Boolean(stream.isTTY) && (typeof stream.hasColors !== 'function' || stream.hasColors());
  const paint = (format: Parameters<typeof styleText>[0]) => (text: string) =>
    color ? styleText(format, text) : text;
  return {
    color,
    bold: paint('bold'),
    dim: paint('dim'),
    tool: paint('cyan'),
    success: paint('green'),
    failure: paint('red'),
    attention: paint('yellow'),
  };
}
