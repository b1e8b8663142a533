// Replays that stay green: what changes from run to run while nothing is wrong (how long a
// command took, the temp folder it ran in, approval ids, child run ids, an MCP server's
// process, port and session, the time of day) never reaches a model request, so a recorded
// run replays (`run(el, { replay })`) after a real wait, twice in a row, with real bash, a real
// stdio MCP server (server-everything, behind a proxy that logs its tool calls), a real MCP
// server over HTTP and a composite tool. With `replayTools: true` no tool runs. In-process
// runs, here because they start processes (the integration lane).
import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import {
  Agent,
  defineMCPServer,
  Inherit,
  memoryJournalStore,
  run,
  Step,
  Tool,
  type JournalRecord,
  type RunLogEvent,
  type Trace,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { Bash } from 'june/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const fixtures = new URL('../fixtures/mcp/', import.meta.url).pathname;
const everything = new URL(
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
  import.meta.url,
).pathname;

const root = mkdtempSync(join(tmpdir(), 'june-replay-volatile-'));
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const sideEffects = join(root, 'side-effects.log');
const effects = () =>
  existsSync(sideEffects) ? readFileSync(sideEffects, 'utf8').split('\n').filter(Boolean) : [];

/** A new temp folder for the commands: how long they sleep, and the notes they print. */
function workFolder(delaySeconds: number): string {
  const dir = mkdtempSync(join(root, 'work-'));
  writeFileSync(join(dir, 'delay.txt'), String(delaySeconds));
  writeFileSync(join(dir, 'notes.txt'), 'Fixes the login bug.\n');
  return dir;
}

/** The glossary server over Streamable HTTP on a port of its own; resolves once it listens. */
function startGlossary(log: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [join(fixtures, 'restartable-http-server.mjs'), '0', log, 'glossary'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  servers.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /listening (\d+)/.exec(out);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`the glossary server exited (${code})`)));
  });
}

const script = {
  steps: {
    release: [
      {
        toolCalls: [
          {
            tool: 'bash',
            input: {
              command: 'sleep "$(cat delay.txt)"; echo bash >> "$SIDE_EFFECTS"; cat notes.txt',
            },
          },
        ],
      },
      { toolCalls: [{ tool: 'echo', input: { message: 'release 1.2' } }] },
      { toolCalls: [{ tool: 'lookup', input: { term: 'release' } }] },
      { toolCalls: [{ tool: 'notes', input: { version: '1.2' } }] },
      { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
      { text: 'Released 1.2 to staging.' },
    ],
    'notes:summary': [
      {
        toolCalls: [
          {
            tool: 'bash',
            input: { command: 'echo notes >> "$SIDE_EFFECTS"; pwd >/dev/null; cat notes.txt' },
          },
        ],
      },
      { text: '1.2 fixes the login bug.' },
    ],
  },
};

const deploy = tool({
  description: 'Deploy the release',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync(sideEffects, `deploy ${env}\n`);
    return `deployed to ${env}`;
  },
});

/** The release workflow, its commands run in `work`, its glossary at `port`. */
function release(work: string, port: number) {
  const model = scriptedModel(script);
  const Everything = defineMCPServer({
    name: 'Everything',
    command: process.execPath,
    args: [join(fixtures, 'call-log-proxy.mjs'), sideEffects, everything, 'stdio'],
  });
  const Glossary = defineMCPServer({ name: 'Glossary', url: `http://127.0.0.1:${port}/mcp` });
  return (
    <Agent model={model} instructions="Release with the tools you have.">
      <Bash needsApproval={false} cwd={work} env={{ SIDE_EFFECTS: sideEffects }} />
      <Everything />
      <Glossary />
      <Tool name="deploy" value={deploy} />
      <Tool
        name="notes"
        description="Summarize the notes"
        input={z.object({ version: z.string() })}
      >
        {({ version }) => (
          <Agent model={model}>
            <Inherit capabilities={['bash']} />
            <Step id="summary" prompt={`Summarize the notes of ${version}`} />
          </Agent>
        )}
      </Tool>
      <Step id="release" prompt="Release 1.2" />
    </Agent>
  );
}

/** Runs `workflow` to the end, keeping its events. */
async function runOf(workflow: ReturnType<typeof release>, options: Parameters<typeof run>[1]) {
  const handle = run(workflow, { onApproval: () => true, ...options });
  const events: RunLogEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;
  return { runId: handle.runId, events, result };
}

