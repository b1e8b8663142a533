import { useState } from 'preact/hooks';
import type { ForkPreview, ForkRunRequest } from '../../src/workflows/workbench-api.js';
import type { TraceNode } from '../../src/trace/trace-node.js';
import { ModelChoiceField, modelChoiceOf, type ModelChoiceDraft } from './model-choice-field.js';
import { Section } from './section.js';
import { runHref } from './use-hash-route.js';
import { forkRun } from './workbench-client.js';

/** What the fork changes, as the form holds it. */
type ChangeKind = 'result' | 'answer' | 'output' | 'model';

/** The changes a node offers: a tool's result and its approval's answer, a model call's answer or model. */
function changesOf(node: TraceNode): ChangeKind[] {
  if (node.kind === 'model') return ['output', 'model'];
  const kinds: ChangeKind[] = [];
  if (node.approval && node.approval.status !== 'pending') kinds.push('answer');
  if (node.output !== undefined && node.status === 'succeeded') kinds.push('result');
  return kinds;
}

const LABELS: Record<ChangeKind, string> = {
  result: 'another result',
  answer: 'another answer to the approval',
  output: 'another answer of the model',
  model: 'another model from here',
};

/** The text a recorded value starts the form with: a text as it is, anything else as JSON. */
function startingText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * "Fork from here" on a model or tool node of a recorded run (one whose node carries its
 * record name): the one change (a tool's result, an approval's answer, a model's answer or
 * another model), how the live part's models answer (the workbench's model choice), what
 * runs live after the fork point (asked of the server before anything starts), then the fork
 * starts and the page goes to it.
 */
export function ForkPanel({ runId, node }: { runId: string; node: TraceNode }) {
  const kinds = changesOf(node);
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ChangeKind>(kinds[0] ?? 'result');
  const recorded = node.output as unknown;
  const [text, setText] = useState(() => (node.kind === 'tool' ? startingText(recorded) : ''));
  const [approved, setApproved] = useState(node.approval?.status !== 'approved');
  const [reason, setReason] = useState('');
  const [modelId, setModelId] = useState('');
  const [allAgents, setAllAgents] = useState(false);
  const [model, setModel] = useState<ModelChoiceDraft>({ kind: 'script', path: '', runId: '' });
  const [preview, setPreview] = useState<ForkPreview>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!node.record || kinds.length === 0 || node.status === 'running') return null;
  const record = kind === 'answer' ? node.record.replace(/^tool /, 'approval ') : node.record;

  /** The change as the request takes it, or why the form's value is not one. */
  const change = (): ForkRunRequest['change'] => {
    if (kind === 'answer')
      return { answer: approved ? 'approve' : 'deny', ...(reason ? { reason } : {}) };
    if (kind === 'model') return { model: modelId.trim(), ...(allAgents ? { allAgents } : {}) };
    // a recorded text stays text; anything else is JSON
    if (typeof recorded === 'string' || kind === 'output') return { [kind]: text } as never;
    try {
      return { result: JSON.parse(text) as unknown };
    } catch (problem) {
      throw new Error(`the result is not valid JSON (${(problem as Error).message})`);
    }
  };
  const send = async (start: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const request: ForkRunRequest = {
        at: record,
        change: change(),
        ...(start ? { model: modelChoiceOf(model) } : { preview: true }),
      };
      const answer = await forkRun(runId, request);
      if (start) location.hash = runHref(answer.runId);
      else setPreview(answer);
    } catch (problem) {
      setError((problem as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const edited = () => setPreview(undefined);
  if (!open)
    return (
      <Section title="Fork" testId="fork">
        <button class="wb-button" data-testid="fork-open" onClick={() => setOpen(true)}>
          Fork from here
        </button>
        <p class="muted">
          A new run that keeps everything before <span class="mono">{node.record}</span>, changes
          it, and runs the rest live.
        </p>
      </Section>
    );
  return (
    <Section title="Fork from here" testId="fork">
      <form
        class="fork-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send(preview !== undefined);
        }}
      >
        {kinds.length > 1 && (
          <fieldset>
            <legend>Change</legend>
            {kinds.map((each) => (
              <label key={each}>
                <input
                  type="radio"
                  name="fork-change"
                  checked={kind === each}
                  onChange={() => {
                    setKind(each);
                    edited();
                  }}
                />{' '}
                {LABELS[each]}
              </label>
            ))}
          </fieldset>
        )}
        <p class="muted">
          At{' '}
          <span class="mono" data-testid="fork-record">
            {record}
          </span>
        </p>
        {kind === 'answer' && (
          <fieldset>
            <legend>The answer</legend>
            <label>
              <input
                type="radio"
                name="fork-answer"
                checked={approved}
                onChange={() => {
                  setApproved(true);
                  edited();
                }}
              />{' '}
              approve
            </label>
            <label>
              <input
                type="radio"
                name="fork-answer"
                checked={!approved}
                onChange={() => {
                  setApproved(false);
                  edited();
                }}
              />{' '}
              deny
            </label>
            <input
              class="wb-input"
              aria-label="Reason"
              placeholder="Reason (optional)"
              value={reason}
              onInput={(event) => setReason(event.currentTarget.value)}
            />
          </fieldset>
        )}
        {(kind === 'result' || kind === 'output') && (
          <label>
            {kind === 'result'
              ? typeof recorded === 'string'
                ? 'The result (text)'
                : 'The result (JSON)'
              : "The model's answer (text)"}
            <textarea
              class="wb-input"
              aria-label="New value"
              rows={4}
              value={text}
              onInput={(event) => {
                setText(event.currentTarget.value);
                edited();
              }}
            />
          </label>
        )}
        {kind === 'model' && (
          <>
            <input
              class="wb-input"
              aria-label="Model id"
              placeholder="gpt-5"
              value={modelId}
              onInput={(event) => {
                setModelId(event.currentTarget.value);
                edited();
              }}
            />
            <label>
              <input
                type="checkbox"
                checked={allAgents}
                onChange={(event) => setAllAgents(event.currentTarget.checked)}
              />{' '}
              every agent, not only this one
            </label>
          </>
        )}
        <ModelChoiceField value={model} onChange={setModel} />
        {preview && (
          <p class="fork-live" data-testid="fork-live">
            {preview.replayed} recorded call{preview.replayed === 1 ? '' : 's'} and answers replay;{' '}
            {preview.live}.
          </p>
        )}
        {error && (
          <p class="notice-error" data-testid="fork-error">
            {error}
          </p>
        )}
        <button class="wb-button" type="submit" disabled={busy} data-testid="fork-submit">
          {preview ? 'Start the fork' : 'What runs live?'}
        </button>
      </form>
    </Section>
  );
}
