import { useEffect, useState } from 'preact/hooks';
import type { RunApprovals, WaitingApproval } from '../../src/host/waiting-approvals.js';
import { fetchApprovals, sendAnswer } from './approvals-api.js';
import { EditAnswer, type EditedAnswer } from './edit-answer.js';
import { JsonView } from './json-view.js';
import { QuestionForm } from './question-form.js';
import './approvals-panel.css';

/**
 * The calls a run waits on for a person's approval, each with its input, step path and
 * provenance, and Approve / Deny (with a reason for the model), Edit input (JSON, with a diff
 * against the model's input) and Answer instead of the tool. Reloads when `version`
 * changes (the run's trace as last loaded); shows nothing when the run waits for nothing.
 */
export function ApprovalsPanel({ runId, version }: { runId: string; version?: unknown }) {
  const [approvals, setApprovals] = useState<RunApprovals | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [reload, setReload] = useState(0);
  useEffect(() => {
    let stopped = false;
    fetchApprovals(runId).then(
      (found) => !stopped && (setApprovals(found), setError(undefined)),
      (failed: Error) => !stopped && setError(failed.message),
    );
    return () => {
      stopped = true;
    };
  }, [runId, version, reload]);
  if (error) return <p class="notice notice-error approvals-error">{error}</p>;
  if (!approvals || approvals.waiting.length === 0) return null;
  return (
    <section class="approvals" data-testid="approvals" aria-label="Waiting for approval">
      <h2>
        Waiting for approval <span class="muted">({approvals.waiting.length})</span>
      </h2>
      <p class="muted small" data-testid="approvals-state">
        {stateText(approvals)}
      </p>
      {approvals.waiting.map((approval) => (
        <ApprovalCard
          key={approval.key}
          runId={runId}
          approval={approval}
          onAnswered={() => setReload((n) => n + 1)}
        />
      ))}
    </section>
  );
}

function stateText(approvals: RunApprovals): string {
  if (approvals.state === 'live') return 'The run is waiting for your answer.';
  if (approvals.resumable)
    return "The run's process stopped: Studio records your answer and resumes the run.";
  const why = approvals.notResumable
    ? ` Studio will not resume it itself: ${approvals.notResumable}.`
    : '';
  return `The run's process stopped: Studio records your answer; resume the run with june run <file> --resume ${approvals.runId} --approve studio.${why}`;
}

/**
 * One waiting call: what it would do, where it comes from, and the answer buttons; for a
 * question, its prompt and a form for the answer.
 */
function ApprovalCard(props: { runId: string; approval: WaitingApproval; onAnswered: () => void }) {
  const { approval } = props;
  const source = approval.provenance;
  return (
    <article class="approval-card" data-testid="approval-card" data-key={approval.key}>
      <header>
        <span class="approval-tool mono">{approval.tool}</span>
        <span class="muted">in step</span>
        <span class="mono" data-testid="approval-step">
          {approval.step}
        </span>
      </header>
      {source && (
        <p class="small" data-testid="approval-provenance">
          <span class="muted">from </span>
          <span class="mono">{source.granted ?? source.source}</span>
          {source.granted && <span class="muted"> through {source.source}</span>}
        </p>
      )}
      {approval.kind === 'question' && approval.question ? (
        <>
          <p class="question-prompt" data-testid="question-prompt">
            {approval.question.prompt}
          </p>
          <QuestionAnswer {...props} />
        </>
      ) : (
        <>
          <JsonView value={approval.input} testId="approval-input" />
          <AnswerButtons {...props} />
        </>
      )}
    </article>
  );
}

/** Approve, or Deny with an optional reason for the model; then what became of the answer. */
function AnswerButtons(props: {
  runId: string;
  approval: WaitingApproval;
  onAnswered: () => void;
}) {
  const { runId, approval, onAnswered } = props;
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const answer = async (approved: boolean, edit?: EditedAnswer) => {
    setSending(true);
    setError(undefined);
    const given = !approved && !edit && reason.trim() ? { reason: reason.trim() } : {};
    await sendAnswer(runId, { key: approval.key, approved, ...given, ...edit }).then(
      (sent) => (setOutcome(outcomeText(approved, edit, sent.delivered)), onAnswered()),
      (failed: Error) => setError(failed.message),
    );
    setSending(false);
  };
  if (outcome)
    return (
      <p class="approval-outcome" data-testid="approval-outcome">
        {outcome}
      </p>
    );
  return (
    <>
      <div class="approval-actions">
        <button class="approve" disabled={sending} onClick={() => void answer(true)}>
          Approve
        </button>
        <input
          class="approval-reason"
          aria-label="Reason for the model"
          placeholder="Reason for the model (optional)"
          value={reason}
          onInput={(event) => setReason((event.target as HTMLInputElement).value)}
        />
        <button class="deny" disabled={sending} onClick={() => void answer(false)}>
          Deny
        </button>
      </div>
      <EditAnswer
        input={approval.input}
        sending={sending}
        send={(edit) => void answer(edit.approved, edit)}
      />
      {error && (
        <p class="notice notice-error" data-testid="approval-error">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * A question's answer: the form built from its answer schema, sent as `{ approved: false,
 * output }`, or Decline with an optional reason for the model. A value the schema refuses
 * shows the server's `june:` message, and the question stays to be answered again.
 */
function QuestionAnswer(props: {
  runId: string;
  approval: WaitingApproval;
  onAnswered: () => void;
}) {
  const { runId, approval, onAnswered } = props;
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const answer = async (given: { output: unknown } | { reason?: string }) => {
    setSending(true);
    setError(undefined);
    await sendAnswer(runId, { key: approval.key, approved: false, ...given }).then(
      (sent) => {
        const resumed = sent.delivered === 'resumed' ? ': resuming the run' : '';
        setOutcome(`${'output' in given ? 'Answered' : 'Declined'}${resumed}.`);
        onAnswered();
      },
      (failed: Error) => setError(failed.message),
    );
    setSending(false);
  };
  if (outcome)
    return (
      <p class="approval-outcome" data-testid="approval-outcome">
        {outcome}
      </p>
    );
  return (
    <>
      <QuestionForm
        answerSchema={approval.question!.answerSchema}
        sending={sending}
        send={(output) => void answer({ output })}
      />
      <div class="approval-actions">
        <input
          class="approval-reason"
          aria-label="Reason for the model"
          placeholder="Reason for the model (optional)"
          value={reason}
          onInput={(event) => setReason((event.target as HTMLInputElement).value)}
        />
        <button
          class="deny"
          disabled={sending}
          onClick={() => void answer(reason.trim() ? { reason: reason.trim() } : {})}
        >
          Decline
        </button>
      </div>
      {error && (
        <p class="notice notice-error" data-testid="approval-error">
          {error}
        </p>
      )}
    </>
  );
}

/** What became of an answer, as the card says it once sent. */
function outcomeText(approved: boolean, edit: EditedAnswer | undefined, delivered: string): string {
  const resumed = delivered === 'resumed' ? ': resuming the run' : '';
  const what = edit
    ? edit.approved
      ? 'Approved with the edited input'
      : 'Answered instead of the tool'
    : approved
      ? 'Approved'
      : 'Denied';
  return `${what}${resumed}.`;
}
