// Run before this repository builds or tests (npm's prepare and pretest scripts): on a Node.js
// older than June supports, one line says what to install, instead of a failure halfway
// through. Mirrors src/cli/node-version.ts, which the june command checks the same way.
const minimum = 22;
const version = process.versions.node;
if (Number(version.split('.')[0]) < minimum) {
  const { platform, arch } = process;
  const registry =
    platform === 'linux' && (arch === 'x64' || arch === 'arm64')
      ? `, or from the npm registry: npm install --prefix ~/.node24 node-linux-${arch}@24, then put ~/.node24/node_modules/node-linux-${arch}/bin first on PATH`
      : '';
  console.error(
    `june: June needs Node.js ${minimum} or newer (24 LTS recommended); this is Node.js ${version}. Install Node.js 24 from https://nodejs.org${registry}.`,
  );
  process.exit(1);
}
