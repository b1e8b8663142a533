import { useEffect, useState } from 'preact/hooks';
import type { ForkPreview, ForkRunRequest } from '../../src/workflows/workbench-api.js';
import type { TraceNode } from '../../src/trace/trace-node.js';
import { ModelChoiceField, modelChoiceOf, type ModelChoiceDraft } from './model-choice-field.js';
import { SchemaValue } from './schema-value.js';
import { Section } from './section.js';
import { runHref } from './use-hash-route.js';
import { forkRun } from './workbench-client.js';

/** What the fork changes, as the form holds it. */
type ChangeKind = 'result' | 'answer' | 'output' | 'model';

/** True for a `<Question>`'s node: its answer is the person's, fit to its answer schema. */
function isQuestion(node: TraceNode): boolean {
  return node.kind === 'tool' && node.approval?.kind === 'question';
}

/**
 * The changes a node offers: a tool's result and its approval's answer, a question's answer
 * (or a denial), a model call's answer or model.
 */
function changesOf(node: TraceNode): ChangeKind[] {
  if (node.kind === 'model') return ['output', 'model'];
  const kinds: ChangeKind[] = [];
  const answered = node.approval !== undefined && node.approval.status !== 'pending';
  if (answered && isQuestion(node)) kinds.push('output');
  if (answered) kinds.push('answer');
  if (!isQuestion(node) && node.output !== undefined && node.status === 'succeeded')
    kinds.push('result');
  return kinds;
}

function labelOf(kind: ChangeKind, node: TraceNode): string {
  if (kind === 'output' && isQuestion(node)) return 'another answer to the question';
  return {
    result: 'another result',
    answer: 'another answer to the approval',
    output: 'another answer of the model',
    model: 'another model or settings from here',
  }[kind];
}

/** The text a recorded value starts the form with: a text as it is, anything else as JSON. */
function startingText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The form's values. */
interface Draft {
  kind: ChangeKind;
  /** A new result or model answer, as typed. */
  text: string;
  /** A new result or question answer, as the form built from its schema holds it. */
  value: unknown;
  approved: boolean;
  reason: string;
  modelId: string;
  /** Other call settings from the fork point on, as typed (empty: unchanged). */
  temperature: string;
  maxOutputTokens: string;
  allAgents: boolean;
}

/** Another model and/or other call settings, as the request takes them. */
function modelChange(draft: Draft): ForkRunRequest['change'] {
  const settings = {
    ...(draft.temperature.trim() !== '' ? { temperature: Number(draft.temperature) } : {}),
    ...(draft.maxOutputTokens.trim() !== ''
      ? { maxOutputTokens: Number(draft.maxOutputTokens) }
      : {}),
  };
  const model = draft.modelId.trim();
  return {
    ...(model !== '' ? { model } : {}),
    ...(Object.keys(settings).length ? { settings } : {}),
    ...(draft.allAgents ? { allAgents: true } : {}),
  };
}

/** The change as the request takes it. @throws {Error} for a result that is not JSON */
function changeOf(
  draft: Draft,
  recorded: unknown,
  schema: Record<string, unknown> | undefined,
): ForkRunRequest['change'] {
  const { kind, text, approved, reason } = draft;
  if (kind === 'answer')
    return { answer: approved ? 'approve' : 'deny', ...(reason ? { reason } : {}) };
  if (kind === 'model') return modelChange(draft);
  // a value from its schema's form stands as the form holds it
  if (schema) return kind === 'result' ? { result: draft.value } : { output: draft.value };
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
export function ForkPanel({
  runId,
  node,
  modelChoice,
}: {
  runId: string;
  node: TraceNode;
  /** Whether the fork may say how its live part's models answer (`june dev`: a script or the provider). */
  modelChoice: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (!node.record || changesOf(node).length === 0 || node.status === 'running') return null;
  if (open)
    return <ForkForm runId={runId} node={node} record={node.record} modelChoice={modelChoice} />;
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

function ForkForm(props: { runId: string; node: TraceNode; record: string; modelChoice: boolean }) {
  const { runId, node, record, modelChoice } = props;
  const kinds = changesOf(node);
  const recorded = (isQuestion(node) ? node.approval?.output : node.output) as unknown;
  const schemas = useValueSchemas(runId, node, record, recorded);
  const [draft, setDraft] = useState<Draft>(() => startingDraft(node, kinds[0]!, recorded));
  const [model, setModel] = useState<ModelChoiceDraft>({ kind: 'script', path: '', runId: '' });
  const fork = useFork(runId);
  // an approval's and a question's answers are the approval's record
  const atApproval = draft.kind === 'answer' || (draft.kind === 'output' && node.kind === 'tool');
  const at = atApproval ? record.replace(/^tool /, 'approval ') : record;
  const schema =
    draft.kind === 'result' || draft.kind === 'output' ? schemas[draft.kind] : undefined;
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
            change: changeOf(draft, recorded, schema),
            ...(start ? (modelChoice ? { model: modelChoiceOf(model) } : {}) : { preview: true }),
          }));
        }}
      >
        {kinds.length > 1 && <KindChoice kinds={kinds} node={node} draft={draft} change={change} />}
        <p class="muted">
          At{' '}
          <span class="mono" data-testid="fork-record">
            {at}
          </span>
        </p>
        <ChangeFields draft={draft} change={change} recorded={recorded} schema={schema} />
        <ForkModels modelChoice={modelChoice} model={model} setModel={setModel} />
        <ForkOutcome preview={fork.preview} error={fork.error} busy={fork.busy} />
      </form>
    </Section>
  );
}

