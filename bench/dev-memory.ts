// What `june dev` holds on to as a workflow file is saved again and again: the built CLI's
// `june dev` (dist/, so `npm run build` first) with a 400 MB heap, over a project with one
// workflow that imports June, the AI SDK and zod; the file is saved `saves` times (200, 15
// with --quick), each save waiting for the page's entry to show the new load, and the
// process's resident set (/proc/<pid>/status, every thread of it) is read after each.
//   node --import tsx bench/dev-memory.ts [--quick] [--saves=N]
// `npm run bench` adds runDevMemorySection()'s markdown to bench/results.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliBin = join(root, 'dist', 'src', 'cli', 'bin.js');
/** The heap `june dev` gets, in MB: small enough that a leak of a few MB a save runs it out. */
const HEAP_MB = 400;
/** How long one save may take to show, in ms, before the bench gives up. */
const SAVE_TIMEOUT_MS = 60_000;

/** What one run of the bench measured. */
export interface DevMemoryResult {
  saves: number;
  /** RSS in bytes after each save (index 0 is before the first). */
  rss: number[];
  /** Whether `june dev` was still serving after the last save (false: it died, e.g. out of heap). */
  survived: boolean;
  /** ms per save, median: from the write to the new entry. */
  medianSaveMs: number;
  /** Its last stderr line when it died. */
  error?: string;
}

const workflow = (save: number) => `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

export const props = z.object({ env: z.string() });

const deploy = tool({
  description: 'Deploy to an environment (save ${save})',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => 'Deployed to ' + env,
});

export default function Release({ env = 'staging' }: { env?: string }) {
  return (
    <Agent name="release" model={openai('gpt-5-mini')}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt={'Deploy to ' + env} />
    </Agent>
  );
}
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'june-dev-memory-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'june'), 'dir');
  for (const name of ['ai', 'zod'])
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  writeFileSync(join(dir, 'release.tsx'), workflow(0));
  return dir;
}

/** The process's resident set in bytes, from /proc (Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/** Starts `june dev` in `dir` on a free port; resolves with its page URL once it serves. */
function startDev(
  dir: string,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, cliBin, 'dev', '--port=0'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /June dev: (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`june dev exited (${code}): ${err.trim()}`)));
  });
}

/** The entry's `loadedAt`, or undefined when `june dev` no longer answers. */
async function loadedAt(url: string): Promise<string | undefined> {
  const address = new URL(url);
  const api = new URL(`/api/workflows/release.tsx${address.search}`, address);
  try {
    const response = await fetch(api);
    const entry = (await response.json()) as { loadedAt: string; status: string; name: string };
    return `${entry.loadedAt} ${entry.status} ${entry.name}`;
  } catch {
    return undefined;
  }
}

/** Saves the workflow `saves` times in a fresh project and reads `june dev`'s RSS after each. */
export async function measureDevMemory(saves: number): Promise<DevMemoryResult> {
  const dir = project();
  const dev = await startDev(dir);
  const rss = [rssOf(dev.child.pid!)];
  const times: number[] = [];
  let survived = true;
  try {
    let last = await loadedAt(dev.url);
    for (let save = 1; save <= saves; save++) {
      const began = performance.now();
      writeFileSync(join(dir, 'release.tsx'), workflow(save));
      const deadline = Date.now() + SAVE_TIMEOUT_MS;
      let now = last;
      while (now === last) {
        if (dev.child.exitCode !== null || Date.now() > deadline) break;
        await new Promise((wait) => setTimeout(wait, 20));
        now = await loadedAt(dev.url);
      }
      if (now === last || now === undefined) {
        survived = false;
        break;
      }
      last = now;
      times.push(performance.now() - began);
      rss.push(rssOf(dev.child.pid!));
    }
  } finally {
    dev.child.kill('SIGINT');
    await new Promise((done) => {
      if (dev.child.exitCode !== null) done(undefined);
      else dev.child.once('exit', done);
    });
    rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...times].sort((a, b) => a - b);
  const said = dev.stderr().trim().split('\n');
  const error = said.find((line) => /FATAL ERROR|out of memory/i.test(line)) ?? said.pop();
  return {
    saves: rss.length - 1,
    rss,
    survived,
    medianSaveMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    ...(!survived && error ? { error } : {}),
  };
}

const mb = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** The section for bench/results.md: RSS at a few saves, and whether it stayed bounded. */
export async function runDevMemorySection(opts: {
  quick: boolean;
  saves?: number;
}): Promise<string> {
  const saves = opts.saves ?? (opts.quick ? 15 : 200);
  const result = await measureDevMemory(saves);
  const early = Math.min(20, Math.floor(saves / 5));
  const points = [0, early, Math.floor(saves / 2), saves].filter(
    (point, index, all) => all.indexOf(point) === index,
  );
  const growth = (result.rss[result.saves] ?? 0) - (result.rss[early] ?? 0);
  return [
    '## june dev: memory across saves',
    '',
    `\`june dev\` (--max-old-space-size=${HEAP_MB}) over one workflow saved ${saves} times; RSS of the whole process after the save.`,
    '',
    '| save | RSS |',
    '|---:|---:|',
    ...points.map((point) => `| ${point} | ${mb(result.rss[point])} |`),
    '',
    result.survived
      ? `All ${result.saves} saves loaded (median ${result.medianSaveMs.toFixed(0)} ms each); RSS at save ${result.saves} is ${mb(growth)} over save ${early}.`
      : `It stopped answering after ${result.saves} saves: ${result.error ?? 'no error printed'}.`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const saves = process.argv.find((arg) => arg.startsWith('--saves='))?.slice('--saves='.length);
  console.log(
    await runDevMemorySection({
      quick: process.argv.includes('--quick'),
      ...(saves ? { saves: Number(saves) } : {}),
    }),
  );
}
