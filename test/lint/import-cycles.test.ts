// No file imports one that imports it back (lint/no-import-cycle-rule.js): the rule fails on
// a circle planted in a temporary folder, type imports included, and finds none in src/.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { importPath, noImportCycle } from '../../lint/no-import-cycle-rule.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Writes `files` into a new temporary folder and lints them with the cycle rule alone. */
async function lintFolder(files: Record<string, string>): Promise<Map<string, string[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'june-cycle-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        plugins: { june: { rules: { 'no-import-cycle': noImportCycle } } },
        rules: { 'june/no-import-cycle': 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles(['.']);
  return new Map(
    results.map((result) => [
      result.filePath.slice(dir.length + 1),
      result.messages.map((message) => message.message),
    ]),
  );
}

describe('june/no-import-cycle', () => {
  it('fails both ends of a planted cycle in which one side imports only a type', async () => {
    const messages = await lintFolder({
      'run.ts':
        "import { helper } from './helper.js';\nexport interface Options { n: number }\nexport const run = () => helper({ n: 1 });\n",
      'helper.ts':
        "import type { Options } from './run.js';\nexport const helper = (options: Options) => options.n;\n",
    });
    expect(messages.get('run.ts')).toEqual([
      expect.stringMatching(
        /run\.ts imports \.\/helper\.js, which leads back to it: run\.ts -> helper\.ts -> run\.ts/,
      ),
    ]);
    expect(messages.get('helper.ts')).toEqual([
      expect.stringMatching(
        /helper\.ts -> run\.ts -> helper\.ts\. Move what they share \(often a type\)/,
      ),
    ]);
  });

  it('finds a longer circle, through a re-export and a dynamic import', async () => {
    const messages = await lintFolder({
      'a.ts': "export * from './b.js';\n",
      'b.ts': "export const later = () => import('./c.js');\n",
      'c.ts': "import type { later } from './a.js';\nexport type Later = typeof later;\n",
    });
    expect(messages.get('a.ts')).toEqual([expect.stringContaining('a.ts -> b.ts -> c.ts -> a.ts')]);
    expect(messages.get('c.ts')).toHaveLength(1);
  });

  it('passes once the shared type has a file of its own', async () => {
    const messages = await lintFolder({
      'options.ts': 'export interface Options { n: number }\n',
      'run.ts':
        "import { helper } from './helper.js';\nexport const run = () => helper({ n: 1 });\n",
      'helper.ts':
        "import type { Options } from './options.js';\nexport const helper = (options: Options) => options.n;\n",
      'index.ts':
        "export { run } from './run.js';\nexport type { Options } from './options.js';\nexport * from 'zod';\n",
    });
    expect([...messages.values()].flat()).toEqual([]);
  });

  it('finds no cycle among the source files', () => {
    const sources = ['src', 'jsx-runtime', 'studio/src'].flatMap((folder) =>
      readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.tsx?$/.test(name))
        .map((name) => join(repoRoot, folder, name)),
    );
    expect(sources.length).toBeGreaterThan(200);
    const cycles = sources
      .map((file) => importPath(file, file))
      .filter((chain) => chain !== undefined)
      .map((chain) => chain.map((file) => file.slice(repoRoot.length)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});
