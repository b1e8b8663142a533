// Which lane a test file runs in. The unit lane imports src/ directly and starts nothing: no
// build, no process (no `june` command, bash, stdio server, PostgreSQL or Chromium), so a
// developer runs it in seconds with `npm run test:unit`. The integration lane is everything
// that needs the build (`dist/`, Studio's UI) or starts something outside the test process;
// `npm test` builds, then runs both. A unit test that starts a process fails with a message
// naming this file (test/lanes/no-processes.ts), so a file can only sit in the wrong lane once.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of test/ whose files need the build or start processes: new files there are integration. */
const integrationFolders = ['cli', 'dbos', 'studio', 'examples', 'compat'];

/** Files in those folders that test one module in-process, and so run in the unit lane. */
const unitInIntegrationFolders = [
  'cli/cli-redaction.test.ts',
  'cli/follow-run.test.ts',
  'cli/run-flags.test.ts',
  'cli/trace-writer.test.ts',
  'dbos/database-url.test.ts',
  'dbos/enqueue-notices.test.ts',
  'dbos/executor-holder.test.ts',
  'dbos/queue-wakeups-shapes.test.ts',
  'studio/studio-database-answers.test.ts',
  'studio/studio-run-id.test.ts',
  'studio/workbench-proposals.test.ts',
];

/** Files elsewhere that need the build or start a process (bash, a stdio server, `june`, a database). */
const integrationFiles = [
  'approvals/unanswered-at-exit.test.ts',
  'docs/doc-snippets.test.ts',
  'durable/cli-owner.test.ts',
  'durable/cli-resume.test.ts',
  'durable/crash-fuzz.test.ts',
  'durable/replay-without-provider.test.ts',
  'durable/run-owner.test.tsx',
  'host/file-host.test.ts',
  'mcp/guards.test.tsx',
  'mcp/http-session.test.tsx',
  'mcp/stdio-cwd.test.tsx',
  'mcp/stdio-server.test.tsx',
  'mcp/tool-error-results.test.tsx',
  'mcp/tool-names.test.tsx',
  'redaction/known-credentials.test.tsx',
  'sdk/openai.test.ts',
  'security/seeded-secrets-offline.test.ts',
  'security/seeded-secrets.test.ts',
  'telemetry/dbos-worker.test.tsx',
  'telemetry/otlp-export.test.tsx',
  'telemetry/secrets.test.ts',
  'tools/bash-capability.test.tsx',
  'tools/bash-tool-process-end.test.ts',
  'tools/bash-tool.test.ts',
  'web/chat-first-message.test.ts',
  'web/dbos-chat.test.tsx',
  'web/dbos-held-approval.test.tsx',
  'web/dbos-approval-edits.test.tsx',
  'web/edit-and-ask-killed.test.ts',
  'web/example-browser.test.ts',
  'web/chat-thread-browser.test.ts',
];

/**
 * The long lane (`npm run test:long`, run by CI after `npm test`): soaks, long repetitions and
 * memory runs, each a minute or more on a loaded 2-core machine. They start processes or
 * databases like the integration lane; they are kept out of `npm test` so that it stays within
 * a few minutes, and nothing in them is skipped or shortened.
 */
const longFiles = [
  // ten workers started at once, ten times over, against one database
  'dbos/concurrent-start.test.ts',
  // a worker stopped by each signal in each phase of a run, then its run taken over
  'dbos/worker-signals.test.ts',
  // the whole journal-engine contract, against PostgreSQL
  'dbos/dbos-engine-contract.test.ts',
  // several workers sharing runs
  'dbos/scale-out.test.ts',
  // `june run` stopped by each signal in each phase
  'cli/stop-signals-phases.test.ts',
  // runs killed at random points, then resumed
  'durable/crash-fuzz.test.ts',
  // 1,000 journaled runs started at once
  'durable/run-ids.test.tsx',
];

/**
 * Unit files that need a module graph of their own (vitest's isolation), while the rest of the
 * unit lane shares one per worker (test/lanes/fresh-process.ts). They run in the
 * `unit-isolated` project, which `npm run test:unit` runs too. Each needs it for this reason:
 */
const isolatedUnitFiles = [
  // replaces two of June's modules with counting ones (`vi.mock`): a module another file has
  // already imported in the worker would not be replaced
  'interpreter/tree-passes.test.tsx',
  // asserts that nothing in the process keeps the tool call context's storage (async hooks on
  // Node 22) on after its runs: a run another file left waiting in the worker keeps it on
  'durable/tool-call-context.test.tsx',
];

/** True when `file` (a path under test/, with `/`) is a unit file that needs its own modules. */
export function needsIsolation(file: string): boolean {
  return isolatedUnitFiles.includes(file);
}

/** True when `file` (a path under test/, with `/`) belongs to the long lane. */
export function isLongTest(file: string): boolean {
  return longFiles.includes(file);
}

/** True when `file` (a path under test/, with `/`) belongs to the integration lane. */
export function isIntegrationTest(file: string): boolean {
  if (unitInIntegrationFolders.includes(file)) return false;
  return integrationFolders.includes(file.split('/')[0]!) || integrationFiles.includes(file);
}

/** The test files under `testDir` (`*.test.ts`, `*.test.tsx`), as paths relative to it with `/`. */
export function testFiles(testDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = `${prefix}${entry.name}`;
      // test/node_modules links to test/deps/node_modules (scripts/extra-deps.mjs): packages, not tests
      if (entry.name === 'node_modules' || name === 'fixtures' || name === 'deps') continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${name}/`);
      else if (/\.test\.tsx?$/.test(entry.name)) found.push(name);
    }
  };
  walk(testDir, '');
  return found.sort();
}
