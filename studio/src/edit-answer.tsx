import { diffLines } from 'diff';
import { useState } from 'preact/hooks';

/** What the person gives instead of a plain yes: an edited input, or an answer instead of the tool. */
export type EditedAnswer =
  { approved: true; input: unknown } | { approved: false; output: unknown };

/**
 * "Edit input" and "Answer instead" for a waiting call. Editing shows the model's input as
 * JSON to change, with the lines changed against it (a diff) before it is sent; answering
 * takes JSON, or text that is not JSON as a string, which the model reads as the result.
 * The tool's schema checks either on the server: its `june:` message is shown by the card.
 */
export function EditAnswer(props: {
  input: unknown;
  sending: boolean;
  send: (answer: EditedAnswer) => void;
}) {
  const original = JSON.stringify(props.input, null, 2) ?? '';
  const [mode, setMode] = useState<'edit' | 'respond' | undefined>();
  const [text, setText] = useState(original);
  const [answer, setAnswer] = useState('');
  if (!mode)
    return (
      <div class="approval-actions">
        <button onClick={() => setMode('edit')}>Edit input</button>
        <button onClick={() => setMode('respond')}>Answer instead</button>
      </div>
    );
  if (mode === 'respond')
    return (
      <div class="approval-edit">
        <textarea
          aria-label="Answer instead of the tool"
          placeholder="The result the model reads (JSON, or text)"
          value={answer}
          onInput={(event) => setAnswer((event.target as HTMLTextAreaElement).value)}
        />
        <button
          disabled={props.sending || answer.trim() === ''}
          onClick={() => props.send({ approved: false, output: parsed(answer) ?? answer })}
        >
          Send as the result
        </button>
      </div>
    );
  const edited = parsed(text);
  return (
    <div class="approval-edit">
      <textarea
        aria-label="Edited input (JSON)"
        class="mono"
        rows={Math.min(12, text.split('\n').length + 1)}
        value={text}
        onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
      />
      {edited === undefined ? (
        <p class="notice notice-error small">This is not JSON.</p>
      ) : (
        <InputDiff before={original} after={JSON.stringify(edited, null, 2)} />
      )}
      <button
        disabled={props.sending || edited === undefined}
        onClick={() => props.send({ approved: true, input: edited })}
      >
        Approve with this input
      </button>
    </div>
  );
}

/** The edited input against the model's, line by line: removed lines `-`, added `+`. */
function InputDiff({ before, after }: { before: string; after: string }) {
  if (before === after) return <p class="muted small">Same as the model's input.</p>;
  return (
    <pre class="approval-diff mono small" data-testid="approval-diff">
      {diffLines(before, after).flatMap((part, i) =>
        part.value
          .replace(/\n$/, '')
          .split('\n')
          .map((line, j) => (
            <div
              key={`${i}.${j}`}
              class={part.added ? 'diff-added' : part.removed ? 'diff-removed' : undefined}
            >
              {`${part.added ? '+' : part.removed ? '-' : ' '} ${line}`}
            </div>
          )),
      )}
    </pre>
  );
}

/** `text` as JSON, or undefined when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
