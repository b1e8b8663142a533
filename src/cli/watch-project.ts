import { watch } from 'chokidar';
import { relative, sep } from 'node:path';
import { skippedFolder } from './find-workflows.js';

/** What {@link watchProject} reports: a file added, changed or removed (absolute path). */
export type FileChange = (file: string, kind: 'add' | 'change' | 'unlink') => void;

/** A running watch, from {@link watchProject}. */
export interface ProjectWatch {
  /** Watches more files too (a workflow's imports found on its last load). */
  add(files: readonly string[]): void;
  /** Resolves once the initial scan is done and changes are reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches `paths` (folders and files) with chokidar and reports each file added, changed or
 * removed, leaving out the folders `june dev` does not search (`node_modules`, `dist`, hidden
 * ones: see `skippedFolder`, judged from `root`). A save is reported once it settled (50 ms
 * without growth), so a half-written file is not loaded.
 *
 * @example
 * ```ts
 * const watching = watchProject(root, [root], (file, kind) => void catalog.changed(file, kind));
 * ```
 */
export function watchProject(
  root: string,
  paths: readonly string[],
  onChange: FileChange,
): ProjectWatch {
  const watcher = watch([...paths], {
    ignoreInitial: true,
    followSymlinks: false, // a link out of the project is not the project's
    ignored: (path) =>
      relative(root, path)
        .split(sep)
        .some((part) => part !== '..' && part !== '' && skippedFolder(part)),
    awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 },
  });
  const watched = new Set(paths);
  watcher.on('add', (file) => onChange(file, 'add'));
  watcher.on('change', (file) => onChange(file, 'change'));
  watcher.on('unlink', (file) => onChange(file, 'unlink'));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    add(files) {
      const fresh = files.filter((file) => !watched.has(file));
      fresh.forEach((file) => watched.add(file));
      if (fresh.length) watcher.add(fresh);
    },
    close: () => watcher.close(),
  };
}
