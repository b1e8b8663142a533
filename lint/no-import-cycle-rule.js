// @ts-check
// An ESLint rule that fails an import closing a circle of files: `a.ts` imports `b.ts`, which
// imports `a.ts`, directly or through others. Every kind of import counts: `import type`,
// `export ... from`, `import()` and `import('x').T` types too, since a circle of types is the
// habit it guards against (a type declared in the file that orchestrates, imported back by
// the helpers it calls: put such types in a file of their own). Only relative imports of
// files on disk are followed; packages are never part of a circle.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @type {Map<string, { mtimeMs: number, imports: string[] }>} */
const cache = new Map();

/**
 * The files a relative import specifier names, from the importing file: `./x.js` is `x.ts`,
 * `x.tsx` or `x.js`; a folder is its `index.ts`.
 * @param {string} from the importing file (absolute)
 * @param {string} specifier
 * @returns {string | undefined} the imported file (absolute), or undefined for a package or a missing file
 */
export function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates =
    stem === base
      ? [
          base,
          `${base}.ts`,
          `${base}.tsx`,
          path.join(base, 'index.ts'),
          path.join(base, 'index.tsx'),
        ]
      : [
          `${stem}.ts`,
          `${stem}.tsx`,
          `${stem}${base.slice(stem.length).replace('js', 'ts')}`,
          base,
        ];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/**
 * Every import of a module's text, with where it stands in the text.
 * @param {string} text
 * @returns {Array<{ specifier: string, pos: number, end: number }>}
 */
function importsOfText(text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => ({ specifier: file.fileName, pos: file.pos, end: file.end }));
}

/**
 * The files a file on disk imports (read once per change of the file).
 * @param {string} file absolute
 * @returns {string[]}
 */
export function importsOf(file) {
  const { mtimeMs } = statSync(file);
  const known = cache.get(file);
  if (known && known.mtimeMs === mtimeMs) return known.imports;
  const imports = importsOfText(readFileSync(file, 'utf8'))
    .map(({ specifier }) => resolveImport(file, specifier))
    .filter((found) => found !== undefined);
  cache.set(file, { mtimeMs, imports });
  return imports;
}

/**
 * The shortest chain of imports from `start` back to `target`, or undefined when there is none.
 * @param {string} start
 * @param {string} target
 * @returns {string[] | undefined} the files from `start` to `target`, both included
 */
export function importPath(start, target) {
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    for (const next of importsOf(file)) {
      if (next === target) {
        /** @type {string[]} */
        const chain = [target];
        for (let at = /** @type {string | null | undefined} */ (file); at; at = cameFrom.get(at))
          chain.unshift(at);
        return chain;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow an import that closes a circle of files (type imports count); put shared types in a file of their own.',
    },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const { sourceCode } = context;
    return {
      Program() {
        for (const { specifier, pos, end } of importsOfText(sourceCode.text)) {
          const imported = resolveImport(file, specifier);
          if (imported === undefined || imported === file) continue;
          const chain = importPath(imported, file);
          if (!chain) continue;
          const names = [file, ...chain].map((f) => path.relative(context.cwd, f));
          context.report({
            loc: { start: sourceCode.getLocFromIndex(pos), end: sourceCode.getLocFromIndex(end) },
            message: `june/no-import-cycle: ${names[0]} imports ${specifier}, which leads back to it: ${names.join(' -> ')}. Move what they share (often a type) into a file of its own that imports neither.`,
          });
        }
      },
    };
  },
};
