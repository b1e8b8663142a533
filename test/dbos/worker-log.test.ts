// What a worker prints of DBOS's log (WorkerLog, given to DBOS as its logger), fed the
// entries DBOS 5 writes when PostgreSQL goes away and comes back, when a run fails, and
// when it shuts down. No database: the entries are DBOS's own texts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerLog } from '../../src/dbos/worker-log.js';

const database = 'postgresql://june:secret@db.internal:5432/june';

function workerLog(options: { probe?: () => Promise<unknown>; level?: 'error' | 'info' } = {}) {
  const lines: string[] = [];
  const failed = new Error('june: the tool "deploy" failed');
  const log = new WorkerLog({
    executorId: 'w1',
    database,
    write: (line) => lines.push(line),
    probe: options.probe ?? (async () => []),
    failedRun: (error) => (error === failed ? 'run-7' : undefined),
    ...(options.level ? { level: options.level } : {}),
  });
  return { log, lines, failed };
}

describe('WorkerLog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says once that the database went away, and once that the worker reconnected', async () => {
    let up = false;
    const probe = vi.fn(async () => {
      if (!up) throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
      return [];
    });
    const { log, lines } = workerLog({ probe });
    log.warn(
      'Unexpected error in pool: error: terminating connection due to administrator command',
    );
    log.warn(
      'Error in notifications client: error: terminating connection due to administrator command',
    );
    log.warn(
      'Error getting startable workflows for queue june.release: connect ECONNREFUSED 10.0.0.5:5432',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
      code: 'ECONNREFUSED',
    });
    log.error('Exception from system database', { error: refused, stack: refused.stack });
    await vi.advanceTimersByTimeAsync(3000);
    expect(lines).toEqual([
      'june: worker w1 lost the database at postgresql://june:***@db.internal:5432/june (terminating connection due to administrator command); its runs wait, and it reconnects when the database is back',
    ]);

    up = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^june: worker w1 reconnected to the database at postgresql:\/\/june:\*\*\*@db\.internal:5432\/june after 4\.\d s; it takes runs again$/,
    );
    // checks stop once it is back; a new loss is reported again
    const checks = probe.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe.mock.calls.length).toBe(checks);
    log.warn('Unexpected error in pool: Error: Connection terminated unexpectedly');
    expect(lines[2]).toContain(
      'lost the database at postgresql://june:***@db.internal:5432/june (Connection terminated unexpectedly)',
    );
    log.close();
  });

  it('tells a lost connection by the error code too (SQLSTATE 57P01, 08006)', () => {
    const { log, lines } = workerLog();
    const error = Object.assign(new Error('server went away'), { code: '57P01' });
    log.error('Exception from system database: error: server went away', { error });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('lost the database');
    log.close();
  });

  it('says a failed run in one line naming it, without its stack', () => {
    const { log, lines, failed } = workerLog();
    log.error(failed.message, { error: failed, stack: failed.stack });
    expect(lines).toEqual(['june: run run-7 failed: the tool "deploy" failed']);
  });

  it('prints DBOS entries at its level or above as one june: line, and drops its shutdown note', () => {
    const { log, lines } = workerLog();
    log.info('Recovering 2 workflows from application version june-run-1');
    log.debug('Polling queue june.release');
    log.warn('Shutting down while 1 workflows are still running: 20261201-151923-8dd748407471');
    log.warn('Queue june.release has a concurrency of 0\n    at Something (file.js:1:1)');
    log.error(new Error('Workflow executor already initialized!\n    at stack'));
    expect(lines).toEqual([
      'june: DBOS: Queue june.release has a concurrency of 0',
      'june: DBOS: Workflow executor already initialized!',
    ]);
    const verbose = workerLog({ level: 'info' });
    verbose.log.info('Recovering 2 workflows from application version june-run-1');
    expect(verbose.lines).toEqual([
      'june: DBOS: Recovering 2 workflows from application version june-run-1',
    ]);
  });

  it('prints nothing once closed (the worker stopped)', () => {
    const { log, lines } = workerLog();
    log.close();
    log.warn('Unexpected error in pool: Error: Connection terminated unexpectedly');
    log.error('anything');
    expect(lines).toEqual([]);
  });
});
