import { useEffect, useState } from 'preact/hooks';
import type { RunApprovals, WaitingApproval } from '../../src/host/waiting-approvals.js';
import { fetchApprovals, sendAnswer } from './approvals-api.js';
import { EditAnswer } from './edit-answer.js';
import { JsonView } from './json-view.js';
import { QuestionForm } from './question-form.js';
import './approvals-panel.css';

/**
 * The calls a run waits on for a person's approval, each with its input, step path and
 * provenance, and Approve / Deny (with a reason for the model), Edit input (JSON, with a diff
 * against the model's input) and Answer instead of the tool. Reloads when `version`
 * changes (the run's trace as last loaded). A card answered here stays, showing what became
 * of the answer (`data-answered`), while the run's page is open; one answered elsewhere or
 * withdrawn goes. Shows nothing when there is no card.
 */
export function ApprovalsPanel({ runId, version }: { runId: string; version?: unknown }) {
  const [approvals, setApprovals] = useState<RunApprovals | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [reload, setReload] = useState(0);
  const shown = useShownCards(runId, approvals);
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
  if (!approvals || shown.cards.length === 0) return null;
  return (
    <section class="approvals" data-testid="approvals" aria-label="Waiting for approval">
      <h2>
        Waiting for approval <span class="muted">({approvals.waiting.length})</span>
      </h2>
      {approvals.waiting.length > 0 && (
        <p class="muted small" data-testid="approvals-state">
          {stateText(approvals)}
        </p>
      )}
      {shown.cards.map((approval) => (
        <ApprovalCard
          key={approval.key}
          runId={runId}
          approval={approval}
          answered={shown.answered.has(approval.key)}
          onAnswered={() => {
            shown.answer(approval.key);
            setReload((n) => n + 1);
          }}
        />
      ))}
    </section>
  );
}

/**
 * The cards of the run's page, in the order they first came: each call the run waits for
 * now, and each answered on this page (kept to show its outcome); `answer(key)` marks one
 * answered here. Starts again for another run.
 */
