import { useState } from 'preact/hooks';
import type { TraceError } from '../../src/trace/trace-node.js';
import { CompareView } from './compare-view.js';

/** A button that opens the side-by-side view of an error's comparison. */
export function CompareButton(props: {
  comparison: NonNullable<TraceError['comparison']>;
  label: string;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button class="compare-button" data-testid={props.testId} onClick={() => setOpen(true)}>
        {props.label}
      </button>
      {open && <CompareView comparison={props.comparison} onClose={() => setOpen(false)} />}
    </>
  );
}
