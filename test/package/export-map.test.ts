// The package's public surface, read from package.json's export map: each subpath names its
// types first, every name is exported by one subpath only (the two JSX runtimes aside, which
// TypeScript's `jsxImportSource` needs to export the same few names), and Studio's and
// DBOS's internals stay off their subpaths.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${repoRoot}package.json`, 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
};
const jsxRuntimes = ['./jsx-runtime', './jsx-dev-runtime'];

/** Each code subpath (not `./package.json`) with the source file its build comes from. */
const entries = Object.entries(pkg.exports)
  .filter(([subpath]) => subpath !== './package.json')
  .map(([subpath, target]) => {
    const built = typeof target === 'string' ? target : target.default;
    return {
      subpath,
      target,
      source: `${repoRoot}${built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')}`,
    };
  });

/** Every name (values and types) each subpath exports, read by TypeScript from the sources. */
let exported: Map<string, string[]>;
beforeAll(() => {
  const program = ts.createProgram(
    entries.map((entry) => entry.source),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      jsx: ts.JsxEmit.ReactJSX,
      jsxImportSource: 'june',
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  exported = new Map(
    entries.map(({ subpath, source }) => {
      const file = program.getSourceFile(source);
      if (!file) throw new Error(`package.json ${subpath}: no source file ${source}`);
      const symbol = checker.getSymbolAtLocation(file)!;
      return [
        subpath,
        checker
          .getExportsOfModule(symbol)
          .map((s) => s.name)
          .sort(),
      ];
    }),
  );
});

describe("package.json's export map", () => {
  it('gives each code subpath its types first, then its JavaScript', () => {
    for (const { subpath, target } of entries) {
      expect(typeof target, subpath).toBe('object');
      expect(Object.keys(target), subpath).toEqual(['types', 'default']);
      const { types, default: code } = target as { types: string; default: string };
      expect(types, subpath).toBe(code.replace(/\.js$/, '.d.ts'));
    }
  });

  it('exports each name from one subpath only', () => {
    const owners = new Map<string, string[]>();
    for (const [subpath, names] of exported) {
      if (jsxRuntimes.includes(subpath)) continue;
      for (const name of names) owners.set(name, [...(owners.get(name) ?? []), subpath]);
    }
    const twice = [...owners].filter(([, subpaths]) => subpaths.length > 1);
    expect(twice).toEqual([]);
    expect(owners.size).toBeGreaterThan(100);
  });

  it('gives the JSX runtimes only what the JSX transform reads', () => {
    const contract = ['Fragment', 'JSX', 'jsx', 'jsxDEV', 'jsxs'];
    for (const subpath of jsxRuntimes) {
      expect(
        exported.get(subpath)!.every((name) => contract.includes(name)),
        subpath,
      ).toBe(true);
    }
  });

  it('keeps the journal API in june alone, and june/testing to scripted models', () => {
    const june = exported.get('.')!;
    for (const name of ['fileJournalStore', 'memoryJournalStore', 'loadJournal', 'journalEngine'])
      expect(june).toContain(name);
    const journalApi = exported.get('.')!.filter((name) => /journal|lease|owner/i.test(name));
    expect(journalApi.length).toBeGreaterThan(10);
    expect(exported.get('./testing')!.filter((name) => journalApi.includes(name))).toEqual([]);
    expect(exported.get('./testing')).toContain('scriptedModel');
  });

  it("keeps Studio's and DBOS's internals off june/studio and june/dbos", () => {
    expect(exported.get('./studio')).toEqual(
      [
        'RunList',
        'RunListEntry',
        'RunSummary',
        'Studio',
        'StudioEvent',
        'StudioOptions',
        'UnreadableRun',
        'startStudio',
      ].sort(),
    );
    const dbos = exported.get('./dbos')!;
    expect(dbos).toEqual(
      expect.arrayContaining(['RunClient', 'startWorker', 'JuneWorker', 'WorkerOptions']),
    );
    for (const internal of [
      'DbosEngine',
      'registerRunWorkflow',
      'loadDbos',
      'databaseError',
      'queueName',
      'approvalRequestId',
      'WorkerShutdown',
      'QueuedRun',
    ])
      expect(dbos).not.toContain(internal);
  });
});
