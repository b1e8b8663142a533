import { useState } from 'preact/hooks';

const LIMIT = 20_000;

/**
 * A value as the trace holds it: a string as text, anything else as indented JSON. Long
 * values show their first 20,000 characters until you ask for all.
 */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  const [all, setAll] = useState(false);
  const text =
    typeof value === 'string' ? value : value === undefined ? 'undefined' : showable(value);
  const long = text.length > LIMIT && !all;
  return (
    <div class="value">
      <pre class={typeof value === 'string' ? 'text' : 'json'} data-testid={testId}>
        {long ? `${text.slice(0, LIMIT)}\n...` : text}
      </pre>
      {long && (
        <button class="link" onClick={() => setAll(true)}>
          Show all ({Math.round(text.length / 1024).toLocaleString('en-US')} KB)
        </button>
      )}
    </div>
  );
}

/** A value as indented JSON; one nested too deeply for `JSON.stringify` says so instead of failing. */
function showable(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch (error) {
    return `(Studio cannot show this value: ${error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message})`;
  }
}
