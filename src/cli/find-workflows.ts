import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { WorkflowError } from '../errors/index.js';

/** Extensions of files that can hold a workflow. */
const WORKFLOW_EXTENSIONS = new Set(['.tsx', '.jsx']);

/** Folders never searched: dependencies, builds, June's own runs. Hidden folders neither. */
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'coverage']);

/** A file `june dev` shows: its id (its path from the project root, `/`-separated) and where it is. */
export interface WorkflowFile {
  id: string;
  file: string;
  /** True when the user named the file itself (kept even when it does not load). */
  named: boolean;
}

/**
 * True for a folder `june dev` does not search: `node_modules`, `dist`, `build`, `coverage`
 * and hidden folders (`.june`, `.git`, ...).
 */
export function skippedFolder(name: string): boolean {
  return SKIPPED.has(name) || name.startsWith('.');
}

/**
 * The candidate workflow files of a project: each `.tsx`/`.jsx` file under the given folders
 * whose text has a default export (`export default`), plus each file named itself, without
 * loading any. Whether a candidate is a workflow (its default export is a component) is
 * known once it loads (see `DevCatalog`). Ids are paths from `root`; a target outside `root`
 * (or a link that leads out of it) is refused, and searching does not follow symbolic links,
 * so nothing outside the project is ever loaded.
 *
 * @param targets - files or folders, relative to `root`. @default [root]
 * @throws {WorkflowError} `cli-workflow-missing` for a target that does not exist or lies outside `root`.
 * @example
 * ```ts
 * await findWorkflows('/home/me/app', ['workflows']); // [{ id: 'workflows/release.tsx', ... }]
 * ```
 */
export async function findWorkflows(root: string, targets: string[] = []): Promise<WorkflowFile[]> {
  const found = new Map<string, WorkflowFile>();
  for (const target of targets.length ? targets : ['.']) {
    const path = resolve(root, target);
    const id = idOf(root, path);
    if (id === undefined)
      throw new WorkflowError(
        'cli-workflow-missing',
        `june: ${target} is outside the project ${root}; june dev shows the workflows of the folder it runs in. Run it in the folder that holds ${target}.`,
      );
    const info = await stat(path).catch(() => undefined);
    if (info && !(await realInside(root, path)))
      throw new WorkflowError(
        'cli-workflow-missing',
        `june: ${target} leads outside the project ${root} (a symbolic link); june dev loads only the project's own files. Pass the file it links to from its own project.`,
      );
    if (!info)
      throw new WorkflowError(
        'cli-workflow-missing',
        `june: cannot find ${target} (looked for ${path}); pass workflow files or folders of the project.`,
      );
    if (info.isFile()) found.set(id, { id, file: path, named: true });
    else
      for (const file of await searchFolder(path))
        found.set(idOf(root, file)!, { id: idOf(root, file)!, file, named: false });
  }
  return [...found.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** True when `file` could hold a workflow: a `.tsx`/`.jsx` file whose text has a default export. */
export async function mayBeWorkflow(file: string): Promise<boolean> {
  if (!WORKFLOW_EXTENSIONS.has(extname(file))) return false;
  const text = await readFile(file, 'utf8').catch(() => '');
  return /\bexport\s+default\b/.test(text);
}

/**
 * True when `path`, every symbolic link resolved, is inside `root` (itself resolved): what
 * `june dev` may load. False for a path that does not exist.
 */
export async function realInside(root: string, path: string): Promise<boolean> {
  try {
    const [realRoot, real] = await Promise.all([realpath(root), realpath(path)]);
    return idOf(realRoot, real) !== undefined;
  } catch {
    return false;
  }
}

/** The path of `file` from `root` with `/` separators, or undefined when it is not under `root`. */
export function idOf(root: string, file: string): string | undefined {
  const path = relative(root, file);
  if (path.startsWith('..') || resolve(root, path) !== file) return undefined;
  return path === '' ? '.' : path.split(sep).join('/');
}

async function searchFolder(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolder(entry.name)) files.push(...(await searchFolder(path)));
    } else if (entry.isFile() && (await mayBeWorkflow(path))) files.push(path);
  }
  return files;
}
