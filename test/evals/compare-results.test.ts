// Two eval runs compared case by case: what went down, what went up, what came and went.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compareEvalResults,
  formatEvalComparison,
  readEvalResults,
  type EvalResults,
} from 'june/evals';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Case = { id: string; status?: string; scores: Record<string, number | null> };

/** Results as `evalite run --outputPath` writes them, for one eval of these cases. */
function results(cases: Case[], evalName = 'release'): EvalResults {
  return {
    run: { id: 1, runType: 'full', createdAt: '2026-12-01 10:00:00' },
    evals: [
      {
        id: 1,
        name: evalName,
        status: 'success',
        results: cases.map((c) => ({
          input: { id: c.id, props: {} },
          output: {
            caseId: c.id,
            runId: `run-${c.id}`,
            studioUrl: `http://127.0.0.1:4000/#/runs/run-${c.id}`,
          },
          status: c.status ?? 'success',
          scores: Object.entries(c.scores).map(([name, score]) => ({ name, score })),
        })),
      },
    ],
  };
}

describe('compareEvalResults', () => {
  it('names each case and scorer that went down or up, and counts the rest', () => {
    const before = results([
      { id: 'patch', scores: { 'staging only': 1, answer: 1 } },
      { id: 'minor', scores: { 'staging only': 1, answer: 0.5 } },
      { id: 'major', scores: { 'staging only': 1, answer: 1 } },
    ]);
    const after = results([
      { id: 'minor', scores: { 'staging only': 0, answer: 1 } },
      { id: 'patch', scores: { 'staging only': 1, answer: 1 } },
      { id: 'major', scores: { 'staging only': 1, answer: 1 } },
    ]);

    expect(compareEvalResults(before, after)).toEqual({
      regressions: [
        {
          eval: 'release',
          caseId: 'minor',
          scorer: 'staging only',
          before: 1,
          after: 0,
          studioUrl: 'http://127.0.0.1:4000/#/runs/run-minor',
        },
      ],
      improvements: [
        {
          eval: 'release',
          caseId: 'minor',
          scorer: 'answer',
          before: 0.5,
          after: 1,
          studioUrl: 'http://127.0.0.1:4000/#/runs/run-minor',
        },
      ],
      added: [],
      removed: [],
      unchanged: 2,
    });
  });

  it('counts a case whose task failed as a regression of its status, and its recovery as an improvement', () => {
    const ok = results([{ id: 'patch', scores: { answer: 1 } }]);
    const failed = results([{ id: 'patch', status: 'fail', scores: {} }]);

    expect(compareEvalResults(ok, failed).regressions).toEqual([
      expect.objectContaining({ caseId: 'patch', scorer: 'status', before: 1, after: null }),
    ]);
    expect(compareEvalResults(failed, ok).improvements).toEqual([
      expect.objectContaining({ caseId: 'patch', scorer: 'status', before: null, after: 1 }),
    ]);
  });

  it('lists cases only one run has, and keeps evals apart', () => {
    const before = results([
      { id: 'patch', scores: { answer: 1 } },
      { id: 'old', scores: { answer: 1 } },
    ]);
    const after = results([
      { id: 'patch', scores: { answer: 1 } },
      { id: 'new', scores: { answer: 1 } },
    ]);
    const comparison = compareEvalResults(before, after);
    expect(comparison.added).toEqual([{ eval: 'release', caseId: 'new' }]);
    expect(comparison.removed).toEqual([{ eval: 'release', caseId: 'old' }]);
    expect(comparison.unchanged).toBe(1);

    const other = compareEvalResults(
      before,
      results([{ id: 'patch', scores: { answer: 0 } }], 'deploy'),
    );
    expect(other.regressions).toEqual([]);
    expect(other.added).toEqual([{ eval: 'deploy', caseId: 'patch' }]);
  });

  it('lets scores move within the tolerance', () => {
    const before = results([{ id: 'patch', scores: { answer: 0.8 } }]);
    const after = results([{ id: 'patch', scores: { answer: 0.75 } }]);
    expect(compareEvalResults(before, after).regressions).toHaveLength(1);
    expect(compareEvalResults(before, after, { tolerance: 0.1 })).toMatchObject({
      regressions: [],
      unchanged: 1,
    });
  });

  it('matches cases by position when they have no id', () => {
    const noIds = (score: number): EvalResults => ({
      run: { id: 2 },
      evals: [
        {
          name: 'plain',
          status: 'success',
          results: [
            { input: 'a', output: 'b', status: 'success', scores: [{ name: 'eq', score }] },
          ],
        },
      ],
    });
    expect(compareEvalResults(noIds(1), noIds(0)).regressions).toEqual([
      { eval: 'plain', caseId: '#1', scorer: 'eq', before: 1, after: 0 },
    ]);
  });

  it('formats a comparison as one line per change, then the counts', () => {
    const before = results([
      { id: 'minor', scores: { 'staging only': 1 } },
      { id: 'gone', scores: {} },
    ]);
    const after = results([{ id: 'minor', scores: { 'staging only': 0 } }]);
    expect(formatEvalComparison(compareEvalResults(before, after)).split('\n')).toEqual([
      'regression   release › minor  staging only  100% → 0%  http://127.0.0.1:4000/#/runs/run-minor',
      'removed      release › gone',
      '1 regression, 0 improvements, 0 cases unchanged',
    ]);
  });
});

describe('readEvalResults', () => {
  const file = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'june-eval-results-'));
    dirs.push(dir);
    const path = join(dir, 'results.json');
    writeFileSync(path, text);
    return { path, shown: relative(process.cwd(), path) };
  };

  it('reads a results file evalite wrote', async () => {
    const { path } = file(JSON.stringify(results([{ id: 'patch', scores: { answer: 1 } }])));
    expect((await readEvalResults(path)).evals[0]!.results[0]!.scores).toEqual([
      { name: 'answer', score: 1 },
    ]);
  });

  it('names the file and says how to write it when it cannot be read or is not results', async () => {
    const missing = join(tmpdir(), 'june-no-such-results.json');
    await expect(readEvalResults(missing)).rejects.toMatchObject({
      code: 'eval-results-unreadable',
      message: expect.stringContaining('Write them with `evalite run --outputPath'),
    });
    const notJson = file('{');
    await expect(readEvalResults(notJson.path)).rejects.toMatchObject({
      code: 'eval-results-invalid',
      message: expect.stringMatching(
        new RegExp(`^june: the eval results .*${notJson.shown.split('/').pop()} are not JSON`),
      ),
    });
    const wrong = file(
      '{"run": {"id": 1}, "evals": [{"name": "x", "status": "success", "results": [{"status": "success", "scores": [{"name": "a"}]}]}]}',
    );
    await expect(readEvalResults(wrong.path)).rejects.toMatchObject({
      code: 'eval-results-invalid',
      message: expect.stringContaining(
        `${wrong.shown} is not an evalite results file: $.evals[0].results[0].scores[0].score:`,
      ),
    });
  });
});
