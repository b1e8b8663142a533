// Finds the fenced snippets in the docs that are marked runnable. A snippet is marked by an
// HTML comment on the line before its fence (invisible on GitHub and npm):
//
//   <!-- doc-test -->                                   typecheck it, then run it
//   <!-- doc-test: prints=openai-not-configured -->     ... and its output must contain this
//   <!-- doc-test: file=test/fixtures/scripts/a.json --> write it to this path for the others
//   <!-- doc-test: exit=1 -->                           it must exit with 1
//   <!-- doc-test: openai -->                           with OPENAI_BASE_URL set to a fake
//                                                       Responses server that answers "OK."
//
// `ts` / `tsx` snippets run with tsx, or with vitest when they import from 'vitest' (from a
// `test/` folder, as the docs' tests are); `sh` snippets run with bash (stopping at the first
// failing command). A snippet with `file=` is
// not run: it is written before the others run, so a test and its script can be shown apart.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One marked snippet. */
export interface DocSnippet {
  /** Where it is, e.g. `docs/offline-scripts.md:42` (the fence's first line). */
  where: string;
  /** The fence's language, e.g. `tsx`, `sh`, `json`. */
  lang: string;
  code: string;
  /** `file=`: the project path it is written to. */
  file?: string;
  /** `prints=`: text its output (stdout and stderr) must contain. */
  prints?: string;
  /** `exit=`: the exit code it must end with. @default 0 */
  exit: number;
  /** `openai`: run it with OPENAI_BASE_URL set to a fake Responses server. */
  openai: boolean;
}

const MARKER = /^<!--\s*doc-test(?::\s*(.*?))?\s*-->\s*$/;
const OPTION = /^(file|prints|exit)=(\S+)$|^(openai)$/;

/** The marked snippets of `README.md` and every `docs/*.md` under `root`, in file order. */
export function docSnippets(root: string): DocSnippet[] {
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => join('docs', name)),
  ];
  return pages.flatMap((page) =>
    snippetsOf(relative(root, join(root, page)), readFileSync(join(root, page), 'utf8')),
  );
}

/**
 * The marked snippets of one page.
 * @throws {Error} when a marker is not followed by a fence, or has an unknown option
 */
export function snippetsOf(page: string, text: string): DocSnippet[] {
  const lines = text.split('\n');
  const out: DocSnippet[] = [];
  lines.forEach((line, index) => {
    const marker = MARKER.exec(line);
    if (!marker) return;
    const fence = /^(`{3,})(\S*)/.exec(lines[index + 1] ?? '');
    if (!fence)
      throw new Error(
        `${page}:${index + 1}: a doc-test marker must be followed by a fenced snippet on the next line`,
      );
    const end = lines.findIndex((next, at) => at > index + 1 && next.startsWith(fence[1]!));
    if (end < 0) throw new Error(`${page}:${index + 2}: the fenced snippet is never closed`);
    const snippet: DocSnippet = {
      where: `${page}:${index + 2}`,
      lang: fence[2] ?? '',
      code: lines.slice(index + 2, end).join('\n') + '\n',
      exit: 0,
      openai: false,
    };
    for (const option of (marker[1] ?? '').split(/\s+/).filter(Boolean)) {
      const [, key, value, flag] = OPTION.exec(option) ?? [];
      if (flag === 'openai') snippet.openai = true;
      else if (key === 'file') snippet.file = value!;
      else if (key === 'prints') snippet.prints = value!;
      else if (key === 'exit') snippet.exit = Number(value);
      else
        throw new Error(
          `${page}:${index + 1}: unknown doc-test option ${JSON.stringify(option)}; use file=PATH, prints=TEXT, exit=N or openai`,
        );
    }
    out.push(snippet);
  });
  return out;
}