/**
 * The schemas of the values the node's fork may change: a question's answer schema (its
 * trace carries it), a tool's output schema (the server finds it in the workflow's map and
 * says it with a preview of the recorded result).
 */
function useValueSchemas(
  runId: string,
  node: TraceNode,
  record: string,
  recorded: unknown,
): Partial<Record<'result' | 'output', Record<string, unknown>>> {
  const [result, setResult] = useState<Record<string, unknown>>();
  const offersResult = changesOf(node).includes('result');
  useEffect(() => {
    if (!offersResult) return;
    let live = true;
    void forkRun(runId, { at: record, change: { result: recorded }, preview: true })
      .then((answer) => live && setResult(answer.schema))
      .catch(() => {}); // no schema: the value is edited as text or JSON
    return () => {
      live = false;
    };
  }, [runId, record]);
  const question = isQuestion(node) ? node.approval?.question?.answerSchema : undefined;
  return { ...(result ? { result } : {}), ...(question ? { output: question } : {}) };
}

/** How the live part's models answer: the workbench's choice, or as the recorded run's did. */
function ForkModels(props: {
  modelChoice: boolean;
  model: ModelChoiceDraft;
  setModel(model: ModelChoiceDraft): void;
}) {
  if (props.modelChoice)
    return <ModelChoiceField value={props.model} onChange={props.setModel} noReplay />;
  return (
    <p class="muted" data-testid="fork-models">
      The fork&apos;s models answer as the recorded run&apos;s did: its script, or the
      workflow&apos;s models.
    </p>
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
function KindChoice({
  kinds,
  node,
  draft,
  change,
}: DraftProps & { kinds: ChangeKind[]; node: TraceNode }) {
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
          {labelOf(each, node)}
        </label>
      ))}
    </fieldset>
  );
}

/** The form's first values: the recorded value, and the other answer to an approval. */
function startingDraft(node: TraceNode, kind: ChangeKind, recorded: unknown): Draft {
  return {
    kind,
    text: node.kind === 'tool' ? startingText(recorded) : '',
    value: recorded,
    approved: node.approval?.status !== 'approved',
    reason: '',
    modelId: '',
    temperature: '',
    maxOutputTokens: '',
    allAgents: false,
  };
}

/**
 * The new value: an answer with its reason, a value in the form its schema makes, a result
 * or a model's text, or a model id.
 */
function ChangeFields(
  props: DraftProps & { recorded: unknown; schema: Record<string, unknown> | undefined },
) {
  const { draft, change, recorded, schema } = props;
  if (schema)
    return (
      <SchemaValue schema={schema} value={draft.value} onChange={(value) => change({ value })} />
    );
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

/**
 * The model that makes the call instead and/or its other call settings (from this call on:
 * the calls before keep their recorded requests), for this agent or every agent.
 */
function ModelFields({ draft, change }: DraftProps) {
  return (
    <>
      <input
        class="wb-input"
        aria-label="Model id"
        placeholder="gpt-5 (empty: the same model)"
        value={draft.modelId}
        onInput={(event) => change({ modelId: event.currentTarget.value })}
      />
      <input
        class="wb-input"
        aria-label="Temperature"
        type="number"
        step="any"
        placeholder="Temperature (empty: unchanged)"
        value={draft.temperature}
        onInput={(event) => change({ temperature: event.currentTarget.value })}
      />
      <input
        class="wb-input"
        aria-label="Max output tokens"
        type="number"
        step="1"
        placeholder="Max output tokens (empty: unchanged)"
        value={draft.maxOutputTokens}
        onInput={(event) => change({ maxOutputTokens: event.currentTarget.value })}
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
