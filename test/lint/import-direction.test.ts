import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLayerTable } from '../../lint/layered-imports-rule.js';
import { layers } from '../../lint/layers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

// The repository's own ESLint config, run on snippets placed (by path, never written) in a
// source folder, as `npm run lint` would see a file there.
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function lintAt(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}${filePath}` });
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.message);
}

describe('imports point one way between source folders', () => {
  it('lets a folder import a lower layer', async () => {
    const code =
      "import { WorkflowError } from '../errors/june-error.js';\nexport { WorkflowError };\n";
    expect(await lintAt('src/elements/snippet.ts', code)).toEqual([]);
  });

  it('fails an import that points up the layers, and names both folders', async () => {
    const code = "import { run } from '../interpreter/run.js';\nexport { run };\n";
    const errors = await lintAt('src/elements/snippet.ts', code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^elements\/ \(elements\) imports interpreter\/ \(interpreter\)/);
  });

  it('checks re-exports and dynamic imports too', async () => {
    const code =
      "export { runCommand } from '../cli/run-command.js';\n" +
      "export const later = () => import('../cli/program.js');\n";
    expect(await lintAt('src/trace/snippet.ts', code)).toHaveLength(2);
  });

  it('fails an import between two folders of one layer that are not listed as peers', async () => {
    const code =
      "import { loadJournal } from '../journal/load-journal.js';\nexport { loadJournal };\n";
    const [error] = await lintAt('src/trace/snippet.ts', code);
    expect(error).toMatch(/trace\/ imports journal\/, both in the run parts layer/);
  });

  it('keeps the interpreter and step runner off the journal and the CLI', async () => {
    const journal =
      "import { RunJournal } from '../journal/run-journal.js';\nexport { RunJournal };\n";
    const cli = "import { formatDuration } from '../cli/format.js';\nexport { formatDuration };\n";
    expect(await lintAt('src/interpreter/snippet.ts', journal)).toEqual([
      expect.stringMatching(/^interpreter\/ must not import journal\//),
    ]);
    expect(await lintAt('src/steps/snippet.ts', journal)).toHaveLength(1);
    expect(await lintAt('src/interpreter/snippet.ts', cli)).toHaveLength(1);
  });

  it('lets the CLI into Studio only through its door, and checks type imports', async () => {
    const start = "export const studio = () => import('../studio/index.js');\n";
    const flags = "import { runFlags } from '../studio/run-flags.js';\nexport { runFlags };\n";
    const typed = "export type Desk = import('../studio/approval-desk.js').ApprovalDesk;\n";
    expect(await lintAt('src/cli/snippet.ts', start)).toEqual([]);
    expect(await lintAt('src/cli/snippet.ts', flags)).toEqual([
      expect.stringMatching(
        /^cli\/ must not import studio\/: the CLI's one call into Studio is starting it/,
      ),
    ]);
    expect(await lintAt('src/cli/snippet.ts', typed)).toHaveLength(1);
  });

  it('keeps the entry points off the durable engines and the journal: they use a run host', async () => {
    const client = "export const open = () => import('../dbos/run-client.js');\n";
    const store =
      "import { fileJournalStore } from '../journal/index.js';\nexport { fileJournalStore };\n";
    const host =
      "import { openRunHost } from '../host/open-run-host.js';\nexport { openRunHost };\n";
    for (const folder of ['cli', 'studio', 'web']) {
      expect(await lintAt(`src/${folder}/snippet.ts`, client)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^${folder}/ must not import dbos/: entry points reach runs through a run host`,
          ),
        ),
      ]);
      expect(await lintAt(`src/${folder}/snippet.ts`, store)).toHaveLength(1);
      expect(await lintAt(`src/${folder}/snippet.ts`, host)).toEqual([]);
    }
  });

  it("applies to Studio's browser UI and to the JSX runtime", async () => {
    const code = "import { run } from '../../src/interpreter/run.js';\nexport { run };\n";
    expect(await lintAt('studio/src/snippet.tsx', code)).toEqual([
      expect.stringMatching(/^studio-ui\/ must not import interpreter\//),
    ]);
    const trace =
      "import type { Trace } from '../../src/trace/trace-node.js';\nexport type { Trace };\n";
    expect(await lintAt('studio/src/snippet.tsx', trace)).toEqual([]);
    const cli = "export { formatDuration } from '../src/cli/format.js';\n";
    expect(await lintAt('jsx-runtime/snippet.ts', cli)).toHaveLength(1);
  });

  it('fails a folder the layer table does not place', async () => {
    const code = "import { x } from '../brand-new/x.js';\nexport { x };\n";
    expect(await lintAt('src/interpreter/snippet.ts', code)).toEqual([
      expect.stringMatching(/^Folder brand-new\/ has no layer/),
    ]);
  });
});

