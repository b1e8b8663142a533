// The engine contract against the DBOS engine: each case's workflow (test/engine/fixtures)
// runs on a `june worker` over a PostgreSQL of its own; a run is interrupted by killing the
// worker (kill -9) while it waits for an approval, and taken up again by a worker started
// with the same executor id, which recovers it. A changed workflow is a workflow file
// rewritten before that worker starts. Approvals are answered over the database
// (`RunClient.approve`), as `june approve` answers them.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import { RunClient } from 'june/dbos';
import { tempProject } from '../cli/cli-harness.js';
import { engineContract, contractWorkflows, type ContractRun } from '../engine/engine-contract.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixtures = new URL('../engine/fixtures/', import.meta.url);
const names = Object.values(contractWorkflows).map((workflow) => workflow.name);

/** A workflow file of the project: the fixture's default export, or its `edited` one. */
const entry = (name: string, edited = false) =>
  `export { ${edited ? 'edited as default' : 'default'} } from './fixtures/${name}.tsx';\n`;

describe.runIf(!missing)('the DBOS engine, on a worker over PostgreSQL', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess | undefined;
  /** The workflow whose file was rewritten with its edited copy, if any. */
  let edited: string | undefined;
  let runs = 0;

  const start = async () => {
    worker = await startWorker(project.dir, database, 'contract', {
      files: names.map((name) => `${name}.tsx`),
    });
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_engine_contract');
    project = tempProject();
    for (const file of readdirSync(fixtures))
      project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
    for (const name of names) project.write(`${name}.tsx`, entry(name));
    await start();
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  engineContract('DbosEngine', {
    timeoutMs: 60_000,
    async start(workflow, dir) {
      if (edited !== undefined) {
        // the edited file is put back: the next case runs the workflow as it was
        await worker?.stop();
        project.write(`${edited}.tsx`, entry(edited));
        edited = undefined;
        await start();
      }
      const runId = `contract-${++runs}-${workflow.name}`;
      await client.enqueue({ workflow: workflow.name, runId, props: { dir } });
      const run: ContractRun = {
        waiting: async () =>
          (await client.waiting(runId)).map(({ id, tool, input }) => ({ key: id, tool, input })),
        answer: async (request, decision) => {
          const [result] = await client.approve(runId, {
            requestId: request.key,
            approved: decision.approved,
            ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
            ...(decision.input !== undefined ? { input: decision.input } : {}),
            ...(decision.output !== undefined ? { output: decision.output } : {}),
          });
          if (result?.status !== 'applied')
            throw new Error(`the answer to ${request.key} was not applied: ${result?.status}`);
        },
        interrupt: async () => {
          await worker?.kill();
          worker = undefined;
        },
        resume: async (options = {}) => {
          if (options.edited) {
            project.write(`${workflow.name}.tsx`, entry(workflow.name, true));
            edited = workflow.name;
          }
          await start();
        },
        result: async () => {
          const { output, trace } = await client.result(runId);
          return { output, trace };
        },
      };
      return run;
    },
  });
});
