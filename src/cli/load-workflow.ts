import { statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { jsxSetupFix, type Component } from '../elements/index.js';
import { errorMessage, WorkflowError } from '../errors/index.js';
import { inspect } from '../interpreter/index.js';
import { run } from '../run/index.js';
import { oneLine } from './format.js';
import { workflowTsconfig } from './workflow-tsconfig.js';

/** The parts of June's API the CLI drives a workflow with. */
export interface JuneApi {
  run: typeof run;
  inspect: typeof inspect;
}

/** A workflow file, loaded. */
export interface LoadedWorkflow {
  /** The file's default export: the root component. */
  component: Component;
  /** The file, absolute. */
  file: string;
  /** The file for messages: its path from the current directory (`examples/release.tsx`), or its absolute path when outside it. */
  label: string;
  /** The workflow's name in traces: its path from the current directory, or its file name when outside it. */
  name: string;
  /** The module's exports (the default export is {@link component}). */
  exports: Record<string, unknown>;
  /** The tsconfig.json it was compiled with. */
  tsconfig: string;
  /**
   * `run` and `inspect` from the copy of June the workflow itself imports, so a run has one
   * copy of June's modules; June's own when the workflow's folder has no `june` to import.
   */
  june: JuneApi;
}

let loads = 0;

/** Options of {@link loadWorkflow}. */
export interface LoadWorkflowOptions {
  /** Called with the `file:` URL of every module the workflow's import loads (its own file too). */
  onImport?: (url: string) => void;
  /**
   * Loads as `june dev` does: the JSX compiled in development mode (elements record where
   * they were declared), and the loader's hooks removed once the file has loaded, so loading
   * again and again (on every save) leaves nothing behind. Each load is a fresh copy of the
   * file and its imports, whatever loaded before. @default false
   */
  development?: boolean;
}

/**
 * Loads a `.tsx` (or `.ts`, `.jsx`, `.js`) workflow with tsx and returns its default export.
 * It compiles with the nearest tsconfig.json above the file, or with June's JSX settings
 * when there is none (see {@link workflowTsconfig}).
 *
 * @param file - the workflow's path, relative to `cwd` or absolute.
 * @param cwd - the current directory. @default process.cwd()
 * @throws {WorkflowError} `cli-workflow-missing` when the file does not exist or is a folder;
 *   `workflow-load-failed` when it fails to compile or throws while it loads;
 *   `jsx-setup-invalid` when it was compiled for React's JSX or with `"jsxImportSource": "june/jsx-runtime"`;
 *   `workflow-default-missing` when it has no default export;
 *   `workflow-default-invalid` when the default export is not a function component.
 * @example
 * ```ts
 * const workflow = await loadWorkflow('examples/release.tsx');
 * const handle = workflow.june.run(workflow.component);
 * ```
 */
export async function loadWorkflow(
  file: string,
  cwd: string = process.cwd(),
  options: LoadWorkflowOptions = {},
): Promise<LoadedWorkflow> {
  const absolute = resolve(cwd, file);
  const label = labelOf(absolute, cwd);
  checkFile(file, absolute);
  const development = options.development === true;
  const tsconfig = workflowTsconfig(absolute, { development });
  const url = pathToFileURL(absolute).href;
  let exports: Record<string, unknown>;
  let june: JuneApi;
  // a development load unregisters its hooks once imported, and tsx then turns source maps off
  // again unless they were on before: on, an error thrown later in the workflow's code (while
  // `june dev` resolves its map) names the line and column in its .tsx file, as `june run` does
  if (development) process.setSourceMapsEnabled(true);
  const namespace = `june-workflow-${++loads}`;
  loadAsModules(url, namespace);
  const api = register({
    namespace,
    tsconfig: tsconfig.path,
    ...(options.onImport ? { onImport: options.onImport } : {}),
  });
  try {
    try {
      exports = moduleExports(await api.import(url, import.meta.url));
    } catch (error) {
      throw loadError(error, label, tsconfig.generated ? undefined : tsconfig.path, cwd);
    }
    june = await juneOf(api.import, url);
  } finally {
    tsconfig.dispose();
    if (development) await api.unregister();
  }
  const name = label === absolute ? basename(absolute) : label;
  return {
    component: defaultComponent(exports, label),
    exports,
    file: absolute,
    label,
    name,
    tsconfig: tsconfig.path,
    june,
  };
}

/** The workflow files being loaded, by `file:` URL, and the tsx namespaces of their loads. */
const entries = new Set<string>();
const namespaces = new Set<string>();
let hooked = false;

/**
 * Makes the workflow file at `url`, and the `.ts`, `.tsx` and `.jsx` files it imports from
 * outside node_modules, load as ES modules (as their `import`/`export` syntax says) even when
 * no package.json above them has `"type": "module"`, so a workflow in a CommonJS package (or
 * with no package.json at all) loads as one in an ES module package does. tsx loads such a file
 * as CommonJS otherwise, which fails within a namespace. The hook is registered before tsx's
 * own, so tsx's resolve sees the format it returns; it changes nothing for any other import.
 */
function loadAsModules(url: string, namespace: string): void {
  entries.add(url);
  namespaces.add(namespace);
  // Node before 22.15 has no registerHooks; tsx's loader there has its own way with CommonJS
  if (hooked || typeof registerHooks !== 'function') return;
  hooked = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      const { format } = resolved;
      if (
        (format === undefined ||
          format === null ||
          format === 'commonjs' ||
          format === 'commonjs-typescript') &&
        inWorkflow(resolved.url, context.parentURL)
      )
        return { ...resolved, format: 'module' };
      return resolved;
    },
  });
}

