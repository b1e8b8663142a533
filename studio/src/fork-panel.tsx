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

/** The form's values. */
interface Draft {
  kind: ChangeKind;
  /** A new result or model answer, as typed. */
  text: string;
  approved: boolean;
  reason: string;
  modelId: string;
  allAgents: boolean;
}

/** The change as the request takes it. @throws {Error} for a result that is not JSON */
function changeOf(draft: Draft, recorded: unknown): ForkRunRequest['change'] {
  const { kind, text, approved, reason, modelId, allAgents } = draft;
  if (kind === 'answer')
    return { answer: approved ? 'approve' : 'deny', ...(reason ? { reason } : {}) };
  if (kind === 'model') return { model: modelId.trim(), ...(allAgents ? { allAgents } : {}) };
  if (kind === 'output') return { output: text };
  // a recorded text stays text; anything else is JSON
  if (typeof recorded === 'string') return { result: text };
  try {
    return { result: JSON.parse(text) as unknown };
  } catch (problem) {
    throw new Error(`the result is not valid JSON (${(problem as Error).message})`);
  }
}

/**
 * "Fork from here" on a model or tool node of a recorded run (one whose node carries its
 * record name): the one change (a tool's result, an approval's answer, a model's answer or
 * another model), how the live part's models answer (the workbench's model choice), what
 * runs live after the fork point (asked of the server before anything starts), then the fork
 * starts and the page goes to it.
 */
export function ForkPanel({ runId, node }: { runId: string; node: TraceNode }) {
  const [open, setOpen] = useState(false);
  if (!node.record || changesOf(node).length === 0 || node.status === 'running') return null;
  if (open) return <ForkForm runId={runId} node={node} record={node.record} />;
  return (
    <Section title="Fork" testId="fork">
      <button class="wb-button" data-testid="fork-open" onClick={() => setOpen(true)}>
        Fork from here
      </button>
      <p class="muted">
        A new run that keeps everything before <span class="mono">{node.record}</span>, changes it,
        and runs the rest live.
      </p>
    </Section>
  );
}

function ForkForm({ runId, node, record }: { runId: string; node: TraceNode; record: string }) {
  const kinds = changesOf(node);
  const recorded = node.output as unknown;
  const [draft, setDraft] = useState<Draft>(() => ({
    kind: kinds[0]!,
    text: node.kind === 'tool' ? startingText(recorded) : '',
    approved: node.approval?.status !== 'approved',
    reason: '',
    modelId: '',
    allAgents: false,
  }));
  const [model, setModel] = useState<ModelChoiceDraft>({ kind: 'script', path: '', runId: '' });
  const fork = useFork(runId);
  const at = draft.kind === 'answer' ? record.replace(/^tool /, 'approval ') : record;
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    fork.setPreview(undefined);
  };
  return (
    <Section title="Fork from here" testId="fork">
      <form
        class="fork-form"
        onSubmit={(event) => {
          event.preventDefault();
          const start = fork.preview !== undefined;
          void fork.send(start, () => ({
            at,
            change: changeOf(draft, recorded),
            ...(start ? { model: modelChoiceOf(model) } : { preview: true }),
          }));
        }}
      >
        {kinds.length > 1 && <KindChoice kinds={kinds} draft={draft} change={change} />}
        <p class="muted">
          At{' '}
          <span class="mono" data-testid="fork-record">
            {at}
          </span>
        </p>
        <ChangeFields draft={draft} change={change} recorded={recorded} />
        <ModelChoiceField value={model} onChange={setModel} />
        <ForkOutcome preview={fork.preview} error={fork.error} busy={fork.busy} />
      </form>
    </Section>
  );
}

/** Sends fork requests: a preview is kept; a started fork's page is opened. */
function useFork(runId: string) {
  const [preview, setPreview] = useState<ForkPreview>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const send = async (start: boolean, request: () => ForkRunRequest) => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await forkRun(runId, request());
      if (start) location.hash = runHref(answer.runId);
      else setPreview(answer);
    } catch (problem) {
      setError((problem as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { preview, setPreview, error, busy, send };
}

/** What runs live (once asked), why a request failed, and the button that asks or starts. */
function ForkOutcome(props: { preview?: ForkPreview; error?: string; busy: boolean }) {
  const { preview, error, busy } = props;
  return (
    <>
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
    </>
  );
}

interface DraftProps {
  draft: Draft;
  change(patch: Partial<Draft>): void;
}

/** Which change, when the node offers more than one. */
function KindChoice({ kinds, draft, change }: DraftProps & { kinds: ChangeKind[] }) {
  return (
    <fieldset>
      <legend>Change</legend>
      {kinds.map((each) => (
        <label key={each}>
          <input
            type="radio"
            name="fork-change"
            checked={draft.kind === each}
            onChange={() => change({ kind: each })}
          />{' '}
          {LABELS[each]}
        </label>
      ))}
    </fieldset>
  );
}

/** The new value: an answer with its reason, a result or a model's text, or a model id. */
function ChangeFields({ draft, change, recorded }: DraftProps & { recorded: unknown }) {
  if (draft.kind === 'answer') return <AnswerFields draft={draft} change={change} />;
  if (draft.kind === 'model') return <ModelFields draft={draft} change={change} />;
  const label =
    draft.kind === 'output'
      ? "The model's answer (text)"
      : typeof recorded === 'string'
        ? 'The result (text)'
        : 'The result (JSON)';
  return (
    <label>
      {label}
      <textarea
        class="wb-input"
        aria-label="New value"
        rows={4}
        value={draft.text}
        onInput={(event) => change({ text: event.currentTarget.value })}
      />
    </label>
  );
}

/** Approve or deny, and why. */
function AnswerFields({ draft, change }: DraftProps) {
  return (
    <fieldset>
      <legend>The answer</legend>
      <label>
        <input
          type="radio"
          name="fork-answer"
          checked={draft.approved}
          onChange={() => change({ approved: true })}
        />{' '}
        approve
      </label>
      <label>
        <input
          type="radio"
          name="fork-answer"
          checked={!draft.approved}
          onChange={() => change({ approved: false })}
        />{' '}
        deny
      </label>
      <input
        class="wb-input"
        aria-label="Reason"
        placeholder="Reason (optional)"
        value={draft.reason}
        onInput={(event) => change({ reason: event.currentTarget.value })}
      />
    </fieldset>
  );
}

/** The model that makes the call instead, for this agent or every agent. */
function ModelFields({ draft, change }: DraftProps) {
  return (
    <>
      <input
        class="wb-input"
        aria-label="Model id"
        placeholder="gpt-5"
        value={draft.modelId}
        onInput={(event) => change({ modelId: event.currentTarget.value })}
      />
      <label>
        <input
          type="checkbox"
          checked={draft.allAgents}
          onChange={(event) => change({ allAgents: event.currentTarget.checked })}
        />{' '}
        every agent, not only this one
      </label>
    </>
  );
}
