// A fork of a run over the database made from its place table's rows (src/run/fork-rows.ts):
// the records are named as a journal's, and each change gives the rows a worker answers from.
import { describe, expect, it } from 'vitest';
import { textAnswer } from '../../src/models/answer-forms.js';
import { forkRows, rowForkPoints, type PlacedRow } from '../../src/run/fork-rows.js';

const at = (second: number) => `2026-12-07T12:00:${String(second).padStart(2, '0')}.000000Z`;
const answer = textAnswer('ok');
/** A run stopped while `deploy` waits for approval, after a composite call's tool. */
const rows: PlacedRow[] = [
  { place: 'model |plan#0', record: { requestHash: 'h0', request: {}, answer }, storedAt: at(1) },
  {
    place: 'tool plan#0.0|research:look|look#0.0',
    record: { tool: 'look', input: { q: 'x' }, output: 'found' },
    storedAt: at(2),
  },
  { place: 'model |plan#1', record: { requestHash: 'h1', request: {}, answer }, storedAt: at(3) },
  {
    place: 'approval plan#1.0',
    record: { id: 'plan#1.0', tool: 'deploy', input: {}, step: 'plan', askedAt: at(4) },
    storedAt: at(4),
  },
];

describe('forks from the rows of a run over the database', () => {
  it('names the records as a journal names them', () => {
    expect(rowForkPoints(rows).map((point) => `${point.n}. ${point.name}  ${point.what}`)).toEqual([
      '1. model plan #0  answered (generate)',
      '2. tool look plan#0.0/look#0.0  look {"q":"x"} → "found"',
      '3. model plan #1  answered (generate)',
      '4. approval deploy plan#1.0  deploy {}: waiting for an answer',
    ]);
  });

  it('answers a waiting request: its row, then an answer row stored after it', () => {
    const fork = forkRows('r1', rows, undefined, {
      runId: 'r2',
      at: 4,
      change: { kind: 'answer', approved: false, reason: 'not today' },
    });
    expect(fork.rows.map((row) => row.place)).toEqual([
      'model |plan#0',
      'tool plan#0.0|research:look|look#0.0',
      'model |plan#1',
      'approval plan#1.0',
      'answer plan#1.0',
    ]);
    expect(fork.rows[4]).toMatchObject({
      record: { id: 'plan#1.0', approved: false, reason: 'not today', source: 'fork' },
      storedAt: at(4),
      after: 1,
    });
    expect(fork.replayed).toBe(3);
    expect(fork.forkedFrom).toMatchObject({ runId: 'r1', record: 'approval deploy plan#1.0' });
  });

  it("gives a model call another answer, or leaves it to another model, keeping a fork's lineage", () => {
    const lineage = {
      runId: 'r0',
      record: 'model plan #0',
      change: { kind: 'output' as const, output: 'x' },
    };
    const output = forkRows('r1', rows, lineage, {
      runId: 'r2',
      at: 'model plan #1',
      change: { kind: 'output', output: 'ship it' },
    });
    expect(output.rows.map((row) => row.place)).toEqual([
      'model |plan#0',
      'tool plan#0.0|research:look|look#0.0',
      'model |plan#1',
    ]);
    expect(JSON.stringify(output.rows[2]!.record)).toContain('ship it');
    expect(output.forkedFrom.forkedFrom).toEqual(lineage);
    const model = forkRows('r1', rows, undefined, {
      runId: 'r2',
      at: 'model plan #1',
      change: { kind: 'model', model: 'gpt-5' },
    });
    expect(model.rows.map((row) => row.place)).toEqual([
      'model |plan#0',
      'tool plan#0.0|research:look|look#0.0',
    ]);
  });

  it('refuses a change that does not fit the record', () => {
    expect(() =>
      forkRows('r1', rows, undefined, {
        runId: 'r2',
        at: 2,
        change: { kind: 'output', output: 1 },
      }),
    ).toThrow(expect.objectContaining({ code: 'fork-change-invalid' }));
    expect(() =>
      forkRows('r1', rows, undefined, {
        runId: 'r2',
        at: 9,
        change: { kind: 'result', result: 1 },
      }),
    ).toThrow(expect.objectContaining({ code: 'fork-record-unknown' }));
  });
});