/** Whether `url` is a workflow file, or a TypeScript or JSX file of the project one imports. */
function inWorkflow(url: string, parent: string | undefined): boolean {
  if (!url.startsWith('file:')) return false;
  const { pathname } = new URL(url);
  if (!/\.(?:ts|tsx|jsx)$/.test(pathname) || pathname.includes('/node_modules/')) return false;
  if (entries.has(url.replace(/[?#].*$/, ''))) return true;
  if (parent === undefined || !parent.startsWith('file:')) return false;
  const from = new URL(parent).searchParams.get('tsx-namespace');
  return from !== null && namespaces.has(from);
}

/** `workflow-load-failed`; `jsx-setup-invalid` when the error shows the JSX was compiled with the wrong settings. */
function loadError(
  error: unknown,
  label: string,
  tsconfig: string | undefined,
  cwd: string,
): WorkflowError {
  const text = oneLine(errorMessage(error));
  const fix = jsxSetupFix(text);
  if (fix === undefined)
    return new WorkflowError('workflow-load-failed', `june: cannot load ${label}: ${text}`, {
      cause: error,
    });
  const using = tsconfig === undefined ? '' : ` with ${relative(cwd, tsconfig) || tsconfig}`;
  return new WorkflowError(
    'jsx-setup-invalid',
    `june: cannot load ${label}, compiled${using}: ${fix}.`,
    { cause: error },
  );
}

function checkFile(given: string, absolute: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(absolute).isFile();
  } catch {
    throw new WorkflowError(
      'cli-workflow-missing',
      `june: cannot find the workflow file ${given} (looked for ${absolute}). Check the path: it is relative to the current directory.`,
    );
  }
  if (!isFile)
    throw new WorkflowError(
      'cli-workflow-missing',
      `june: ${given} is a folder, not a workflow file. Pass a .tsx file, e.g. ${given.replace(/[\\/]$/, '')}/workflow.tsx.`,
    );
}

/** A module's exports; a file compiled as CommonJS (no "type": "module" above it) has them under `default`. */
function moduleExports(namespace: Record<string, unknown>): Record<string, unknown> {
  const inner = namespace.default;
  if (
    typeof inner === 'object' &&
    inner !== null &&
    (inner as Record<string, unknown>).__esModule === true
  )
    return inner as Record<string, unknown>;
  return namespace;
}

function defaultComponent(exports: Record<string, unknown>, label: string): Component {
  const example = 'export default function Workflow() { return <Agent model={...}>...</Agent>; }';
  if (!('default' in exports) || exports.default === undefined) {
    const named = Object.keys(exports).filter(
      (key) => key !== 'default' && key !== '__esModule' && typeof exports[key] === 'function',
    );
    const has =
      named.length === 1
        ? ` It exports ${named[0]}: did you mean export default ${named[0]}?`
        : named.length
          ? ` It exports ${named.join(', ')}; make the workflow's root component the default export.`
          : '';
    throw new WorkflowError(
      'workflow-default-missing',
      `june: ${label} has no default export; june runs the component it exports by default.${has} For example: ${example}`,
    );
  }
  const value = exports.default;
  if (typeof value === 'function') return value as Component;
  const isElement =
    typeof value === 'object' &&
    value !== null &&
    (value as Record<string, unknown>).$$typeof === Symbol.for('june.element');
  const hint = isElement
    ? 'export the component itself (export default Workflow), not an element (<Workflow />)'
    : `export a function component, e.g. ${example}`;
  const type = typeof value;
  const got =
    value === null
      ? 'null'
      : isElement
        ? 'an element'
        : Array.isArray(value)
          ? 'an array'
          : `${type === 'object' || type === 'undefined' ? 'an' : 'a'} ${type}`;
  throw new WorkflowError(
    'workflow-default-invalid',
    `june: the default export of ${label} is ${got}, not a component; ${hint}.`,
  );
}

async function juneOf(
  load: (specifier: string, parent: string) => Promise<any>,
  parent: string,
): Promise<JuneApi> {
  try {
    const found = moduleExports(await load('june', parent));
    if (typeof found.run === 'function' && typeof found.inspect === 'function')
      return found as unknown as JuneApi;
  } catch {
    // The workflow's folder cannot import `june` (it may import nothing of June's at all).
  }
  return { run, inspect };
}

function labelOf(absolute: string, cwd: string): string {
  const path = relative(cwd, absolute);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return absolute;
  return path.split(sep).join('/');
}
