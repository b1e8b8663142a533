// The run host contract against a database of runs, over a real PostgreSQL: runs of
// test/host/fixtures/desk.tsx are queued through RunClient and run by a `june worker`.
import { describe } from 'vitest';
import { openRunHost } from '../../src/host/open-run-host.js';
import { tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { runHostContract } from '../host/host-contract.js';
import { deskSource } from '../host/hosts-under-test.js';
import { startWorker } from './support.js';

describe.runIf(!postgresMissing())('a database of runs as a run host', () => {
  runHostContract('database', async () => {
    const pg = await startPostgres();
    const database = pg.url('june_run_host');
    const project = tempProject();
    project.write('desk.tsx', deskSource);
    const worker = await startWorker(project.dir, database, 'host-worker', {
      files: ['desk.tsx'],
    });
    const host = await openRunHost({ database, pollIntervalMs: 200 });
    return {
      host,
      workflow: 'desk',
      close: async () => {
        await host.close().catch(() => {});
        await worker.stop().catch(() => {});
        await pg.stop();
        project.remove();
      },
    };
  });
});
