import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeJournal, JOURNAL_VERSIONS, journalRecordSchema } from 'june';
import { journalRecordProblem } from '../../src/journal/index.js';

const fixtures = join(import.meta.dirname, '../fixtures/journals');
const stored = JOURNAL_VERSIONS.flatMap((version) =>
  readdirSync(join(fixtures, `v${version}`)).map((file) => join(`v${version}`, file)),
);

describe('the journal record schema: one description of a journal line', () => {
  test('a stored journal of every version June reads has a fixture', () => {
    expect(JOURNAL_VERSIONS).toEqual([1, 2, 3, 4, 5, 6]);
    for (const version of JOURNAL_VERSIONS)
      expect(stored.some((file) => file.startsWith(`v${version}`))).toBe(true);
  });

  test.each(stored)('every record of %s passes it, before and after the upgrade', (file) => {
    const text = readFileSync(join(fixtures, file), 'utf8');
    const records = decodeJournal(text, file);
    expect(records.length).toBeGreaterThan(1);
    for (const record of records)
      expect(journalRecordSchema.safeParse(record).error).toBeUndefined();
  });

  test.each([
    [
      { type: 'launch' },
      'it has the type "launch", not one of journal, model-call, tool-call, approval-request, approval-answer, resume, run-finish',
    ],
    [[1], 'it is not a JSON object'],
    [{ type: 'resume' }, 'its "at" is not an ISO 8601 string'],
    [
      {
        type: 'tool-call',
        step: 's',
        toolCallId: 'c',
        tool: 't',
        input: {},
        at: 'now',
        error: { name: 'E' },
      },
      'its "error.message" is not a string',
    ],
    [
      {
        type: 'model-call',
        step: 's',
        index: 0,
        mode: 'stream',
        requestHash: 'h',
        request: {},
        at: 'now',
      },
      'it has none of "answer", "parts" and "result"',
    ],
    [
      {
        type: 'approval-answer',
        step: 's',
        toolCallId: 'c',
        approved: 'yes',
        automatic: false,
        at: 'now',
      },
      'its "approved" is not true or false',
    ],
    [
      {
        type: 'approval-request',
        step: 's',
        call: 's#0.0',
        toolCallId: 'c',
        tool: 'ask_env',
        question: { prompt: 'Where?', answerSchema: 'enum' },
        at: 'now',
      },
      'its "question.answerSchema" is not an object',
    ],
  ])('a record that does not fit says what is wrong: %j', (value, problem) => {
    expect(journalRecordSchema.safeParse(value).success).toBe(false);
    expect(journalRecordProblem(value)).toBe(problem);
  });

  test('a journal line that does not fit is journal-corrupt, naming the line and the field', () => {
    const header =
      '{"type":"journal","version":2,"runId":"r","startedAt":"2026-01-02T03:04:05.000Z"}';
    let thrown: unknown;
    try {
      decodeJournal(`${header}\n{"type":"tool-call","step":5}\n`, 'j.jsonl');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 'journal-corrupt',
      message:
        'june: j.jsonl is corrupt at line 2: its "step" is not a string. Fix or remove that line, or start a new run.',
    });
  });
});
