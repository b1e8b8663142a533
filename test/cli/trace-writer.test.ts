import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Trace } from 'june';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TraceWriter } from '../../src/cli/trace-writer.js';

const trace = (status: Trace['status'], steps: number): Trace => ({
  version: 1,
  runId: 'r1',
  status,
  startedAt: '2026-01-01T00:00:00.000Z',
  root: {
    id: 'n1',
    kind: 'run',
    name: 'w',
    status,
    startedAt: '2026-01-01T00:00:00.000Z',
    children: Array.from({ length: steps }, (_, i) => ({
      id: `s${i}`,
      kind: 'step',
      name: `s${i}`,
      status: 'succeeded',
      startedAt: '2026-01-01T00:00:00.000Z',
      children: [],
    })),
  },
});

describe('TraceWriter', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'june-trace-writer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a burst of updates at most once per interval, then the final trace to every path', async () => {
    let snapshots = 0;
    const paths = [join(dir, '.june', 'runs', 'r1.json'), join(dir, 'copy', 'trace.json')];
    const writer = new TraceWriter({
      paths,
      snapshot: () => trace('running', ++snapshots),
      minIntervalMs: 60_000,
    });

    for (let i = 0; i < 100; i++) writer.schedule();
    await writer.close(trace('succeeded', 3));

    // The first schedule() writes at once (a snapshot is taken then); the other 99 fall within the interval.
    expect(snapshots).toBe(1);
    for (const path of paths)
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(trace('succeeded', 3));
  });

  it('reports a file it cannot write when it closes', async () => {
    const blocked = join(dir, 'file');
    writeFileSync(blocked, 'a file where the trace folder should be');
    const writer = new TraceWriter({
      paths: [join(blocked, 'r1.json')],
      snapshot: () => trace('running', 0),
    });
    await writer.close(trace('succeeded', 0)).then(
      () => expect.unreachable(),
      (error: NodeJS.ErrnoException) => expect(error.code).toMatch(/^E[A-Z]+$/),
    );
  });
});
