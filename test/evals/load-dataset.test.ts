// Datasets as JSON Lines: one case per line, read into evalite's data shape, and every
// mistake named by file and line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadDataset } from 'june/evals';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A dataset file of these lines, in a folder of its own; its path as messages show it. */
function dataset(...lines: string[]): { path: string; shown: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'june-dataset-test-'));
  dirs.push(dir);
  const path = join(dir, 'cases.jsonl');
  writeFileSync(path, lines.join('\n'));
  return { path, shown: relative(process.cwd(), path), dir };
}

describe('loadDataset', () => {
  it("reads each line as a case in evalite's shape, with script and replay paths from the dataset's folder", async () => {
    const { path, dir } = dataset(
      '{"id": "patch", "props": {"version": "1.2.1"}, "expected": {"toolsCalled": ["deploy"]}, "script": "scripts/patch.json"}',
      '',
      '{"id": "hotfix", "$comment": "recorded", "replay": "recordings/hotfix.jsonl", "replayTools": true, "approve": "none"}',
      '{"id": "live", "props": {}}',
      '',
    );

    expect(await loadDataset(path)).toEqual([
      {
        input: {
          id: 'patch',
          props: { version: '1.2.1' },
          script: join(dir, 'scripts/patch.json'),
        },
        expected: { toolsCalled: ['deploy'] },
      },
      {
        // no props: a replay takes the recorded run's
        input: {
          id: 'hotfix',
          replay: join(dir, 'recordings/hotfix.jsonl'),
          replayTools: true,
          approve: 'none',
        },
      },
      { input: { id: 'live', props: {} } },
    ]);
  });

  it('checks and types props and expected with the schemas given', async () => {
    const props = z.object({ version: z.string() });
    const expected = z.object({ version: z.string(), maxSteps: z.number().default(4) });
    const { path, shown } = dataset(
      '{"id": "a", "props": {"version": "1.0.0"}, "expected": {"version": "1.0.0"}}',
    );
    const cases = await loadDataset(path, { props, expected });
    expect(cases[0]!.expected).toEqual({ version: '1.0.0', maxSteps: 4 });
    expect(cases[0]!.input.props!.version).toBe('1.0.0');
    // a recorded run's case without props is not checked against the props schema: it takes the recording's
    const replayed = dataset('{"id": "r", "replay": "run.jsonl"}');
    expect((await loadDataset(replayed.path, { props }))[0]!.input).not.toHaveProperty('props');

    const bad = dataset(
      '{"id": "a", "props": {"version": "1"}, "expected": {"version": "1"}}',
      '{"id": "b", "props": {"version": 2}}',
    );
    await expect(loadDataset(bad.path, { props })).rejects.toMatchObject({
      code: 'eval-dataset-invalid',
      message: expect.stringMatching(
        new RegExp(
          `^june: the dataset ${escape(bad.shown)}, line 2: \\$\\.props\\.version: .*string`,
        ),
      ),
    });
    expect(shown).toBeTruthy();
  });

  it.each([
    [
      'a line that is not JSON',
      ['{"id": "a"}', '{"id": "b",'],
      /, line 2 is not valid JSON: .*Each line is one JSON object\.$/,
    ],
    ['a line that is not an object', ['[1, 2]'], /, line 1: \$: .*object/],
    ['a case without an id', ['{"props": {}}'], /, line 1: \$\.id: /],
    ['props that are not an object', ['{"id": "a", "props": [1]}'], /, line 1: \$\.props: /],
    [
      'a misspelt field',
      ['{"id": "a", "scirpt": "x.json"}'],
      /, line 1: unknown field "scirpt" \(a case has id, props, expected, script, replay, replayTools, approve, fork and \$comment\)\.$/,
    ],
    [
      'a script and a replay',
      ['{"id": "a", "script": "x.json", "replay": "y.jsonl"}'],
      /, line 1: a case takes "script" or "replay", not both/,
    ],
    [
      'replayTools without a replay',
      ['{"id": "a", "replayTools": true}'],
      /, line 1: "replayTools" goes with "replay"/,
    ],
    [
      'an approve that is neither all nor none',
      ['{"id": "a", "approve": "some"}'],
      /, line 1: \$\.approve: /,
    ],
    [
      'an id used twice',
      ['{"id": "patch"}', '', '{"id": "patch"}'],
      /, line 3: the id "patch" is already the id of line 1\. Give each case its own id/,
    ],
  ])('fails on %s, naming the file and the line', async (_, lines, message) => {
    const { path, shown } = dataset(...lines);
    const error = await loadDataset(path).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'WorkflowError', code: 'eval-dataset-invalid' });
    const text = (error as Error).message;
    expect(text.startsWith(`june: the dataset ${shown}, line `)).toBe(true);
    expect(text).toMatch(message);
  });

  it('fails on a file with no case', async () => {
    const { path, shown } = dataset('', '  ');
    await expect(loadDataset(path)).rejects.toMatchObject({
      code: 'eval-dataset-invalid',
      message: `june: the dataset ${shown} has no case: write one JSON object per line, such as {"id": "first", "props": {}}.`,
    });
  });

  it('fails on a file it cannot read, naming it', async () => {
    const { dir } = dataset('{"id": "a"}');
    const missing = join(dir, 'missing.jsonl');
    await expect(loadDataset(missing)).rejects.toMatchObject({
      code: 'eval-dataset-unreadable',
      message: expect.stringMatching(
        new RegExp(
          `^june: cannot read the dataset ${escape(relative(process.cwd(), missing))}: .*Check the path`,
        ),
      ),
    });
    mkdirSync(join(dir, 'folder.jsonl'));
    await expect(loadDataset(join(dir, 'folder.jsonl'))).rejects.toMatchObject({
      code: 'eval-dataset-unreadable',
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
