// What the baseline contenders share: the folder JUNE_BASELINE names (bench/baseline.sh), the
// packages installed there (its own, or this checkout's when the lockfiles match), and the
// bench model in the specification its `ai` runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchModel, benchModelV3 } from '../mock-model.js';

/** Makes the bench model in the specification a build runs. */
export type BenchModelMaker = typeof benchModel | typeof benchModelV3;

/** The baseline build's folder; throws when JUNE_BASELINE is not set. */
export function baselineDir(): string {
  const dir = process.env.JUNE_BASELINE;
  if (!dir)
    throw new Error('set JUNE_BASELINE to a built checkout of June (bench/baseline.sh makes one)');
  return dir;
}

/** The version of a package installed in the baseline's folder, e.g. "6.0.326". */
export function baselinePackageVersion(name: string): string {
  const manifest = JSON.parse(
    readFileSync(join(baselineDir(), 'node_modules', name, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/**
 * Imports a package from the baseline's folder through its ES module entry (the file the
 * baseline's June itself imports, so both share one instance).
 */
export async function importBaselinePackage(name: string): Promise<unknown> {
  const root = join(baselineDir(), 'node_modules', name);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports?: { '.'?: string | { import?: string | { default?: string }; default?: string } };
    module?: string;
    main?: string;
  };
  const entry = manifest.exports?.['.'];
  const path =
    typeof entry === 'string'
      ? entry
      : typeof entry?.import === 'string'
        ? entry.import
        : (entry?.import?.default ?? entry?.default ?? manifest.module ?? manifest.main);
  if (!path) throw new Error(`bench: no ES module entry for ${name} in ${root}`);
  return import(pathToFileURL(join(root, path)).href);
}

/** The bench model for the baseline: V4 when its own `ai` is 7 or later, else V3 (ai@6 refuses v4). */
export function baselineBenchModel(): BenchModelMaker {
  return Number(baselinePackageVersion('ai').split('.')[0]) >= 7 ? benchModel : benchModelV3;
}
