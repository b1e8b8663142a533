import { expect, test } from 'vitest';
import { formatDuration as cliFormat } from '../../src/cli/format.js';
import { formatDuration } from '../../src/trace/format-duration.js';
import { formatDuration as studioFormat } from '../../studio/src/format.js';

test.each([
  [850, '850 ms'],
  [-5, '0 ms'],
  [1234, '1.2 s'],
  [59_940, '59.9 s'],
  [125_000, '2 min 5 s'],
  [3_840_000, '1 h 4 min'],
  [undefined, ''],
  [Number.NaN, ''],
])('one duration form for the CLI and Studio: %s ms is %j', (ms, shown) => {
  expect(formatDuration(ms)).toBe(shown);
  expect(cliFormat(ms)).toBe(shown);
  expect(studioFormat(ms)).toBe(shown);
});
