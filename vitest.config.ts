import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { isIntegrationTest, isLongTest, needsIsolation, testFiles } from './test/lanes/lanes.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const files = testFiles(here('./test'));
const lane = (name: 'unit' | 'integration' | 'long') =>
  files
    .filter((file) =>
      isLongTest(file)
        ? name === 'long'
        : name !== 'long' && isIntegrationTest(file) === (name === 'integration'),
    )
    .map((file) => `test/${file}`);
const unitFiles = (isolated: boolean) =>
  lane('unit').filter((file) => needsIsolation(file.slice('test/'.length)) === isolated);

// The lanes (test/lanes/lanes.ts sorts the files): `unit` imports the sources and starts
// nothing, so it needs no build (`npm run test:unit`); `types` checks the public generics with
// TypeScript (`npm run test:types`); `integration` spawns the built CLI in `dist/`, bash, stdio
// servers, PostgreSQL and Chromium. `npm test` builds, then runs those three. `long` holds the
// soaks and long repetitions (`npm run test:long`; CI runs it too).
export default defineConfig({
  resolve: {
    // Tests import `june` by name, as users do; here the names point at the sources.
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
      { find: /^june\/evals$/, replacement: here('./src/evals/index.ts') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'june' } },
  test: {
    // generous: the integration tests spawn june processes, which take seconds each on a
    // loaded 2-core machine, and unit tests share that machine with them under `npm test`
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles(false),
          setupFiles: ['test/lanes/no-processes.ts', 'test/lanes/fresh-process.ts'],
          // two at a time: many of these tests wait (timers, streams), so a second worker
          // keeps both cores busy; under `npm test` the lane runs first, on its own
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          // June's sources are imported once per worker, not once per file: that import was
          // most of the lane's time. The setup file fresh-process.ts puts back what a file
          // changes in the process (timers, mocks, environment, OpenTelemetry's globals, the
          // process's configured secrets) before the next file runs.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // the few unit files that need modules of their own (listed, with why, in
          // test/lanes/lanes.ts); `npm run test:unit` runs them with the unit project
          name: 'unit-isolated',
          include: unitFiles(true),
          setupFiles: ['test/lanes/no-processes.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // The public generics, checked by TypeScript (`*.test-d.ts(x)`, expectTypeOf): a lane
          // of its own, as the check takes longer than all the unit tests' imports together.
          name: 'types',
          include: [],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          typecheck: {
            enabled: true,
            only: true,
            include: ['test/**/*.test-d.{ts,tsx}'],
            tsconfig: 'tsconfig.json',
            // TypeScript 7's native compiler (the `typescript-native` devDependency): the same
            // errors as TypeScript 5 (still used by the build and typescript-eslint), in a
            // fraction of the time
            checker: 'node_modules/typescript-native/bin/tsc',
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: lane('integration'),
          // one test file at a time (vitest's default on two cores), as before the lanes:
          // these tests start processes and wait for them against deadlines
          sequence: { groupOrder: 1 },
          // finds the Chromium of the Studio browser tests once (a system one, else a packaged one)
          globalSetup: ['test/helpers/chromium-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'long',
          include: lane('long'),
          // one file at a time, as the integration lane: these start workers, databases and
          // `june` processes and wait for them
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
