// What a chat handler keeps of the runs it stopped for approval answers is bounded: by count
// (the newest ones stay) and by age (no timer: an old entry is gone when asked for or when
// others are added).
import { describe, expect, it } from 'vitest';
import { StoppedRuns } from '../../src/web/stopped-runs.js';

describe('StoppedRuns', () => {
  it('keeps an entry under each of its keys until one of them is deleted', () => {
    const kept = new StoppedRuns<string>(10, 1000, () => 0);
    kept.set(['chat', 'run'], 'message');
    expect([kept.get('chat'), kept.get('run')]).toEqual(['message', 'message']);
    kept.delete('run');
    expect([kept.get('chat'), kept.get('run')]).toEqual([undefined, undefined]);
  });

  it('forgets an entry after ttlMs, and the oldest ones past max', () => {
    let now = 0;
    const kept = new StoppedRuns<number>(2, 1000, () => now);
    kept.set(['a', 'ra'], 1);
    now = 500;
    kept.set(['b', 'rb'], 2);
    kept.set(['c', 'rc'], 3);
    // three entries, two kept: the oldest went, under both its keys
    expect([kept.get('a'), kept.get('ra'), kept.get('b'), kept.get('c')]).toEqual([
      undefined,
      undefined,
      2,
      3,
    ]);
    now = 1500;
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('rc')).toBeUndefined();
  });

  it('a key set again holds the new entry, and the old entry goes under all its keys', () => {
    const kept = new StoppedRuns<string>(10, 1000, () => 0);
    kept.set(['chat', 'run-1'], 'first');
    kept.set(['chat', 'run-2'], 'second');
    expect([kept.get('chat'), kept.get('run-1'), kept.get('run-2')]).toEqual([
      'second',
      undefined,
      'second',
    ]);
  });
});
