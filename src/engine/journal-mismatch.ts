import { WorkflowError } from '../errors/index.js';
import type { DurablePlace } from './durable-engine.js';
import { describePlace } from './durable-place.js';
import { firstRequestDifference } from './request-difference.js';

/**
 * The error of a model call that asks something else than the journal recorded at its place
 * and index: `journal-mismatch`, with the first difference of the two requests in its
 * message and both requests as its `comparison` (Studio shows them side by side).
 *
 * @param purpose - `resume` (a run taken up again) or `replay` (a recording answering a new run).
 * @param label - the journal in words (`the journal .june/runs/<runId>/journal.jsonl`).
 * @param index - the call's 0-based index at its place.
 * @param replay - for a replay: whether its tool calls were answered from the recording or
 *   ran ({@link ReplayOf}); the message and the details say so.
 * @example
 * ```ts
 * throw journalMismatch('replay', 'the recording release.jsonl', { step: 'plan' }, 0, recorded.request, request);
 * ```
 */
export function journalMismatch(
  purpose: 'resume' | 'replay',
  label: string,
  place: DurablePlace,
  index: number,
  recorded: unknown,
  current: unknown,
  replay: ReplayOf = {},
): WorkflowError {
  const difference = firstRequestDifference(recorded, current);
  const call = `model call ${index + 1} of ${describePlace(place)}`;
  const comparison = {
    comparison: { what: call, recorded, current },
    details: {
      journal: label,
      call,
      difference: 'request-changed' as const,
      ...(replay.tools !== undefined ? { tools: replay.tools } : {}),
    },
  };
  if (purpose === 'replay') {
    return new WorkflowError(
      'journal-mismatch',
      `june: the workflow no longer matches ${label}: ${call} asks something else than the recorded call; first difference at ${difference}.${replayedToolsText(replay.tools, difference)} If the change is intended, record the run again.`,
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
  place: DurablePlace,
  index: number,
  replay: ReplayOf = {},
): WorkflowError {
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches ${label}: it makes model call ${index + 1} of ${describePlace(place)}, which the recording does not have (it has ${index} there).${replayedToolsText(replay.tools)} If the change is intended, record the run again.`,
    {
      details: {
        journal: label,
        call: `model call ${index + 1} of ${describePlace(place)}`,
        difference: 'call-missing',
        ...(replay.tools !== undefined ? { tools: replay.tools } : {}),
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
  place: DurablePlace,
  call: { call: string; tool: string },
  why: string,
  sides?: { recorded: unknown; current: unknown },
  replay?: ReplayOf,
): WorkflowError {
  const what = `the tool call ${call.call} of ${describePlace(place)}`;
  const next =
    replay === undefined
      ? 'Nothing ran; resume the run with the workflow as it was, or start a new run.'
      : `Nothing ran.${replayedToolsText(replay.tools)} If the change is intended, record the run again.`;
  return new WorkflowError(
    'journal-mismatch',
    `june: the workflow no longer matches ${label}: the tool call ${call.call} ("${call.tool}") of ${describePlace(place)} does not fit what was recorded: ${why}. ${next}`,
    {
      ...(sides ? { comparison: { what, ...sides } } : {}),
      details: {
        journal: label,
        call: what,
        difference: 'call-changed',
        ...(replay?.tools !== undefined ? { tools: replay.tools } : {}),
      },
    },
  );
}

/**
 * What a replay did with its tool calls, for its mismatch errors: `replayed` (answered from
 * the recording, `replayTools`, `june run --replay-tools`) or `run` (executed for real, the
 * default). Empty for a resume.
 */
export interface ReplayOf {
  tools?: 'replayed' | 'run';
}

/**
 * The sentence a replay's mismatch adds about its tools: always when they were answered from
 * the recording (no tool result can explain the difference); when they ran, only when the
 * first difference is a tool's result (a value that changes from run to run, or a tool that
 * now gives something else), with what to do about it.
 */
function replayedToolsText(tools: ReplayOf['tools'], difference?: string): string {
  if (tools === 'replayed')
    return ' Tool calls were answered from the recording (replayTools, june run --replay-tools), not run: no tool result explains the difference, the workflow itself asks something else.';
  if (tools === 'run' && (difference === undefined || /^message \d+ \(tool\)/.test(difference)))
    return " Tool calls ran for real in this replay (not answered from the recording), so a tool's result can differ from the recorded one: keep values that change from run to run (times, paths, ids) from the model with the tool's toModelOutput (omitFromModel in june/tools), or answer tools from the recording with replayTools: true (june run --replay-tools).";
  return '';
}
