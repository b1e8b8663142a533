// Drives the crash fuzz: runs fuzz-worker.mjs in child processes, kills them (SIGKILL) at
// seeded random moments, resumes until the run finishes, and checks what the journal
// promises. Shared by test/durable/crash-fuzz.test.ts and bench/crash-fuzz.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, fileJournalStore, type JournalRecord } from 'june';
import { approvalKey, fuzzModel, fuzzTools, fuzzWorkflow, modelKey } from './fuzz-workflow.mjs';

const worker = fileURLToPath(new URL('./fuzz-worker.mjs', import.meta.url));

/** One process: killed after `killAfterMs` from its start of work, or left to finish. */
async function attempt(
  dir: string,
  number: number,
  seed: number,
  killAfterMs?: number,
): Promise<{ output?: unknown; killed: boolean; ms: number }> {
  const child = spawn(process.execPath, [worker, dir, String(number), String(seed)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let started = 0;
  let timer: NodeJS.Timeout | undefined;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!started && stdout.includes('ready\n')) {
      started = Date.now();
      if (killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  const ms = started ? Date.now() - started : 0;
  if (signal === 'SIGKILL') return { killed: true, ms };
  if (code !== 0) throw new Error(`fuzz worker ${number} (seed ${seed}) exited ${code}: ${stderr}`);
  const last = stdout.trim().split('\n').at(-1)!;
  return { output: (JSON.parse(last) as { output: unknown }).output, killed: false, ms };
}

/** What the journal holds after an attempt: finished tool calls and model calls, by identity. */
function recorded(records: JournalRecord[]): { tools: Set<string>; models: Set<string> } {
  const tools = new Set<string>();
  const models = new Set<string>();
  for (const record of records) {
    if (record.type === 'tool-call' && !['outer', 'inner'].includes(record.tool))
      tools.add(approvalKey(record.tool, record.input));
    if (record.type === 'model-call') {
      const request = record.request as {
        prompt: Parameters<typeof modelKey>[1];
        providerOptions: { june: { step: string } };
      };
      models.add(modelKey(request.providerOptions.june.step, request.prompt).key);
    }
  }
  return { tools, models };
}

const lines = (file: string) => {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string]);
  } catch {
    return [];
  }
};

/** The result of one episode: a run killed `kills` times, then finished. */
export interface Episode {
  kills: number;
  attempts: number;
  output: unknown;
  /** The output of the same workflow run in one go with the answers the journal recorded. */
  straight: unknown;
  /** Broken promises, in words (empty when the journal kept them all). */
  problems: string[];
  /** Calls that ran again after a kill (allowed: the one in flight at each kill). */
  repeated: number;
}

/**
 * One episode: kills the run `kills` times at random moments within `windowMs` of a process's
 * start of work (seeded by `seed`), then lets it finish, and checks the journal's promises.
 */
export async function episode(seed: number, kills: number, windowMs: number): Promise<Episode> {
  const dir = mkdtempSync(join(tmpdir(), 'june-fuzz-'));
  let state = (seed * 7919 + 1) >>> 0;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const store = fileJournalStore({ dir: join(dir, 'runs') });
  const after: Array<{ tools: Set<string>; models: Set<string> }> = [];
  try {
    let output: unknown;
    let number = 0;
    for (; ; number++) {
      const result = await attempt(
        dir,
        number,
        seed,
        number < kills ? Math.floor(random() * windowMs) : undefined,
      );
      after.push(recorded(await store.read('fuzz')));
      if (!result.killed) {
        output = result.output;
        break;
      }
    }
    const records = await store.read('fuzz');
    const problems: string[] = [];
    let repeated = 0;
    const check = (
      kind: string,
      log: Array<[string, string]>,
      finished: (a: number) => Set<string>,
    ) => {
      const runs = new Map<string, number[]>();
      for (const [key, at] of log) runs.set(key, [...(runs.get(key) ?? []), Number(at)]);
      const perAttempt = new Map<number, number>();
      for (const [key, attempts] of runs) {
        for (const a of attempts.slice(0, -1)) {
          // an earlier run of a call that ran again: it must not have finished (been recorded) by the kill
          if (finished(a).has(key))
            problems.push(
              `${kind} ${key} finished in attempt ${a} and ran again (attempts ${attempts.join(', ')})`,
            );
          perAttempt.set(a, (perAttempt.get(a) ?? 0) + 1);
          repeated++;
        }
      }
      for (const [a, count] of perAttempt)
        if (count > 1)
          problems.push(
            `${count} ${kind} calls of attempt ${a} ran again; only the one in flight may`,
          );
    };
    check('tool', lines(join(dir, 'effects.log')), (a) => after[a]!.tools);
    check('model', lines(join(dir, 'models.log')), (a) => after[a]!.models);

    // every approval was answered once, and the answer stood: a denied tool never ran
    const requests = new Map(
      records.flatMap((record) =>
        record.type === 'approval-request'
          ? [[`${record.step}|${record.calls?.join('/')}|${record.call}`, record] as const]
          : [],
      ),
    );
    const answers = new Map<string, { approved: boolean; reason?: string }>();
    const ranTools = new Set(lines(join(dir, 'effects.log')).map(([key]) => key));
    for (const record of records) {
      if (record.type !== 'approval-answer') continue;
      const request = requests.get(`${record.step}|${record.calls?.join('/')}|${record.call}`)!;
      const key = approvalKey(request.tool, request.input);
      if (answers.has(key)) problems.push(`approval ${key} was answered twice`);
      answers.set(
        key,
        record.reason === undefined
          ? { approved: record.approved }
          : { approved: record.approved, reason: record.reason },
      );
      if (!record.approved && ranTools.has(key)) problems.push(`${key} was denied and ran`);
      if (record.approved && !ranTools.has(key)) problems.push(`${key} was approved and never ran`);
    }
    if (answers.size !== 4) problems.push(`${answers.size} approvals answered, not 4`);

    // the same workflow in one go, with the recorded answers, gives the same output
    const straight = (
      await run(
        fuzzWorkflow(
          fuzzModel(join(dir, 'straight-models.log'), 0),
          fuzzTools(join(dir, 'straight-effects.log'), 0),
        ),
        {
          onApproval: (request) => answers.get(approvalKey(request.tool, request.input)) ?? false,
        },
      ).result
    ).output;
    return { kills, attempts: number + 1, output, straight, problems, repeated };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How long one process takes to run the workflow from start to end, in ms (the window kills are drawn from). */
export async function uninterruptedMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'june-fuzz-'));
  try {
    return (await attempt(dir, 0, 0)).ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
