// Which Chromium the browser tests drive (through playwright-core), found in one place:
//
// 1. `CHROMIUM_PATH`, when set: that executable;
// 2. a system Chromium (`chromium` or `chromium-browser` on PATH, e.g. Debian's package);
// 3. else the Chromium shipped inside the `@sparticuz/chromium` npm package (a devDependency),
//    unpacked on first use into the system's temp folder, so `npm ci && npm test` needs no
//    system package. `JUNE_TEST_CHROMIUM=packaged` forces this one, to check it still works.
//
// vitest's globalSetup (chromium-setup.ts) finds it once per test run, before the test files
// start, so parallel test files never unpack it at the same time; they read it with
// `inject('chromium')`.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The Chromium to launch, and where it comes from. */
export interface ChromiumExecutable {
  path: string;
  source: 'CHROMIUM_PATH' | 'system' | 'packaged';
}

/** Finds the Chromium for the browser tests (see the top of this file for the order). */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChromiumExecutable> {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  if (env.JUNE_TEST_CHROMIUM !== 'packaged') {
    const system = onPath(['chromium', 'chromium-browser'], env.PATH ?? '');
    if (system) return { path: system, source: 'system' };
  }
  // named through a variable, so the type check does not need the package installed
  const name = '@sparticuz/chromium';
  const packaged = ((await import(name)) as { default: { executablePath(): Promise<string> } })
    .default;
  return { path: await packaged.executablePath(), source: 'packaged' };
}

function onPath(names: string[], path: string): string | undefined {
  for (const name of names) {
    for (const dir of path.split(delimiter).filter(Boolean)) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium found by {@link findChromium} for this test run. */
    chromium: ChromiumExecutable;
  }
}
