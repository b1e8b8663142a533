// The fresh projects of the compat suite: June packed once, each project made from its folder
// under test/fixtures/compat/ with the tsconfig `june init` writes (the setup the docs require),
// and all installed side by side, from npm's cache where it has the versions this repository's
// lockfile holds.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initTsconfig } from '../../src/cli/init-files.js';
import { expect } from 'vitest';
import {
  described,
  installPackages,
  lockedPackages,
  newProject,
  packJune,
  runIn,
  type Ran,
} from '../helpers/packed-june.js';

const templates = fileURLToPath(new URL('../fixtures/compat/', import.meta.url));

/** A compat project: its template folder's name and the packages a user would install. */
export interface CompatProject {
  /** The folder under test/fixtures/compat/ whose files the project starts from. */
  template: string;
  /** The packages installed beside June, at the versions of this repository's lockfile. */
  packages: readonly string[];
}

/** Where each set-up project is, by its template's name. */
export type CompatFolders<NAME extends string> = Record<NAME, string>;

/**
 * Packs June into `work` and sets up each project in `work/<template>`, installing them all at
 * once (npm's cache takes concurrent installs).
 * @throws {Error} when packing or an install fails, with npm's output.
 */
export async function setUpCompatProjects<NAME extends string>(
  work: string,
  projects: Record<NAME, CompatProject>,
): Promise<CompatFolders<NAME>> {
  const tarball = await packJune(work);
  const entries = Object.entries(projects) as Array<[NAME, CompatProject]>;
  const folders = await Promise.all(
    entries.map(async ([, project]) => {
      const folder = newProject(join(work, project.template));
      cpSync(join(templates, project.template), folder, { recursive: true });
      writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify(initTsconfig, null, 2)}\n`);
      await installPackages(folder, [tarball, ...lockedPackages(project.packages)]);
      return folder;
    }),
  );
  return Object.fromEntries(entries.map(([name], i) => [name, folders[i]])) as CompatFolders<NAME>;
}

/** `tsc --noEmit` with the project's own TypeScript and tsconfig.json. */
export const typeCheck = (project: string): Promise<Ran> =>
  runIn(project, process.execPath, [
    join(project, 'node_modules', 'typescript', 'bin', 'tsc'),
    '--noEmit',
    '-p',
    'tsconfig.json',
  ]);

/**
 * Runs a `.tsx` file of the project with Node and the project's own tsx (`node --import tsx`),
 * and returns the JSON lines it printed on stdout (other lines are skipped). Fails the test,
 * with the script's output, when it exits with an error.
 */
export async function scriptLines(
  project: string,
  file: string,
  env: Record<string, string> = {},
): Promise<unknown[]> {
  const ran = await runIn(project, process.execPath, ['--import', 'tsx', file], env);
  expect(ran.code, described(file, ran)).toBe(0);
  return ran.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as unknown);
}

/** `start` made lazy and shared: it runs at the first call, and every call gets its promise. */
export function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= start());
}
