import { diffLines, diffWordsWithSpace } from 'diff';

/** A piece of a line: text, and whether it is what changed on its side. */
export interface LinePiece {
  text: string;
  changed: boolean;
}

/** One side of a row: the line and its number, or nothing (a line the other side added). */
export interface SideLine {
  number: number;
  pieces: LinePiece[];
}

/** A row of a side-by-side diff: `same` on both sides, or `changed` (a side may be empty). */
export interface DiffRow {
  kind: 'same' | 'changed';
  left?: SideLine;
  right?: SideLine;
}

/**
 * The rows of a side-by-side diff of two texts, line by line (the `diff` package): lines
 * removed and added at one place pair up, with the words that differ marked on each side.
 */
export function sideBySide(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  const numbers = { left: 0, right: 0 };
  const side = (which: 'left' | 'right', pieces: LinePiece[]): SideLine => ({
    number: ++numbers[which],
    pieces,
  });
  const parts = diffLines(before, after);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      for (const line of linesOf(part.value)) {
        const pieces = [{ text: line, changed: false }];
        rows.push({ kind: 'same', left: side('left', pieces), right: side('right', pieces) });
      }
      continue;
    }
    const next = parts[i + 1];
    const removed = part.removed ? linesOf(part.value) : [];
    const added = part.added ? linesOf(part.value) : next?.added ? linesOf(next.value) : [];
    if (part.removed && next?.added) i++;
    for (let at = 0; at < Math.max(removed.length, added.length); at++) {
      const [left, right] = markWords(removed[at], added[at]);
      rows.push({
        kind: 'changed',
        ...(left ? { left: side('left', left) } : {}),
        ...(right ? { right: side('right', right) } : {}),
      });
    }
  }
  return rows;
}

/** The words that differ between a removed and an added line, marked on each side. */
function markWords(
  before: string | undefined,
  after: string | undefined,
): [LinePiece[] | undefined, LinePiece[] | undefined] {
  if (before === undefined || after === undefined)
    return [
      before === undefined ? undefined : [{ text: before, changed: true }],
      after === undefined ? undefined : [{ text: after, changed: true }],
    ];
  const left: LinePiece[] = [];
  const right: LinePiece[] = [];
  for (const change of diffWordsWithSpace(before, after)) {
    if (!change.added) left.push({ text: change.value, changed: Boolean(change.removed) });
    if (!change.removed) right.push({ text: change.value, changed: Boolean(change.added) });
  }
  return [left, right];
}

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A value as indented JSON with the keys of every object sorted, so two versions of it line
 * up whatever order their keys were written in.
 */
export function sortedJson(value: unknown): string {
  try {
    return (
      JSON.stringify(
        value,
        (_key, inner: unknown) =>
          inner && typeof inner === 'object' && !Array.isArray(inner)
            ? Object.fromEntries(
                Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
                  a < b ? -1 : a > b ? 1 : 0,
                ),
              )
            : inner,
        2,
      ) ?? 'undefined'
    );
  } catch (error) {
    return `(Studio cannot show this value: ${error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message})`;
  }
}
