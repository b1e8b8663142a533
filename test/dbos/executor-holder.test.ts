// How a worker holding its executor id names itself to PostgreSQL, and how a refused worker
// reads and says it back (test/dbos/executor-hold.test.ts has the real workers).
import { describe, expect, it } from 'vitest';
import { describeHolder, holderName, parseHolderName } from '../../src/dbos/executor-hold.js';

describe('the holder of an executor id', () => {
  const holder = { host: 'build-7.internal', pid: 48121, since: new Date('2026-12-02T09:14:03Z') };

  it('round-trips through the session application name, host last', () => {
    expect(holderName(holder)).toBe('june worker 48121 1796202843 build-7.internal');
    expect(parseHolderName(holderName(holder))).toEqual(holder);
  });

  it('keeps the pid and start when PostgreSQL cuts a long host name', () => {
    const long = { ...holder, host: 'h'.repeat(80) };
    const cut = holderName(long).slice(0, 63);
    expect(parseHolderName(cut)).toEqual({ ...holder, host: 'h'.repeat(63 - 29) });
  });

  it('reads no holder from another session name', () => {
    expect(parseHolderName('psql')).toBeUndefined();
    expect(parseHolderName('')).toBeUndefined();
  });

  it('says who holds the id, or that PostgreSQL does not show it', () => {
    expect(describeHolder(holder)).toBe(
      'a live worker: pid 48121 on build-7.internal, since 2026-12-02T09:14:03Z',
    );
    expect(describeHolder(undefined)).toBe(
      'a live worker whose details PostgreSQL does not show to this user',
    );
  });
});
