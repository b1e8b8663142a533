import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import { DevCatalog } from '../../src/cli/dev-catalog.js';
import { devWorkbench } from '../../src/cli/dev-workbench.js';
import { findWorkflows } from '../../src/cli/find-workflows.js';
import type { Studio } from '../../src/studio/index.js';
import { tempProject } from '../cli/cli-harness.js';
import { launchBrowser, newPage, openStudio } from './support.js';
import type { WorkbenchCatalog } from '../../src/workflows/workbench-catalog.js';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';

// What the workbench's Studio tests share: a catalog over a temporary project, and POSTs
// with any headers (node:http, since fetch will not send another Host).

/** The props schema of the test workflows: `{ env: string }`. */
export const envProps = z.toJSONSchema(z.object({ env: z.string() })) as Record<string, unknown>;

/**
 * A catalog of the given project files (ids are their paths), each ready, with the props
 * schema and chat flag given; `load` imports the file with tsx.
 */
export function testCatalog(
  root: string,
  files: Record<string, { propsSchema?: Record<string, unknown>; takesMessages?: boolean }>,
): WorkbenchCatalog {
  return {
    root,
    async workflow(id) {
      const found = Object.hasOwn(files, id) ? files[id] : undefined;
      if (!found) return undefined;
      const entry: WorkflowEntry = {
        id,
        name: id.replace(/\.tsx$/, ''),
        status: 'ready',
        loadedAt: new Date().toISOString(),
        props: {},
        takesMessages: found.takesMessages ?? false,
        ...(found.propsSchema ? { propsSchema: found.propsSchema } : {}),
      };
      const file = join(root, id);
      return {
        entry,
        file,
        load: async () => {
          const { tsImport } = await import('tsx/esm/api');
          return (await tsImport(file, import.meta.url)).default;
        },
      };
    },
  };
}

/** Sends `body` to Studio as a POST with exactly `headers` (plus content-type); the status and body. */
export function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // a stream, or text
          }
          resolve({ status: response.statusCode!, body: parsed });
        });
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}

/** The headers of Studio's own page: same origin, the answer token. */
export const pageHeaders = (url: string, token: string) => ({
  authorization: `Bearer ${token}`,
  origin: new URL(url).origin,
  'sec-fetch-site': 'same-origin',
});

/** The entries of a folder (none when it does not exist). */
export const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/**
 * Studio over `june dev`'s own catalog of the project in `dir` (its workflows found and
 * loaded, the workbench on), and a Chromium page whose console errors go to `errors`.
 */
export async function openDevWorkbench(
  dir: string,
  errors: string[],
): Promise<{ browser: Browser; studio: Studio; page: Page }> {
  const catalog = new DevCatalog(dir, await findWorkflows(dir), [dir]);
  await catalog.loadAll();
  const [browser, studio] = await Promise.all([
    launchBrowser(),
    openStudio(join(dir, '.june', 'runs'), {
      workflows: catalog,
      workbench: devWorkbench(catalog),
    }),
  ]);
  return { browser, studio, page: await newPage(browser, errors) };
}

/** What {@link useDevWorkbench} opens for a test file, set once its `beforeAll` ran. */
export interface DevWorkbench {
  readonly project: ReturnType<typeof tempProject>;
  readonly studio: Studio;
  readonly page: Page;
}

/**
 * Registers the hooks every workbench test file needs: a temporary project holding `files`
 * (path to source), Studio over `june dev`'s catalog of it with a Chromium page
 * ({@link openDevWorkbench}), no console error after any test, and all of it closed after the
 * file. Read its fields inside tests (they are set in `beforeAll`).
 */
export function useDevWorkbench(files: Record<string, string>): DevWorkbench {
  const errors: string[] = [];
  let opened: (DevWorkbench & { browser: Browser }) | undefined;
  let project: ReturnType<typeof tempProject> | undefined;
  beforeAll(async () => {
    project = tempProject();
    for (const [path, source] of Object.entries(files)) project.write(path, source);
    opened = { project, ...(await openDevWorkbench(project.dir, errors)) };
  }, 180_000);
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await opened?.browser.close();
    await opened?.studio.close();
    project?.remove();
  });
  const get = () => {
    if (!opened) throw new Error('the workbench is opened in beforeAll: read it inside a test');
    return opened;
  };
  return {
    get project() {
      return get().project;
    },
    get studio() {
      return get().studio;
    },
    get page() {
      return get().page;
    },
  };
}
