import { useEffect, useMemo, useState } from 'preact/hooks';
import type { TraceError } from '../../src/trace/trace-node.js';
import { sideBySide, sortedJson, type DiffRow, type SideLine } from './side-by-side.js';

/** Unchanged lines kept around each change when the rest is folded. */
const CONTEXT = 3;

/**
 * The two versions an error is about, side by side (`journal-mismatch`: the request as
 * recorded on the left, as the workflow makes it now on the right), the lines and words
 * that differ marked; long unchanged stretches folded. Escape or Close closes it.
 */
export function CompareView(props: {
  comparison: NonNullable<TraceError['comparison']>;
  onClose(): void;
}) {
  const { comparison, onClose } = props;
  const rows = useMemo(
    () => sideBySide(sortedJson(comparison.recorded), sortedJson(comparison.current)),
    [comparison],
  );
  const [all, setAll] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);
  const changed = rows.filter((row) => row.kind === 'changed').length;
  return (
    <div
      class="compare-overlay"
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <div class="compare" role="dialog" aria-label="Compare" data-testid="compare">
        <header class="compare-head">
          <h2>{comparison.what}</h2>
          <span class="muted">
            {changed === 0
              ? 'no line differs'
              : `${changed} line${changed === 1 ? ' differs' : 's differ'}`}
          </span>
          <label class="toggle-filter">
            <input
              type="checkbox"
              checked={all}
              onChange={(event) => setAll(event.currentTarget.checked)}
            />
            Show unchanged lines
          </label>
          <button onClick={onClose}>Close</button>
        </header>
        <div class="compare-cols" aria-hidden="true">
          <span>Recorded</span>
          <span>Now</span>
        </div>
        <div class="compare-body" data-testid="compare-rows">
          {foldRows(rows, all).map((row, index) =>
            row === 'fold' ? (
              <div key={index} class="compare-fold">
                ⋯
              </div>
            ) : (
              <CompareRow key={index} row={row} />
            ),
          )}
        </div>
      </div>
    </div>
  );
}

function CompareRow({ row }: { row: DiffRow }) {
  return (
    <div class={`compare-row compare-${row.kind}`}>
      <Side line={row.left} side="removed" />
      <Side line={row.right} side="added" />
    </div>
  );
}

function Side({ line, side }: { line: SideLine | undefined; side: 'removed' | 'added' }) {
  if (!line) return <span class="compare-side compare-empty" />;
  const changed = line.pieces.some((piece) => piece.changed);
  return (
    <span class={`compare-side${changed ? ` compare-${side}` : ''}`} data-side={side}>
      <span class="compare-number">{line.number}</span>
      <span class="compare-text">
        {line.pieces.map((piece, index) =>
          piece.changed ? <mark key={index}>{piece.text}</mark> : piece.text,
        )}
      </span>
    </span>
  );
}

/** The rows to show: every row with `all`, else the changed ones and `CONTEXT` rows around each. */
function foldRows(rows: DiffRow[], all: boolean): Array<DiffRow | 'fold'> {
  if (all) return rows;
  const keep = rows.map(() => false);
  rows.forEach((row, index) => {
    if (row.kind !== 'changed') return;
    for (
      let at = Math.max(0, index - CONTEXT);
      at <= Math.min(rows.length - 1, index + CONTEXT);
      at++
    )
      keep[at] = true;
  });
  const shown: Array<DiffRow | 'fold'> = [];
  rows.forEach((row, index) => {
    if (keep[index]) shown.push(row);
    else if (shown[shown.length - 1] !== 'fold') shown.push('fold');
  });
  return shown;
}
