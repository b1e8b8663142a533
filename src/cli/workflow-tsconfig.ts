import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';

/** The tsconfig a workflow is compiled with, and how to clean it up. */
export interface WorkflowTsconfig {
  /** The tsconfig.json file handed to tsx. */
  path: string;
  /** True when June wrote it (the workflow's folder and its parents have none). */
  generated: boolean;
  /** Removes a generated file; does nothing for the user's own. */
  dispose(): void;
}

/**
 * June's JSX settings, for workflows in a folder with no tsconfig.json. `react-jsxdev` makes
 * elements carry their source location, so error messages can say `at release.tsx:12:7`.
 */
export const workflowCompilerOptions = {
  jsx: 'react-jsxdev',
  jsxImportSource: 'june',
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
} as const;

/**
 * The nearest tsconfig.json in `dir` or a parent folder, or `undefined` when there is none.
 *
 * @example
 * ```ts
 * findTsconfig('/home/me/project/workflows'); // '/home/me/project/tsconfig.json'
 * ```
 */
export function findTsconfig(dir: string): string | undefined {
  const { root } = parse(dir);
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (at === root) return undefined;
  }
}

/**
 * The tsconfig to compile the workflow `file` with: the user's own (the nearest tsconfig.json
 * from the workflow's folder up), else one June writes to a temporary folder with
 * {@link workflowCompilerOptions}. With `development` (`june dev`), always one June writes: the
 * user's own extended with `"jsx": "react-jsxdev"`, so every element records where it was
 * declared (Studio links tools to their file and line). Its `include` names the workflow's folder and the
 * project folder above it (the nearest with a package.json), since tsx applies a tsconfig
 * only to the files it includes.
 *
 * @example
 * ```ts
 * const tsconfig = workflowTsconfig('/tmp/demo/hello.tsx');
 * try { ... } finally { tsconfig.dispose(); }
 * ```
 */
export function workflowTsconfig(
  file: string,
  options: { development?: boolean } = {},
): WorkflowTsconfig {
  const dir = dirname(file);
  const own = findTsconfig(dir);
  if (own && options.development !== true)
    return { path: own, generated: false, dispose: () => {} };
  const folders = [dir, projectFolder(dir)].filter(
    (folder): folder is string => folder !== undefined,
  );
  const include = [...new Set(folders)].map((folder) => `${folder.split('\\').join('/')}/**/*`);
  const temp = mkdtempSync(join(tmpdir(), 'june-tsconfig-'));
  const path = join(temp, 'tsconfig.json');
  const config = own
    ? { extends: own, compilerOptions: { jsx: 'react-jsxdev' }, include }
    : { compilerOptions: workflowCompilerOptions, include };
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return { path, generated: true, dispose: () => rmSync(temp, { recursive: true, force: true }) };
}

function projectFolder(dir: string): string | undefined {
  const { root } = parse(dir);
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (at === root) return undefined;
  }
}
