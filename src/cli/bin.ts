#!/usr/bin/env node
import { nodeVersionProblem } from './node-version.js';

// Checked before the CLI and the AI SDK load, so an old Node gets one line, not a stack trace.
const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 1;
} else {
  const [{ processIO }, { main }] = await Promise.all([
    import('./cli-io.js'),
    import('./program.js'),
  ]);
  process.exitCode = await main(process.argv.slice(2), processIO());
}
