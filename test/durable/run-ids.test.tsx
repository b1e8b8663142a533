import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Step, run, fileJournalStore, memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'june-run-ids-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }), 60_000);

const model = () =>
  scriptedModel({ $comment: 'Test fixture: one answer', steps: { hello: [{ text: 'Hi.' }] } });
const Hello = () => (
  <Agent model={model()}>
    <Step id="hello" prompt="Say hi" />
  </Agent>
);

describe('run ids and journal creation', () => {
  it('1,000 journaled runs started at once: 1,000 distinct ids, 1,000 journals, each with one header', async () => {
    const store = fileJournalStore({ dir });
    const handles = Array.from({ length: 1000 }, () => run(<Hello />, { journal: store }));
    const results = await Promise.allSettled(handles.map((handle) => handle.result));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const ids = new Set(handles.map((handle) => handle.runId));
    expect(ids.size).toBe(1000);
    // sortable by start time: the date and second come first
    for (const id of ids) expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{12}$/);
    const folders = readdirSync(dir);
    expect(folders).toHaveLength(1000);
    for (const runId of folders) {
      const lines = readFileSync(join(dir, runId, 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; runId?: string });
      expect(lines.filter((line) => line.type === 'journal')).toEqual([
        expect.objectContaining({ runId }),
      ]);
      expect(lines.map((line) => line.type)).toEqual(['journal', 'model-call', 'run-finish']);
    }
  }, 120_000);

  it.each([
    ['file', () => fileJournalStore({ dir })],
    ['memory', () => memoryJournalStore()],
  ])(
    'two runs given one id at once (%s store): exactly one gets the journal, the other fails with journal-exists',
    async (_name, makeStore) => {
      const store = makeStore();
      const runs = [
        run(<Hello />, { journal: store, runId: 'r-same' }),
        run(<Hello />, { journal: store, runId: 'r-same' }),
      ];
      const results = await Promise.allSettled(runs.map((handle) => handle.result));
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failure = results.find((result) => result.status === 'rejected')!.reason as {
        code: string;
        message: string;
      };
      expect(failure.code).toBe('journal-exists');
      expect(failure.message).toMatch(
        /^june: the journal .* already exists; pass resume: "r-same" to take that run up again/,
      );
      expect((await store.read('r-same')).map((record) => record.type)).toEqual([
        'journal',
        'model-call',
        'run-finish',
      ]);
    },
  );

  it('a store creates a journal once: create of an existing run id rejects and stores nothing', async () => {
    const store = fileJournalStore({ dir });
    const header = {
      type: 'journal' as const,
      version: 2,
      runId: 'r1',
      startedAt: '2026-01-02T03:04:05.000Z',
    };
    await store.create('r1', header);
    await expect(store.create('r1', { ...header, workflow: 'other' })).rejects.toMatchObject({
      code: 'journal-exists',
    });
    expect(await store.read('r1')).toEqual([header]);
  });
});