function useShownCards(runId: string, approvals: RunApprovals | undefined) {
  const [seen, setSeen] = useState<{
    runId: string;
    cards: WaitingApproval[];
    answered: Set<string>;
  }>({ runId, cards: [], answered: new Set() });
  const current = seen.runId === runId ? seen : { runId, cards: [], answered: new Set<string>() };
  const waiting = approvals?.runId === runId ? approvals.waiting : [];
  const known = new Set(current.cards.map((card) => card.key));
  const cards = [
    ...current.cards.map((card) => waiting.find((now) => now.key === card.key) ?? card),
    ...waiting.filter((now) => !known.has(now.key)),
  ].filter((card) => current.answered.has(card.key) || waiting.some((now) => now.key === card.key));
  if (
    current !== seen ||
    cards.length !== current.cards.length ||
    cards.some((card, i) => card !== current.cards[i])
  )
    setSeen({ ...current, cards });
  return {
    cards,
    answered: current.answered,
    answer: (key: string) =>
      setSeen((before) => ({ ...before, answered: new Set([...before.answered, key]) })),
  };
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
function ApprovalCard(props: {
  runId: string;
  approval: WaitingApproval;
  answered: boolean;
  onAnswered: () => void;
}) {
  const { approval } = props;
  const source = approval.provenance;
  return (
    <article
      class="approval-card"
      data-testid="approval-card"
      data-key={approval.key}
      {...(props.answered ? { 'data-answered': 'true' } : {})}
    >
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
      {approval.guard && (
        <p class="small approval-guard" data-testid="approval-guard">
          <span class="muted">escalated by </span>
          <span class="mono" title={approval.guard.declaration}>
            {approval.guard.name}
          </span>
          <span>: {approval.guard.reason ?? 'no reason given'}</span>
        </p>
      )}
      {approval.budget && <BudgetLine budget={approval.budget} />}
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

/** An answer as the card sends it: the decision, and a reason, an edited input or an answer instead of the tool. */
type CardAnswer = { approved: boolean; reason?: string; input?: unknown; output?: unknown };

/**
 * Sends one call's answer once: `sending` while it goes, `error` with the server's `june:`
 * message when it is refused (the call still waits, and may be answered again), `outcome`
 * (the words `describe` gives for what became of it) once it was taken.
 */
function useSendAnswer(
  runId: string,
  key: string,
  onAnswered: () => void,
  describe: (answer: CardAnswer, delivered: string) => string,
) {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const send = async (answer: CardAnswer) => {
    setSending(true);
    setError(undefined);
    await sendAnswer(runId, { key, ...answer }).then(
      (sent) => (setOutcome(describe(answer, sent.delivered)), onAnswered()),
      (failed: Error) => setError(failed.message),
    );
    setSending(false);
  };
  return { sending, outcome, error, send };
}

/** What became of an answer, once sent: the card's last line. */
function Outcome({ text }: { text: string }) {
  return (
    <p class="approval-outcome" data-testid="approval-outcome">
      {text}
    </p>
  );
}

/** Why the server refused an answer (its `june:` message), under the card's controls. */
function AnswerError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="notice notice-error" data-testid="approval-error">
      {error}
    </p>
  );
}

/** Deny (or decline a question) with an optional reason the model reads. */
function DenyWithReason(props: {
  label: 'Deny' | 'Decline';
  sending: boolean;
  send: (answer: CardAnswer) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const deny = () =>
    void props.send({ approved: false, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  return (
    <>
      <input
        class="approval-reason"
        aria-label="Reason for the model"
        placeholder="Reason for the model (optional)"
        value={reason}
        onInput={(event) => setReason((event.target as HTMLInputElement).value)}
      />
      <button class="deny" disabled={props.sending} onClick={deny}>
        {props.label}
      </button>
    </>
  );
}

/** Approve, or Deny with an optional reason for the model; then what became of the answer. */
function AnswerButtons(props: {
  runId: string;
  approval: WaitingApproval;
  onAnswered: () => void;
}) {
  const { runId, approval, onAnswered } = props;
  const { sending, outcome, error, send } = useSendAnswer(
    runId,
    approval.key,
    onAnswered,
    outcomeText,
  );
  if (outcome) return <Outcome text={outcome} />;
  return (
    <>
      <div class="approval-actions">
        <button class="approve" disabled={sending} onClick={() => void send({ approved: true })}>
          Approve
        </button>
        <DenyWithReason label="Deny" sending={sending} send={send} />
      </div>
      <EditAnswer input={approval.input} sending={sending} send={(edit) => void send(edit)} />
      <AnswerError error={error} />
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
  const { sending, outcome, error, send } = useSendAnswer(
    runId,
    approval.key,
    onAnswered,
    (answer, delivered) =>
      `${answer.output !== undefined ? 'Answered' : 'Declined'}${resumedText(delivered)}.`,
  );
  if (outcome) return <Outcome text={outcome} />;
  return (
    <>
      <QuestionForm
        answerSchema={approval.question!.answerSchema}
        sending={sending}
        send={(output) => void send({ approved: false, output })}
      />
      <div class="approval-actions">
        <DenyWithReason label="Decline" sending={sending} send={send} />
      </div>
      <AnswerError error={error} />
    </>
  );
}

/** `: resuming the run` when the answer resumed a stopped run. */
function resumedText(delivered: string): string {
  return delivered === 'resumed' ? ': resuming the run' : '';
}

/** What became of a call's answer, as the card says it once sent. */
function outcomeText(answer: CardAnswer, delivered: string): string {
  const what =
    answer.input !== undefined
      ? 'Approved with the edited input'
      : answer.output !== undefined
        ? 'Answered instead of the tool'
        : answer.approved
          ? 'Approved'
          : 'Denied';
  return `${what}${resumedText(delivered)}.`;
}

/** A budget's request: which budget, what its calls spent, its cap, and what approving allows. */
function BudgetLine({ budget }: { budget: NonNullable<WaitingApproval['budget']> }) {
  return (
    <p class="small approval-guard" data-testid="approval-budget">
      <span class="muted">the budget </span>
      <span class="mono" title={budget.declaration}>
        {budget.name}
      </span>
      <span>
        {' '}
        spent {amounts(budget.spent)} of {amounts(budget.cap)}; approving allows{' '}
        {amounts(budget.more)} more
      </span>
    </p>
  );
}

/** `1,550 tokens and $0.12`: a budget's counters as the card shows them. */
function amounts(counters: { tokens?: number; usd?: number }): string {
  const parts: string[] = [];
  if (counters.tokens !== undefined)
    parts.push(`${counters.tokens.toLocaleString('en-US')} tokens`);
  if (counters.usd !== undefined) parts.push(`$${counters.usd}`);
  return parts.join(' and ');
}
