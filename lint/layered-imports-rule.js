// @ts-check
// An ESLint rule that keeps imports between source folders pointing one way (down the layers
// of lint/layers.js), and lets only the folders its package table names import the packages
// listed there (the AI SDK's provider specifications only at the model door). Relative imports
// are checked against the layers, package imports against the package table.
import path from 'node:path';

/**
 * @typedef {{ name: string, folders: string[] }} Layer
 * @typedef {{ from: string[], to: string[], reason: string, except?: string[], onlyTo?: string[] }} Forbidden
 * A forbidden pair's `except` names importing files it does not apply to; `onlyTo` names the
 * files of the `to` folders that stay open (a folder's one public door, such as its index).
 * @typedef {{
 *   name: string,
 *   folders: string[],
 *   names?: Record<string, string[]>,
 *   namesReason?: string,
 *   reason: string,
 * }} PackageRule
 * @typedef {{
 *   layers: Layer[],
 *   peers?: Record<string, string[]>,
 *   forbidden?: Forbidden[],
 *   packages?: PackageRule[],
 *   roots: Record<string, string | null>,
 * }} LayerTable
 * A root maps a path prefix to the folder every file under it belongs to, or to null when
 * the next path segment names the folder (a file directly under it belongs to `index`).
 * A package rule lets only `folders` import the package `name` (or a subpath of it, such as
 * `ai/test`), and each of its `names` only in the folders listed for that name. Packages the
 * table does not name may be imported anywhere.
 */

/**
 * Throws when the table lets folders import in a circle or names a folder twice.
 * @param {LayerTable} table
 * @returns {Map<string, number>} each folder's layer index (0 is the lowest)
 */
export function checkLayerTable(table) {
  /** @type {Map<string, number>} */
  const rank = new Map();
  table.layers.forEach((layer, index) => {
    for (const folder of layer.folders) {
      if (rank.has(folder)) throw new Error(`lint/layers: folder "${folder}" is in two layers`);
      rank.set(folder, index);
    }
  });
  const peers = table.peers ?? {};
  for (const [from, tos] of Object.entries(peers)) {
    for (const to of tos) {
      if (rank.get(from) === undefined || rank.get(from) !== rank.get(to)) {
        throw new Error(`lint/layers: peers "${from}" -> "${to}" are not in one layer`);
      }
    }
  }
  /** @type {Set<string>} */
  const done = new Set();
  /** @param {string} folder @param {string[]} trail */
  const visit = (folder, trail) => {
    if (trail.includes(folder)) {
      throw new Error(`lint/layers: peers import in a circle: ${[...trail, folder].join(' -> ')}`);
    }
    if (done.has(folder)) return;
    for (const next of peers[folder] ?? []) visit(next, [...trail, folder]);
    done.add(folder);
  };
  for (const folder of Object.keys(peers)) visit(folder, []);
  for (const rule of table.packages ?? []) {
    const named = Object.values(rule.names ?? {}).flat();
    for (const folder of [...rule.folders, ...named]) {
      if (!rank.has(folder)) {
        throw new Error(
          `lint/layers: package "${rule.name}" names folder "${folder}", which has no layer`,
        );
      }
    }
  }
  return rank;
}

/** A path without its `.ts`/`.tsx`/`.js` ending: `./x.js` in source names `x.ts`. */
function withoutExtension(/** @type {string} */ file) {
  return file.replace(/\.(tsx?|jsx?)$/, '');
}

/**
 * The package rule of an import source (`ai`, `ai/test`, `@ai-sdk/provider`), if the table has one.
 * @param {string} source
 * @param {PackageRule[] | undefined} packages
 */
export function packageRuleOf(source, packages) {
  return packages?.find((rule) => source === rule.name || source.startsWith(`${rule.name}/`));
}

/**
 * The folder a repository-relative path belongs to, or undefined outside every root.
 * @param {string} file - relative to the repository, with `/` separators
 * @param {LayerTable['roots']} roots
 */