describe('packages are imported only where the package table allows', () => {
  it('fails an import of @ai-sdk/provider outside the model door, and names the door', async () => {
    const code =
      "import type { LanguageModelV4 } from '@ai-sdk/provider';\nexport type { LanguageModelV4 };\n";
    const errors = await lintAt('src/engine/snippet.ts', code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^engine\/ must not import @ai-sdk\/provider: provider specifications/,
    );
    expect(errors[0]).toContain('lets only models/, sdk/, testing/ import it');
    for (const folder of ['journal', 'steps', 'dbos', 'interpreter', 'web'])
      expect(await lintAt(`src/${folder}/snippet.ts`, code)).toHaveLength(1);
  });

  it('lets the door, the bundled providers and the scripted models import it', async () => {
    const code =
      "import type { LanguageModelV4 } from '@ai-sdk/provider';\nexport type { LanguageModelV4 };\n";
    for (const folder of ['models', 'sdk', 'testing'])
      expect(await lintAt(`src/${folder}/snippet.ts`, code)).toEqual([]);
  });

  it('checks subpaths, re-exports and dynamic imports of a package too', async () => {
    const code =
      "export type { ToolSet } from 'ai';\n" + "export const later = () => import('ai/test');\n";
    const errors = await lintAt('src/journal/snippet.ts', code);
    expect(errors).toEqual([
      expect.stringMatching(/^journal\/ must not import ai: /),
      expect.stringMatching(/^journal\/ must not import ai\/test \(of ai\): /),
    ]);
  });

  it('lets the names a package rule lists be imported only in their own folders', async () => {
    const code = "import { wrapLanguageModel } from 'ai';\nexport { wrapLanguageModel };\n";
    expect(await lintAt('src/steps/snippet.ts', code)).toEqual([
      expect.stringMatching(/^steps\/ must not import wrapLanguageModel from ai: .*only models\//),
    ]);
    expect(await lintAt('src/models/snippet.ts', code)).toEqual([]);
    const other = "import { streamText } from 'ai';\nexport { streamText };\n";
    expect(await lintAt('src/steps/snippet.ts', other)).toEqual([]);
  });

  it('leaves packages the table does not name alone', async () => {
    const code = "import { z } from 'zod';\nexport { z };\n";
    expect(await lintAt('src/journal/snippet.ts', code)).toEqual([]);
  });
});

describe('the layer table', () => {
  it('has no circle among its folders', () => {
    expect(() => checkLayerTable(layers)).not.toThrow();
  });

  it('is refused when peers would import in a circle', () => {
    const table = {
      layers: [{ name: 'parts', folders: ['a', 'b', 'c'] }],
      peers: { a: ['b'], b: ['c'], c: ['a'] },
      roots: { 'src/': null },
    };
    expect(() => checkLayerTable(table)).toThrow('peers import in a circle: a -> b -> c -> a');
  });

  it('is refused when a package rule names a folder without a layer', () => {
    const table = {
      layers: [{ name: 'parts', folders: ['a'] }],
      packages: [{ name: 'ai', folders: ['a', 'nowhere'], reason: 'r' }],
      roots: { 'src/': null },
    };
    expect(() => checkLayerTable(table)).toThrow(
      'package "ai" names folder "nowhere", which has no layer',
    );
  });
});
