import { retriedFailuresDropped } from '../journal/journal-index.js';
import type { JournalRecord } from '../journal/journal-record.js';
import type { ModelScript } from './script-format.js';

/**
 * A model script without the turns a journal already answered: for each step path, as many
 * turns as the journal has finished model calls there are dropped from the front (a step
 * left with none is dropped). A call recorded twice (same place, same index) counts once, as
 * the journal's index reads it, and a failed call that a resume makes again (one that ended
 * its part of the run) counts for none: the call made again takes its turn. Resuming a run with `--script` uses it, so the first model call
 * the resumed run makes gets the turn the stopped process would have used next.
 *
 * @example
 * ```ts
 * const rest = scriptAfterJournal(loadScript('release.script.json'), await store.read(runId));
 * run(<Release />, { model: scriptedModel(rest), journal: store, resume: runId });
 * ```
 */
export function scriptAfterJournal(
  script: ModelScript,
  records: readonly JournalRecord[],
): ModelScript {
  const answered = new Map<string, number>();
  const seen = new Set<string>();
  for (const record of retriedFailuresDropped(records)) {
    if (record.type !== 'model-call') continue;
    const call = JSON.stringify([record.step, record.calls ?? [], record.index]);
    if (seen.has(call)) continue;
    seen.add(call);
    answered.set(record.step, (answered.get(record.step) ?? 0) + 1);
  }
  const steps: ModelScript['steps'] = {};
  for (const [step, turns] of Object.entries(script.steps)) {
    const rest = turns.slice(answered.get(step) ?? 0);
    if (rest.length > 0) steps[step] = rest;
  }
  return { ...script, steps };
}
