import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as june from '../../src/index.js';
import { repoRoot } from '../cli/cli-harness.js';

// A docs example that is not a test imports what production code uses from 'june': names it
// takes from 'june/testing' are the ones only that entry has (scripted models, replays).

/** Each fenced `ts`/`tsx` block of README.md and docs/*.md, with where it starts. */
function codeBlocks(): { where: string; code: string }[] {
  const pages = [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join('docs', name)),
  ];
  return pages.flatMap((page) => {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    return [...text.matchAll(/^```tsx?\n([\s\S]*?)^```/gm)].map((match) => ({
      where: `${page}:${text.slice(0, match.index).split('\n').length}`,
      code: match[1]!,
    }));
  });
}

/** The value names a block imports from 'june/testing' (type-only names left out). */
function testingImports(code: string): string[] {
  return [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'june\/testing'/g)].flatMap((match) =>
    match[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type ')),
  );
}

describe('the docs’ examples', () => {
  it('import from june/testing only what june does not export, outside tests', () => {
    const examples = codeBlocks().filter((block) => !/from ['"]vitest['"]/.test(block.code));
    const misplaced = examples.flatMap((block) =>
      testingImports(block.code)
        .filter((name) => name in june)
        .map((name) => `${block.where}: ${name}`),
    );
    expect(examples.some((block) => testingImports(block.code).length > 0)).toBe(true);
    expect(misplaced).toEqual([]);
  });
});
