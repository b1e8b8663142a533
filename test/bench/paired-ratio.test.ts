import { describe, expect, it } from 'vitest';
import { pairedRatio } from '../../bench/report.js';

const timing = (cpuPassesMs: number[]) => ({
  medianMs: 1,
  madMs: 0,
  samples: 3,
  cpuMs: [...cpuPassesMs].sort((a, b) => a - b)[cpuPassesMs.length >> 1]!,
  cpuPassesMs,
});

describe('pairedRatio (bench ratios between two contenders)', () => {
  it('is the median of the pass-by-pass ratios, so a slow pass shared by both cancels out', () => {
    // pass 2 ran while the machine was busy: both contenders took twice as long
    const r = {
      timings: { 'a:june': timing([1.0, 2.0, 1.1]), 'a:floor': timing([1.0, 2.0, 1.0]) },
    };
    expect(pairedRatio(r, 'a', 'june', 'floor')).toEqual({ ratio: 1.0, low: 1.0, high: 1.1 });
  });

  it('falls back to the ratio of the medians when the passes do not pair up', () => {
    const r = { timings: { 'a:june': timing([2, 2]), 'a:floor': timing([1]) } };
    expect(pairedRatio(r, 'a', 'june', 'floor')?.ratio).toBe(2);
  });

  it('is undefined when either contender was not timed', () => {
    expect(pairedRatio({ timings: { 'a:june': timing([1]) } }, 'a', 'june', 'floor')).toBe(
      undefined,
    );
  });
});