const nodes = (node: TraceNode): TraceNode[] => [node, ...node.children.flatMap(nodes)];
const bashOutputs = (trace: Trace) =>
  nodes(trace.root)
    .filter((node) => node.kind === 'tool' && node.name === 'bash')
    .map((node) => node.output as { durationMs: number });
const childRunIds = (trace: Trace) =>
  nodes(trace.root).flatMap((node) => {
    const child = (node.output as { trace?: Trace } | undefined)?.trace;
    return node.kind === 'tool' && child ? [child.runId] : [];
  });
/** The ids of the approval answers (a replay answers from the recording, without asking). */
const approvalIds = (events: RunLogEvent[]) =>
  events.flatMap((event) => (event.type === 'approval-response' ? [event.id] : []));
const modelRequests = (records: JournalRecord[]) =>
  records.flatMap((record) => (record.type === 'model-call' ? [record.requestHash] : []));

/** Polls until `check` holds, for at most `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a recorded run replays green after a wait, whatever changed meanwhile', () => {
  const store = memoryJournalStore();
  const glossaryLog = join(root, 'glossary.log');
  let recording: JournalRecord[] = [];
  let recorded: Awaited<ReturnType<typeof runOf>>;

  it('records a run with Bash, two MCP servers, a composite tool and an approval', async () => {
    const port = await startGlossary(glossaryLog);
    recorded = await runOf(release(workFolder(0.05), port), { journal: store });
    expect(recorded.result.output).toBe('Released 1.2 to staging.');
    recording = await store.read(recorded.runId);
    expect(effects()).toEqual(['bash', 'mcp echo', 'notes', 'deploy staging']);
  }, 60_000);

  it('replays green twice in a row: each replay in another temp folder, taking another time, with new ids, processes, ports and sessions', async () => {
    const startedAt = Date.parse(recorded.result.trace.startedAt);
    for (const delay of [0.6, 0.3]) {
      // a real wait: the clock moves on, whatever a run could read from it
      await until(() => Date.now() > startedAt + 1100, 5_000, 'a second to pass');
      // another server process on another port: new MCP sessions
      const port = await startGlossary(glossaryLog);
      const journal = memoryJournalStore();
      const replayed = await runOf(release(workFolder(delay), port), {
        replay: recording,
        journal,
      });
      expect(replayed.result.output).toBe('Released 1.2 to staging.');
      // every model call asked exactly what the recorded one did
      expect(modelRequests(await journal.read(replayed.runId))).toEqual(modelRequests(recording));

      // what changed, kept in the trace and the events, never seen by the model:
      const [before, now] = [
        bashOutputs(recorded.result.trace),
        bashOutputs(replayed.result.trace),
      ];
      expect(now[0]!.durationMs).toBeGreaterThanOrEqual(delay * 1000);
      expect(now[0]!.durationMs).not.toBe(before[0]!.durationMs);
      expect(JSON.stringify(replayed.events)).toMatch(/"durationMs":\d+/);
      expect(childRunIds(replayed.result.trace)).toEqual([`${replayed.runId}.1`]);
      expect(childRunIds(recorded.result.trace)).toEqual([`${recorded.runId}.1`]);
      expect(approvalIds(replayed.events)).toHaveLength(1);
      expect(approvalIds(replayed.events)).not.toEqual(approvalIds(recorded.events));
      expect(replayed.result.trace.startedAt).not.toBe(recorded.result.trace.startedAt);
    }
    // each glossary server opened sessions of its own
    const sessions = new Set(
      readFileSync(glossaryLog, 'utf8')
        .split('\n')
        .filter((line) => line.includes('tools/call'))
        .map((line) => line.split(' ')[2]),
    );
    expect(sessions.size).toBe(3);
    // the tools ran again in both replays
    expect(effects()).toHaveLength(12);
  }, 90_000);

  it('with replayTools: true no tool runs, and the model is asked the same', async () => {
    const before = effects();
    const port = await startGlossary(glossaryLog);
    const calls = () =>
      readFileSync(glossaryLog, 'utf8')
        .split('\n')
        .filter((l) => l.includes('tools/call'));
    const glossaryCalls = calls().length;
    const replayed = await runOf(release(workFolder(0.2), port), {
      replay: recording,
      replayTools: true,
    });
    expect(replayed.result.output).toBe('Released 1.2 to staging.');
    expect(effects()).toEqual(before);
    expect(calls()).toHaveLength(glossaryCalls);
    // the recorded results, durationMs included, stand in the trace
    expect(bashOutputs(replayed.result.trace)).toEqual(bashOutputs(recorded.result.trace));
  }, 60_000);
});