export function folderOf(file, roots) {
  for (const [prefix, folder] of Object.entries(roots)) {
    if (!file.startsWith(prefix)) continue;
    if (folder !== null) return folder;
    const rest = file.slice(prefix.length).split('/');
    return rest.length > 1 ? rest[0] : 'index';
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layeredImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between source folders point down the layers of lint/layers.js' },
    schema: [{ type: 'object' }],
    messages: {
      upward:
        '{{from}}/ ({{fromLayer}}) imports {{to}}/ ({{toLayer}}): imports point down the layers ' +
        '({{order}}). Move what both need down, or pass it in from above.',
      sideways:
        '{{from}}/ imports {{to}}/, both in the {{layer}} layer, and lint/layers.js does not ' +
        'list that pair in `peers`. Move what both need down, or list the pair if no circle follows.',
      forbidden: '{{from}}/ must not import {{to}}/: {{reason}}.',
      package:
        '{{from}}/ must not import {{package}}: {{reason}}. lint/layers.js lets only ' +
        '{{folders}} import it.',
      packageName:
        '{{from}}/ must not import {{name}} from {{package}}: lint/layers.js lets only {{folders}} ' +
        'import it ({{reason}}).',
      unplaced: 'Folder {{folder}}/ has no layer: add it to lint/layers.js.',
    },
  },
  create(context) {
    const table = /** @type {LayerTable} */ (context.options[0]);
    const rank = checkLayerTable(table);
    const relative = (/** @type {string} */ file) =>
      path.relative(context.cwd, file).split(path.sep).join('/');
    const file = relative(context.filename);
    const from = folderOf(file, table.roots);
    if (from === undefined) return {};
    const order = table.layers.map((layer) => layer.name).join(' <- ');

    /**
     * @param {import('estree').Node} node
     * @param {unknown} source
     * @param {string[]} [names] - the names imported (or re-exported), when known
     */
    const checkPackage = (node, source, names = []) => {
      if (typeof source !== 'string' || from === undefined) return;
      const rule = packageRuleOf(source, table.packages);
      if (!rule) return;
      const shown = (/** @type {string[]} */ folders) => folders.map((f) => `${f}/`).join(', ');
      const data = {
        from,
        package: source === rule.name ? rule.name : `${source} (of ${rule.name})`,
        reason: rule.reason,
      };
      if (!rule.folders.includes(from)) {
        context.report({
          node,
          messageId: 'package',
          data: { ...data, folders: shown(rule.folders) },
        });
        return;
      }
      for (const name of names) {
        const allowed = rule.names?.[name];
        if (allowed && !allowed.includes(from)) {
          context.report({
            node,
            messageId: 'packageName',
            data: {
              ...data,
              name,
              folders: shown(allowed),
              reason: rule.namesReason ?? rule.reason,
            },
          });
        }
      }
    };

    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = relative(path.resolve(path.dirname(context.filename), source));
      const to = folderOf(target, table.roots);
      if (to === undefined || to === from) return;
      for (const folder of [from, to]) {
        if (!rank.has(folder)) context.report({ node, messageId: 'unplaced', data: { folder } });
      }
      const fromRank = rank.get(from);
      const toRank = rank.get(to);
      if (fromRank === undefined || toRank === undefined) return;
      const rule = table.forbidden?.find(
        (f) =>
          f.from.includes(from) &&
          f.to.includes(to) &&
          !f.onlyTo?.some((open) => withoutExtension(open) === withoutExtension(target)),
      );
      if (rule && !rule.except?.includes(file)) {
        context.report({ node, messageId: 'forbidden', data: { from, to, reason: rule.reason } });
      } else if (toRank > fromRank) {
        const fromLayer = table.layers[fromRank]?.name;
        const toLayer = table.layers[toRank]?.name;
        context.report({
          node,
          messageId: 'upward',
          data: { from, to, fromLayer, toLayer, order },
        });
      } else if (toRank === fromRank && !table.peers?.[from]?.includes(to)) {
        const layer = table.layers[fromRank]?.name;
        context.report({ node, messageId: 'sideways', data: { from, to, layer } });
      }
    };
    /** @param {import('estree').Identifier | import('estree').Literal} name */
    const nameOf = (name) => (name.type === 'Identifier' ? name.name : String(name.value));
    return {
      ImportDeclaration: (node) => {
        check(node, node.source.value);
        const names = node.specifiers.flatMap((specifier) =>
          specifier.type === 'ImportSpecifier' ? [nameOf(specifier.imported)] : [],
        );
        checkPackage(node, node.source.value, names);
      },
      ExportNamedDeclaration: (node) => {
        check(node, node.source?.value);
        const names = node.specifiers.map((specifier) => nameOf(specifier.local));
        checkPackage(node, node.source?.value, names);
      },
      ExportAllDeclaration: (node) => {
        check(node, node.source.value);
        checkPackage(node, node.source.value);
      },
      // `import('../x/y.js').Name` in a type position
      TSImportType: (/** @type {any} */ node) => {
        const argument = node.source ?? node.argument?.literal ?? node.argument;
        check(node, argument?.type === 'Literal' ? argument.value : undefined);
      },
      ImportExpression: (node) => {
        const source = node.source.type === 'Literal' ? node.source.value : undefined;
        check(node, source);
        checkPackage(node, source);
      },
    };
  },
};
