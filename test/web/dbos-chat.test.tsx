// The chat handler's host cases (chat-host-contract.ts) with the runs on a DBOS worker: the
// page's first message queues a run, its approval answer reaches the run through
// PostgreSQL, the tool runs once on the worker, and the server process streams the run's
// events from the database. The handler is made with `durable` (a run client), as the docs
// show; another server process is another handler over its own host.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunClient } from 'june/dbos';
import { chatHandler } from 'june/web';
import { describe } from 'vitest';
import { databaseRunHost } from '../../src/host/database-run-host.js';
import { tempProject } from '../cli/cli-harness.js';
import { startWorker } from '../dbos/support.js';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { chatHostContract } from './chat-host-contract.js';

const missing = postgresMissing();
const shopSource = readFileSync(new URL('./fixtures/dbos-shop.tsx', import.meta.url), 'utf8');

describe.runIf(!missing)('chatHandler with runs on DBOS workers', () => {
  chatHostContract('a database', async () => {
    const pg = await startPostgres();
    const project = tempProject();
    project.write('shop.tsx', shopSource);
    project.write('refunds.log', '');
    project.write('prompts.log', '');
    const database = pg.url('june_web');
    const worker = await startWorker(project.dir, database, 'web-worker', {
      files: ['shop.tsx'],
      env: {
        SHOP_REFUNDS: join(project.dir, 'refunds.log'),
        SHOP_PROMPTS: join(project.dir, 'prompts.log'),
      },
    });
    const runs = await RunClient.connect(database);
    const host = await databaseRunHost({ database, client: runs });
    return {
      host,
      handler: chatHandler({ durable: { runs, workflow: 'shop' } }),
      otherHandler: () => chatHandler({ durable: { runs, workflow: 'shop' } }),
      refunds: () => readFileSync(join(project.dir, 'refunds.log'), 'utf8'),
      prompts: () => readFileSync(join(project.dir, 'prompts.log'), 'utf8'),
      close: async () => {
        await host.close();
        await runs.close();
        await worker.stop().catch(() => {});
        await pg.stop();
        project.remove();
      },
    };
  });
});
