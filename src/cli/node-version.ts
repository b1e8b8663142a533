/** The oldest Node.js major June runs on: the AI SDK 7 packages it stands on declare `>=22`. */
export const MINIMUM_NODE_MAJOR = 22;

/**
 * One line saying what to install when `version` (as `process.versions.node` gives it, e.g.
 * `"20.20.2"`) is older than {@link MINIMUM_NODE_MAJOR}; undefined when it will do. On Linux
 * (x64, arm64) the line also names the npm registry's package of Node's binary.
 *
 * @example
 * ```ts
 * nodeVersionProblem('20.20.2'); // 'june: June needs Node.js 22 or newer (24 LTS recommended); ...'
 * ```
 */
export function nodeVersionProblem(
  version: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string | undefined {
  const major = Number(version.split('.')[0]);
  if (Number.isInteger(major) && major >= MINIMUM_NODE_MAJOR) return undefined;
  const install = `Install Node.js 24 from https://nodejs.org`;
  // the npm registry carries Node's own Linux binaries, one package per processor
  const registry =
    platform === 'linux' && (arch === 'x64' || arch === 'arm64')
      ? `, or from the npm registry: npm install --prefix ~/.node24 node-linux-${arch}@24, then put ~/.node24/node_modules/node-linux-${arch}/bin first on PATH`
      : '';
  return `june: June needs Node.js ${MINIMUM_NODE_MAJOR} or newer (24 LTS recommended); this is Node.js ${version}. ${install}${registry}.`;
}
