import { useState } from 'preact/hooks';

const LIMIT = 20_000;

/**
 * A value as the trace holds it: a string as text, anything else as indented JSON. Long
 * values show their first 20,000 characters until you ask for all.
 */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  const [all, setAll] = useState(false);
  const text = typeof value === 'string' ? value : value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
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
