// The run host contract against the local host: runs of test/host/fixtures/desk.tsx in this
// process, kept in a runs folder on the real file system (journal, trace, answers file).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderRunHost } from '../../src/host/folder-run-host.js';
import { localRunHost } from '../../src/host/local-run-host.js';
import type { RunHost } from '../../src/host/run-host.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { tempProject } from '../cli/cli-harness.js';
import Desk from './fixtures/desk.js';
import { runHostContract } from './host-contract.js';
import { localHost } from './hosts-under-test.js';

runHostContract('runs folder, run here', localHost);

describe('the local host and the runs folder', () => {
  let project: ReturnType<typeof tempProject>;
  let dir: string;
  const closing: RunHost[] = [];
  const open = async (host: Promise<RunHost>) => {
    closing.push(await host);
    return closing.at(-1)!;
  };
  beforeEach(() => {
    project = tempProject();
    dir = join(project.dir, '.june', 'runs');
  });
  afterEach(async () => {
    for (const host of closing.splice(0)) await host.close();
    project.remove();
  });

  /** Waits until the host lists a call of the run as waiting; the first. */
  async function waitingCall(host: RunHost, runId: string) {
    for (;;) {
      const [call] = (await host.decisions(runId)).waiting;
      if (call) return call;
      const trace = await host.readTrace(runId);
      if ('text' in trace && (JSON.parse(trace.text) as Trace).status !== 'running')
        throw new Error(`run ${runId} ended without waiting: ${trace.text.slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The trace's tool calls, in order. */
  const toolsOf = (trace: Trace): TraceNode[] =>
    [trace.root].flatMap(function walk(node: TraceNode): TraceNode[] {
      return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(walk)];
    });

  it('a run of this process is answered through the folder, as Studio or june approve in another process answer it', async () => {
    const local = await open(localRunHost({ dir, workflows: { desk: Desk } }));
    const runId = await local.start({ workflow: 'desk', props: { mode: 'deploy' } });
    await waitingCall(local, runId);
    // what another process sees of the folder: the run's process takes answers
    const folder = await open(folderRunHost({ dir, pollIntervalMs: 100 }));
    const call = await waitingCall(folder, runId);
    expect((await folder.decisions(runId)).state).toBe('live');
    await folder.answer(runId, {
      key: call.key,
      approved: true,
      input: { env: 'staging' },
      answeredBy: 'ana',
    });

    const trace = await local.result(runId);
    expect(trace.status).toBe('succeeded');
    const [deploy] = toolsOf(trace);
    expect(deploy?.output).toBe('deployed staging');
    expect(deploy?.approval).toMatchObject({
      status: 'approved',
      source: 'studio',
      answeredBy: 'ana',
      input: { env: 'staging' },
    });
    // the folder's file is the run's trace too
    expect(JSON.parse(readFileSync(join(dir, `${runId}.json`), 'utf8'))).toMatchObject({
      runId,
      status: 'succeeded',
    });
  });

  it('a later host takes a run the earlier one stopped up again from its journal: asked once more, the tool runs once, no model call made twice', async () => {
    const script = {
      steps: {
        work: [
          { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
          { text: 'deployed, as asked' },
        ],
      },
    };
    const first = await localRunHost({ dir, workflows: { desk: Desk } });
    const runId = await first.start({ workflow: 'desk', props: { mode: 'deploy' }, script });
    await waitingCall(first, runId);
    await first.close(); // the process stops: its run is aborted, its journal kept

    const later = await open(localRunHost({ dir, workflows: { desk: Desk } }));
    expect((await later.list()).find((entry) => entry.runId === runId)).toMatchObject({
      status: 'aborted',
    });
    await later.resume(runId);
    const call = await waitingCall(later, runId);
    await later.answer(runId, { key: call.key, approved: true });

    const trace = await later.result(runId);
    expect(trace.status).toBe('succeeded');
    const steps = [trace.root].flatMap(function walk(node: TraceNode): TraceNode[] {
      return [...(node.kind === 'step' ? [node] : []), ...node.children.flatMap(walk)];
    });
    expect(steps.map((step) => step.result)).toEqual(['deployed, as asked']);
    const tools = toolsOf(trace);
    expect(tools.map((node) => [node.name, node.output])).toEqual([['deploy', 'deployed prod']]);
    const records = readFileSync(join(dir, runId, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; index?: number });
    const modelCalls = records.filter((record) => record.type === 'model-call');
    expect(modelCalls.map((record) => record.index)).toEqual([0, 1]);
  });

  it('refuses to resume a run that succeeded, and one of a workflow it does not run goes to the folder', async () => {
    const local = await open(localRunHost({ dir, workflows: { desk: Desk } }));
    const runId = await local.start({ workflow: 'desk', props: { mode: 'quick' } });
    await local.result(runId);
    const later = await open(localRunHost({ dir, workflows: { desk: Desk } }));
    await expect(later.resume(runId)).rejects.toMatchObject({ code: 'run-host-unsupported' });
    const other = await open(localRunHost({ dir, workflows: {} }));
    await expect(other.resume(runId)).rejects.toMatchObject({ code: 'run-host-unsupported' });
  });

  it('keeps the newest ended runs in memory, and reads older ones from the folder', async () => {
    const local = await open(localRunHost({ dir, workflows: { desk: Desk }, keepEnded: 1 }));
    const older = await local.start({ workflow: 'desk', props: { mode: 'quick' } });
    await local.result(older);
    const newer = await local.start({ workflow: 'desk', props: { mode: 'quick' } });
    await local.result(newer);
    // the newer run's events are still followed here; the older run is the folder's now
    const types: string[] = [];
    for await (const event of local.events(newer)) types.push(event.type);
    expect(types.at(-1)).toBe('run-finish');
    const followOlder = (async () => {
      for await (const _event of local.events(older)) break;
    })();
    await expect(followOlder).rejects.toMatchObject({ code: 'run-host-unsupported' });
    expect((await local.result(older)).status).toBe('succeeded');
    expect((await local.list()).map((entry) => entry.runId)).toEqual(
      expect.arrayContaining([older, newer]),
    );
  });
});
