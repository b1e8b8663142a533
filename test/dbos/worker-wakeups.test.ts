// How a worker chooses the way it learns of new runs: the wake-ups (DBOS's queue scheduler)
// only on a DBOS version June's tests ran them on, polling on DBOS's public settings when
// they are turned off (option, environment) or the version is another; the start line says
// which and why. No database: the choice is made before DBOS launches.
import { describe, expect, it } from 'vitest';
import {
  installedDbosVersion,
  PollingWakeups,
  SchedulerWakeups,
  WAKEUPS_TESTED_DBOS,
  wakeupsLine,
  workerWakeups,
} from '../../src/dbos/worker-wakeups.js';

const queues = ['june.run.release'];

describe('workerWakeups', () => {
  it('uses the wake-ups on the DBOS June pins, a version its tests ran them on', () => {
    const version = installedDbosVersion();
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(WAKEUPS_TESTED_DBOS).toContain(version!.split('.').slice(0, 2).join('.'));
    const chosen = workerWakeups({ queues, env: {} });
    expect(chosen).toBeInstanceOf(SchedulerWakeups);
    expect(chosen.mode).toBe('wake-ups');
    expect(wakeupsLine('w1', chosen, 50)).toBe(
      `june: worker w1 polls a queue as soon as a run is enqueued on it or one of its runs ends (wake-ups, besides a poll every 50 ms): DBOS ${version} is a version they were tested on; --no-wakeups turns them off`,
    );
  });

  it('polls on the timer alone on a DBOS version its tests did not run on, and says which', () => {
    const chosen = workerWakeups({ queues, env: {}, dbosVersion: '6.0.0' });
    expect(chosen).toBeInstanceOf(PollingWakeups);
    expect(wakeupsLine('w1', chosen, 50)).toBe(
      "june: worker w1 polls its queues every 50 ms for new runs and freed slots: DBOS 6.0.0 is not a version June's wake-ups were tested on (5.3.x)",
    );
    expect(workerWakeups({ queues, env: {}, dbosVersion: undefined }).reason).toBe(
      "the installed DBOS's version could not be read",
    );
  });

  it('polls when turned off by the option (--no-wakeups) or the environment; the option wins', () => {
    expect(workerWakeups({ queues, wakeups: false, env: {} }).reason).toBe(
      'the wake-ups are turned off',
    );
    for (const value of ['off', '0', 'false', 'OFF'])
      expect(workerWakeups({ queues, env: { JUNE_DBOS_WAKEUPS: value } }).reason).toBe(
        `the wake-ups are turned off (JUNE_DBOS_WAKEUPS=${value})`,
      );
    expect(workerWakeups({ queues, env: { JUNE_DBOS_WAKEUPS: 'on' } }).mode).toBe('wake-ups');
    expect(workerWakeups({ queues, wakeups: true, env: { JUNE_DBOS_WAKEUPS: 'off' } }).mode).toBe(
      'wake-ups',
    );
  });

  it("falls back to polling, saying why, when DBOS's scheduler is there but its running workflows are not", async () => {
    const chosen = workerWakeups({ queues, env: {} });
    await chosen.beforeLaunch();
    expect(chosen.mode).toBe('wake-ups');
    // DBOS not launched: no system database to attach to, as on a DBOS whose shapes moved
    await chosen.afterLaunch('postgresql://unused');
    expect(chosen.mode).toBe('polling');
    expect(chosen.reason).toMatch(
      /^DBOS [\d.]+ is a version they were tested on, but its system database's running workflows have moved$/,
    );
    await chosen.close();
  });
});
