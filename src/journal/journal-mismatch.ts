import { WorkflowError } from '../errors/index.js';
import { describePlace, type JournalPlace } from './journal-record.js';
import { firstRequestDifference } from './request-difference.js';

/**
 * The error of a model call that asks something else than the journal recorded at its place
 * and index: `journal-mismatch`, with the first difference of the two requests in its
 * message and both requests as its `comparison` (Studio shows them side by side).
 *
 * @param purpose - `resume` (a run taken up again) or `replay` (a recording answering a new run).
 * @param label - the journal in words (`the journal .june/runs/<runId>/journal.jsonl`).
 * @param index - the call's 0-based index at its place.
 * @example
 * ```ts
 * throw journalMismatch('replay', 'the recording release.jsonl', { step: 'plan' }, 0, recorded.request, request);
 * ```
 */
export function journalMismatch(
  purpose: 'resume' | 'replay',
  label: string,
  place: JournalPlace,
  index: number,
  recorded: unknown,
  current: unknown,
): WorkflowError {
  const difference = firstRequestDifference(recorded, current);
  const call = `model call ${index + 1} of ${describePlace(place)}`;
  const comparison = {
    comparison: { what: call, recorded, current },
    details: { journal: label, call, difference: 'request-changed' as const },
  };
  if (purpose === 'replay') {
    return new WorkflowError(
      'journal-mismatch',
      `june: the workflow no longer matches ${label}: ${call} asks something else than the recorded call; first difference at ${difference}. If the change is intended, record the run again.`,
      comparison,
    );
  }
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches ${label}: ${call} asks something else than when the run was recorded; first difference at ${difference}. Resume the run with the workflow as it was, or start a new run.`,
    comparison,
  );
}

/**
 * The error of a model call a recording does not have (the workflow now makes more calls
 * at that place): `journal-mismatch`.
 *
 * @example
 * ```ts
 * throw journalCallMissing('the recording release.jsonl', { step: 'plan' }, 2);
 * ```
 */
export function journalCallMissing(
  label: string,
  place: JournalPlace,
  index: number,
): WorkflowError {
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches ${label}: it makes model call ${index + 1} of ${describePlace(place)}, which the recording does not have (it has ${index} there). If the change is intended, record the run again.`,
    {
      details: {
        journal: label,
        call: `model call ${index + 1} of ${describePlace(place)}`,
        difference: 'call-missing',
      },
    },
  );
}

/**
 * The error of a tool call whose recorded facts no longer fit it (another tool, another
 * input, or a denied call about to run): `journal-mismatch`, raised before the tool runs.
 *
 * @param why - what differs, in words.
 * @param sides - the call as recorded and as made now (`{ tool, input }`), kept as the error's `comparison`.
 * @example
 * ```ts
 * throw journalCallChanged('the journal .june/runs/r1/journal.jsonl', { step: 'plan' }, { call: 'plan#0.0', tool: 'refund' }, 'its input was {"amount":5} when the run was recorded, now {"amount":9}');
 * ```
 */
export function journalCallChanged(
  label: string,
  place: JournalPlace,
  call: { call: string; tool: string },
  why: string,
  sides?: { recorded: unknown; current: unknown },
): WorkflowError {
  const what = `the tool call ${call.call} of ${describePlace(place)}`;
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches ${label}: the tool call ${call.call} ("${call.tool}") of ${describePlace(place)} does not fit what was recorded: ${why}. Nothing ran; resume the run with the workflow as it was, or start a new run.`,
    {
      ...(sides ? { comparison: { what, ...sides } } : {}),
      details: { journal: label, call: what, difference: 'call-changed' },
    },
  );
}
