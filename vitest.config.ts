import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import `june` by name, as users do; here the names point at the sources so a test
// run needs no build. The CLI tests spawn `dist/` (built by `npm install` / `pretest`).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^june$/, replacement: here('./src/index.ts') },
      { find: /^june\/jsx-runtime$/, replacement: here('./jsx-runtime/jsx-runtime.ts') },
      { find: /^june\/jsx-dev-runtime$/, replacement: here('./jsx-runtime/jsx-dev-runtime.ts') },
      { find: /^june\/tools$/, replacement: here('./src/tools/index.ts') },
      { find: /^june\/sdk\/openai$/, replacement: here('./src/sdk/openai.ts') },
      { find: /^june\/testing$/, replacement: here('./src/testing/index.ts') },
      { find: /^june\/studio$/, replacement: here('./src/studio/index.ts') },
      { find: /^june\/web$/, replacement: here('./src/web/index.ts') },
      { find: /^june\/dbos$/, replacement: here('./src/dbos/index.ts') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'june' } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // generous: the CLI tests spawn june processes, which take seconds each on a loaded 2-core machine
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // finds the Chromium of the Studio browser tests once (a system one, else a packaged one)
    globalSetup: ['test/helpers/chromium-setup.ts'],
  },
});
