import { resolve } from 'node:path';
import type { CliIO } from './cli-io.js';
import { devWorkbench } from './dev-workbench.js';
import { DevCatalog } from './dev-catalog.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { findWorkflows } from './find-workflows.js';
import { portOption } from './studio-command.js';
import { watchProject } from './watch-project.js';

/** The flags of `june dev`. */
export interface DevCommandOptions {
  /** `--port`: the TCP port, as typed; `0` picks a free one. @default Studio's own (4000) */
  port?: string;
  /** `--host`: the address to listen on. @default '127.0.0.1' */
  host?: string;
  /** `--allow-host` (repeatable): more host names requests may address. */
  allowHost?: string[];
  /** The built UI (programs and tests; the command uses the package's). @default Studio's own */
  assetsDir?: string;
}

/** What {@link startDev} started: Studio with its workflows, watched; `close()` stops both. */
export interface DevServer {
  pageUrl: string;
  token?: string;
  catalog: DevCatalog;
  close(): Promise<void>;
}

/**
 * Starts what `june dev` runs: finds the workflows under `targets` (files or folders of the
 * project `root`; the whole project by default), loads each and resolves its scopes, starts
 * Studio over the runs folder `.june/runs` with them, and watches the files and everything
 * they import (chokidar): on each save the workflows that import the file load again and
 * Studio's page gets a `workflow` event.
 *
 * @throws {WorkflowError} `cli-workflow-missing` for a target that does not exist or lies
 *   outside the project; `cli-option-invalid` for a bad `--port`.
 * @throws {SystemError} Studio's own errors (`studio-listen-failed` when the port is taken...).
 */
export async function startDev(
  root: string,
  targets: string[],
  options: DevCommandOptions,
): Promise<DevServer> {
  const port = portOption(options.port);
  const files = await findWorkflows(root, targets);
  const folders = (targets.length ? targets : ['.'])
    .map((target) => resolve(root, target))
    .filter((path) => !files.some((file) => file.named && file.file === path));
  const catalog = new DevCatalog(root, files, folders);
  await catalog.loadAll();
  const watching = watchProject(
    root,
    [...folders, ...files.filter((file) => file.named).map((file) => file.file)],
    (file, kind) => void catalog.changed(file, kind).then(() => watching.add(catalog.watched())),
  );
  watching.add(catalog.watched());
  await watching.ready;
  const { startStudio } = await import('../studio/index.js');
  try {
    const studio = await startStudio({
      dir: resolve(root, '.june/runs'),
      workflows: catalog,
      workbench: devWorkbench(catalog),
      ...(port !== undefined ? { port } : {}),
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.allowHost?.length ? { allowHosts: options.allowHost } : {}),
      ...(options.assetsDir !== undefined ? { assetsDir: options.assetsDir } : {}),
    });
    return {
      pageUrl: studio.pageUrl,
      ...(studio.token !== undefined ? { token: studio.token } : {}),
      catalog,
      close: async () => {
        await Promise.all([studio.close(), watching.close(), catalog.close()]);
      },
    };
  } catch (error) {
    await Promise.all([watching.close(), catalog.close()]);
    throw error;
  }
}

/**
 * `june dev [files or folders...]`: {@link startDev} in the current directory; prints
 * Studio's URL (with the token answering needs) and how many workflows it found, and serves
 * until Ctrl-C.
 *
 * @example
 * ```ts
 * await devCommand(['workflows'], { port: '0' }, processIO());
 * ```
 */
export async function devCommand(
  targets: string[],
  options: DevCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const dev = await startDev(process.cwd(), targets, options);
  const workflows = dev.catalog.list();
  const broken = workflows.filter((entry) => entry.status === 'broken').length;
  io.stdout.write(
    `June dev: ${dev.pageUrl} (${workflows.length} workflow${workflows.length === 1 ? '' : 's'}${broken ? `, ${broken} broken` : ''}; watching for changes; Ctrl-C to stop)\n`,
  );
  if (dev.token !== undefined) {
    io.stdout.write(
      `Access token: ${dev.token} (every API request needs it; the URL above carries it to the page)\n`,
    );
  }
  await new Promise((stop) => process.once('SIGINT', stop));
  await dev.close();
  return ExitCode.success;
}
