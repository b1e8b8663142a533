// Clear errors for journals that are not what they should be: a journal.jsonl that is a
// directory, and a model call recorded twice (resuming with --script).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileJournalStore, loadJournal, type JournalRecord } from 'june';
import { describe, expect, test } from 'vitest';
import { scriptAfterJournal } from '../../src/testing/script-after-journal.js';
import { scriptedModel } from '../../src/testing/scripted-model.js';

describe('a journal.jsonl that is a directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'june-journal-dir-'));
  mkdirSync(join(dir, 'broken', 'journal.jsonl'), { recursive: true });
  const shown = relative(process.cwd(), join(dir, 'broken', 'journal.jsonl'));

  test('reading it from the store says so (no raw EISDIR)', async () => {
    await expect(fileJournalStore({ dir }).read('broken')).rejects.toMatchObject({
      code: 'journal-unreadable',
      message: `june: cannot read the journal ${shown}: it is a directory, not a file. Move it away (or fix its permissions), or start a new run.`,
    });
  });

  test('loading it as a recording says so too', async () => {
    await expect(loadJournal(join(dir, 'broken', 'journal.jsonl'))).rejects.toMatchObject({
      code: 'journal-unreadable',
      message: expect.stringContaining(
        `cannot read the journal ${shown}: it is a directory, not a file.`,
      ),
    });
    await expect(loadJournal(join(dir, 'none.jsonl'))).rejects.toMatchObject({
      message: expect.stringContaining(': there is no such file.'),
    });
  });
});

describe('a model call recorded twice', () => {
  const call = (index: number): JournalRecord =>
    ({
      type: 'model-call',
      step: 'greet',
      index,
      mode: 'stream',
      requestHash: 'h',
      request: {},
      parts: [],
      at: '2026-11-30T00:00:00.000Z',
    }) as unknown as JournalRecord; // a version 2 record (the header's)
  const header = {
    type: 'journal',
    version: 2,
    runId: 'r',
    workflow: 'w',
    startedAt: '2026-11-30T00:00:00.000Z',
  } as unknown as JournalRecord;

  test('counts once when a resumed run drops the answered turns from its script', () => {
    const script = {
      $comment: 'Test fixture',
      steps: { greet: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] },
    };
    expect(scriptAfterJournal(script, [header, call(0), call(0)]).steps).toEqual({
      greet: [{ text: 'two' }, { text: 'three' }],
    });
  });

  test('a script left with no turns says so, not "it has turns for ."', async () => {
    const model = scriptedModel({ $comment: 'Test fixture', steps: {} });
    const error = await model
      .doStream({ prompt: [], providerOptions: { june: { step: 'greet' } } })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toBe(
      'june: the model script has no turns for step "greet"; it has no turns left for any step. Add "greet" under "steps" in the script, or check the step\'s id.',
    );
  });
});
