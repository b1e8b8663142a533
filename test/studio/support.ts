import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { startStudio, type Studio, type StudioOptions } from '../../src/studio/index.js';
import { tempProject } from '../cli/cli-harness.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builds Studio's UI from studio/ (vite) into a temporary folder and returns it. Builds are
 * cached by a hash of the sources, so test files share one build and a stale dist/ never
 * hides a change.
 */
export async function studioUi(): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of ['studio', 'src/studio']) {
    for (const name of (await readdir(join(repo, dir), { recursive: true })).sort()) {
      const file = join(repo, dir, name);
      if ((await stat(file)).isFile())
        hash.update(relative(repo, file)).update(await readFile(file));
    }
  }
  const outDir = join(tmpdir(), `june-studio-ui-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(outDir, 'index.html'))) return outDir;
  const building = `${outDir}.${process.pid}-${Math.random().toString(16).slice(2)}`;
  const { build } = await import('vite');
  await build({
    configFile: join(repo, 'studio/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: building, emptyOutDir: true },
  });
  try {
    await rename(building, outDir);
  } catch {
    await rm(building, { recursive: true, force: true }); // another test file built it first
  }
  return outDir;
}

/** Starts Studio on 127.0.0.1, a free port, with the UI built from the sources. */
export async function openStudio(dir: string, options: StudioOptions = {}): Promise<Studio> {
  return startStudio({ dir, port: 0, assetsDir: await studioUi(), ...options });
}

/** A new empty folder for trace files. */
export async function runsDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'june-studio-runs-'));
}

/**
 * Headless Chromium, one per test file: a system Chromium where there is one, else the one
 * packaged in `@sparticuz/chromium` (test/helpers/chromium.ts finds it).
 */
export async function launchBrowser(): Promise<Browser> {
  // loaded here, not at the top: files that use this harness without a browser (the unit lane's
  // serve tests) neither pay for playwright-core's import nor need test/deps installed
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: inject('chromium').path,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const contexts = new WeakMap<Browser, Promise<BrowserContext>>();

/** A new page (in one shared context per browser); uncaught errors in the UI land in `errors`. */
export async function newPage(browser: Browser, errors: string[]): Promise<Page> {
  if (!contexts.has(browser))
    contexts.set(browser, browser.newContext({ viewport: { width: 1360, height: 800 } }));
  const page = await (await contexts.get(browser)!).newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

/**
 * Saves a screenshot as studio-<name>.png: into docs/images/ (the docs' pictures) when
 * UPDATE_SCREENSHOTS=1, else into the system's temp folder, so a test run leaves the work
 * tree as it was. The header shows the default directory (`.june/runs`) instead of the
 * test's temporary one.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? join(repo, 'docs/images')
      : join(tmpdir(), 'june-studio-screenshots');
  await mkdir(folder, { recursive: true });
  await page.evaluate(() => {
    const label = document.querySelector('.topbar-dir');
    if (label) label.textContent = '.june/runs';
  });
  await page.screenshot({ path: join(folder, `studio-${name}.png`) });
}

/** Polls `check` until it stops throwing, for at most `timeoutMs`. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Reads Server-Sent Events from Studio's live channel; `next(match)` waits for one that matches. */
export async function listen(url: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}api/events`, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Array<{ event: string; data: any }> = [];
  let buffer = '';
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
    }
  })();
  return {
    events,
    get ended() {
      return ended;
    },
    next: (match: (event: { event: string; data: any }) => boolean, timeoutMs = 5000) =>
      eventually(() => {
        const found = events.find(match);
        if (!found)
          throw new Error(`no matching event among ${JSON.stringify(events.map((e) => e.event))}`);
        return found;
      }, timeoutMs),
    close: async () => {
      controller.abort();
      await pump;
    },
  };
}

/** What {@link useStudioPage} gives a describe block once its `beforeAll` has run. */
export interface StudioPage {
  browser: Browser;
  /** The runs folder Studio reads (a temp dir, removed after the block). */
  dir: string;
  studio: Studio;
  page: Page;
  /** The page's console errors and uncaught exceptions; each test must leave it empty. */
  errors: string[];
}

/**
 * The setup every Studio browser test block shares: a browser and a runs folder, the runs
 * `record` writes there, a Studio over them and a page; after each test, no page errors;
 * after the block, everything closed and the folder removed.
 */
export function useStudioPage(record: (dir: string) => Promise<void>): StudioPage {
  return useStudio<StudioPage>(
    async (ui) => {
      [ui.browser, ui.dir] = await Promise.all([launchBrowser(), runsDir()]);
      await record(ui.dir);
      ui.studio = await openStudio(ui.dir);
    },
    async (ui) => {
      if (ui.dir) await rm(ui.dir, { recursive: true, force: true });
    },
  );
}

/** A project from {@link tempProject}, or one built on it (edit-and-ask's `shipProject`). */
type Project = ReturnType<typeof tempProject>;

/** What {@link useStudioProject} gives a describe block once its `beforeAll` has run. */
export interface StudioProject<P extends Project = Project> {
  /** The temp project (removed after the block); `june run` there writes `.june/runs/`. */
  project: P;
  browser: Browser;
  /** Studio over the project's `.june/runs` folder. */
  studio: Studio;
  page: Page;
  /** The page's console errors and uncaught exceptions; each test must leave it empty. */
  errors: string[];
}

/**
 * {@link useStudioPage} for tests that run `june run` in a project: a temp project (made by
 * `options.project`, {@link tempProject} by default) with the files `write` puts in it, a
 * browser, Studio over the project's `.june/runs` and a page; after each test, no page
 * errors; after the block, everything closed and the project removed.
 */
export function useStudioProject<P extends Project = Project>(
  write: (project: P) => void | Promise<void>,
  options: { project?: () => P } = {},
): StudioProject<P> {
  return useStudio<StudioProject<P>>(
    async (ui) => {
      ui.project = (options.project ?? (tempProject as () => P))();
      await write(ui.project);
      [ui.browser, ui.studio] = await Promise.all([
        launchBrowser(),
        openStudio(join(ui.project.dir, '.june', 'runs')),
      ]);
    },
    (ui) => ui.project?.remove(),
  );
}

/**
 * What {@link useStudioPage} and {@link useStudioProject} share: `open` starts the browser and
 * Studio (and what they read) into `ui`, then a page is opened; after each test, no page
 * errors; after the block, the browser and Studio closed and `remove` run.
 */
function useStudio<T extends { browser: Browser; studio: Studio; page: Page; errors: string[] }>(
  open: (ui: T) => Promise<void>,
  remove: (ui: T) => void | Promise<void>,
): T {
  const ui = { errors: [] as string[] } as unknown as T;
  beforeAll(async () => {
    await open(ui);
    ui.page = await newPage(ui.browser, ui.errors);
  }, 120_000); // a browser start and a UI build, on a busy machine
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });
  afterAll(async () => {
    await ui.browser?.close();
    await ui.studio?.close();
    await remove(ui);
  });
  return ui;
}

/**
 * The approval cards of a run's page that still wait for an answer: a card answered on the
 * page stays to show what became of the answer (`data-answered`), and is not one of them.
 */
export function waitingCards(page: Page) {
  return page.locator('[data-testid="approval-card"]:not([data-answered])');
}
