// The hosts the entry points' host tests run against, each with the fixture workflow
// test/host/fixtures/desk.tsx: in memory (this process), a runs folder of a temporary
// project whose runs are `june run` processes of the built CLI, and a runs folder whose runs
// this process runs (the local host).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryRunHost } from '../../src/host/memory-run-host.js';
import { openRunHost } from '../../src/host/open-run-host.js';
import { tempProject } from '../cli/cli-harness.js';
import Desk from './fixtures/desk.js';
import type { HostUnderTest } from './host-contract.js';

/** The fixture's source, to write into a project a `june` process runs. */
export const deskSource = readFileSync(new URL('./fixtures/desk.tsx', import.meta.url), 'utf8');

/** A host in memory that starts the fixture as `desk`. */
export async function memoryHost(): Promise<HostUnderTest> {
  const host = memoryRunHost({ workflows: { desk: Desk } });
  return { host, workflow: 'desk', close: () => host.close() };
}

/** The runs folder of a new temporary project holding `desk.tsx` (needs `npm run build`). */
export async function folderHost(): Promise<HostUnderTest> {
  const project = tempProject();
  project.write('desk.tsx', deskSource);
  const dir = join(project.dir, '.june', 'runs');
  mkdirSync(dir, { recursive: true });
  const host = await openRunHost({ dir, pollIntervalMs: 200 });
  return {
    host,
    workflow: 'desk.tsx',
    close: async () => {
      await host.close();
      project.remove();
    },
  };
}

/** A runs folder of a new temporary project whose runs this process runs, as `desk`. */
export async function localHost(): Promise<HostUnderTest> {
  const project = tempProject();
  // opened as an entry point opens it: the runs folder, with the workflows this process runs
  const host = await openRunHost({
    dir: join(project.dir, '.june', 'runs'),
    workflows: { desk: Desk },
    pollIntervalMs: 200,
  });
  return {
    host,
    workflow: 'desk',
    close: async () => {
      await host.close();
      project.remove();
    },
  };
}
