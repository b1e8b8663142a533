import { describe, expect, it } from 'vitest';
import { episode, uninterruptedMs } from './crash-fuzz/fuzz-run.js';

// Processes killed with SIGKILL at seeded random moments (6 runs × 5 kills), each run resumed
// until it finishes: composites two levels deep, approvals answered at random, tools that
// append to a file, a model that logs every call it is paid for. More kills:
// `npx tsx bench/crash-fuzz.ts`.
describe('crash fuzz: kill -9 at random moments, resume until done', () => {
  it('every finished tool ran once, every finished model call was paid once, recorded answers stood, the output is an uninterrupted run’s', async () => {
    const window = Math.max(200, Math.round((await uninterruptedMs()) * 1.1));
    let kills = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const result = await episode(seed, 5, window);
      kills += result.kills;
      expect(result.problems, `seed ${seed}`).toEqual([]);
      expect(result.output, `seed ${seed}`).toEqual(result.straight);
    }
    expect(kills).toBeGreaterThanOrEqual(30);
  }, 600_000);
});
