import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../cli/cli-harness.js';
import { startFakeOpenAI } from '../helpers/fake-openai-server.js';
import { docSnippets, type DocSnippet } from './doc-snippets.js';

// Every snippet in README.md and docs/ marked `<!-- doc-test -->` (see doc-snippets.ts) is
// written into a project of its own outside the repository, set up as the docs tell a user
// to (tsconfig with jsxImportSource "june", vitest config), with June, ai and zod installed
// (links to this repository, built by pretest) and a copy of examples/. The snippets are
// type-checked together, then each runs, offline: with no OpenAI settings (or a fake
// Responses server on 127.0.0.1), against the scripted model or `--script`.

const snippets = docSnippets(repoRoot);
const runnable = snippets.filter((snippet) => snippet.file === undefined);
const names = new Map<DocSnippet, string>();

let project: string;

/** What a command in the project did. */
interface Ran {
  code: number | null;
  output: string;
}

function inProject(
  command: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<Ran> {
  const env = {
    PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '',
    NO_COLOR: '1',
    ...extraEnv,
  };
  const child = spawn(command, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function setUpProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'june-doc-snippets-'));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync(repoRoot, join(modules, 'june'), 'dir');
  // the MCP and A2A SDKs, optional peers: a project that serves workflows (or calls them, as
  // examples/serve does) installs them, as docs/serving.md says
  const installed = [
    'ai',
    'zod',
    '@ai-sdk',
    '@types',
    'vitest',
    'tsx',
    'evalite',
    '@modelcontextprotocol',
    '@a2a-js',
  ];
  for (const name of installed)
    symlinkSync(join(repoRoot, 'node_modules', name), join(modules, name), 'dir');
  symlinkSync(join(repoRoot, 'dist', 'src', 'cli', 'bin.js'), join(modules, '.bin', 'june'));
  // examples/web is an app of its own (a vite build, React): the snippets never import it
  const webApp = join(repoRoot, 'examples', 'web');
  cpSync(join(repoRoot, 'examples'), join(dir, 'examples'), {
    recursive: true,
    filter: (source) => source !== webApp && !source.startsWith(webApp + '/'),
  });
  // what the snippets import as './release-tools.js' and './release.js', also from test/
  for (const folder of [dir, join(dir, 'test')]) {
    cpSync(join(repoRoot, 'test', 'docs', 'support'), folder, { recursive: true });
    writeFileSync(
      join(folder, 'release.tsx'),
      `export { default } from '${folder === dir ? '.' : '..'}/examples/release.js';\n`,
    );
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    jsx: 'react-jsx',
    jsxImportSource: 'june',
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, include: ['**/*.ts', '**/*.tsx'] }, null, 2),
  );
  writeFileSync(
    join(dir, 'vitest.config.ts'),
    "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ oxc: { jsx: { runtime: 'automatic', importSource: 'june' } } });\n",
  );
  return dir;
}

/** The snippet's file name in the project, e.g. `test/offline-scripts-42.test.tsx`. */
function fileName(snippet: DocSnippet): string {
  const [page, line] = snippet.where.split(':');
  const base = `${page!.replace(/^docs\//, '').replace(/\.md$/, '')}-${line}`;
  const test = /from ['"]vitest['"]/.test(snippet.code);
  return `${test ? 'test/' : ''}${base}${test ? '.test' : ''}.${snippet.lang === 'ts' ? 'ts' : 'tsx'}`;
}

beforeAll(() => {
  project = setUpProject();
  for (const snippet of snippets) {
    if (snippet.file !== undefined) {
      mkdirSync(dirname(join(project, snippet.file)), { recursive: true });
      writeFileSync(join(project, snippet.file), snippet.code);
    } else if (snippet.lang === 'ts' || snippet.lang === 'tsx') {
      names.set(snippet, fileName(snippet));
      mkdirSync(dirname(join(project, fileName(snippet))), { recursive: true });
      writeFileSync(join(project, fileName(snippet)), snippet.code);
    }
  }
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the docs’ runnable snippets', () => {
  it('are marked in the docs, each with a language this test runs', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(5);
    for (const snippet of runnable)
      expect(['ts', 'tsx', 'sh'], snippet.where).toContain(snippet.lang);
  });

  // the type check and the runs go on side by side (each is a process of its own)
  it.concurrent('type-check, as the docs set a project up', { timeout: 240_000 }, async () => {
    const tsc = await inProject(process.execPath, [
      join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.json',
    ]);
    // name each error by the doc line it comes from
    const byFile = new Map([...names].map(([snippet, name]) => [name, snippet.where]));
    const errors = tsc.output.replace(
      /^([\w./-]+)\((\d+),\d+\)/gm,
      (whole, file: string, line: string) => {
        const where = byFile.get(file);
        return where
          ? `${where.split(':')[0]}:${Number(where.split(':')[1]) + Number(line)}`
          : whole;
      },
    );
    expect(errors).toBe('');
  });

  it.concurrent.each(runnable.map((snippet) => [snippet.where, snippet] as const))(
    '%s runs',
    { timeout: 240_000 },
    async (_where, snippet) => {
      const server = snippet.openai ? await startFakeOpenAI() : undefined;
      server?.reply(
        ...Array.from({ length: 20 }, () => ({
          text: 'OK.',
          usage: { inputTokens: 10, outputTokens: 2 },
        })),
      );
      const env: Record<string, string> = server ? { OPENAI_BASE_URL: server.baseURL } : {};
      const name = names.get(snippet)!;
      const ran = await (
        snippet.lang === 'sh'
          ? inProject('bash', ['-e', '-c', snippet.code], env)
          : name.endsWith('.test.ts') || name.endsWith('.test.tsx')
            ? inProject(
                process.execPath,
                [
                  join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
                  'run',
                  name,
                  '--testTimeout=120000',
                ],
                env,
              ) // a busy machine is slow
            : inProject(process.execPath, ['--import', 'tsx', name], env)
      ).finally(() => server?.close());
      expect(ran.code, ran.output).toBe(snippet.exit);
      if (snippet.prints !== undefined) expect(ran.output).toContain(snippet.prints);
    },
  );
});
