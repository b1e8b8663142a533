import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/trace/iso-time.js';

describe('isoTime', () => {
  it('writes every millisecond as Date#toISOString does, across minute, day and year ends', () => {
    const start = Date.UTC(2026, 11, 31, 23, 59, 58, 990);
    for (let ms = start; ms < start + 3_000; ms += 3)
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('writes times before 1970, fractions of a millisecond and far years as Date does', () => {
    for (const ms of [0, -1, -61_001, 1.5, 8.64e15, -8.64e15, 253402300800000])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('throws for a time no Date can hold', () => {
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
