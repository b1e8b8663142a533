import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isRunId, newRunId } from '../../src/engine/run-id.js';

describe('run ids: one rule for the journal, Studio and the web handler', () => {
  it('accepts the ids June and DBOS make, and ids a user gives up to 128 characters', () => {
    expect(isRunId(newRunId())).toBe(true);
    expect(isRunId(randomUUID())).toBe(true); // a DBOS workflow id
    expect(isRunId('chat_1-2.3')).toBe(true);
    expect(isRunId('a'.repeat(128))).toBe(true);
  });

  it('refuses what is not a plain file name, or longer than 128 characters', () => {
    for (const id of ['', '.', '..', '../etc', '.hidden', '-x', 'a/b', 'a b', 'a'.repeat(129)])
      expect(isRunId(id), JSON.stringify(id)).toBe(false);
    expect(isRunId(42)).toBe(false);
  });
});
