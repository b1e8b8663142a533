// Studio's fork route on a run host other than `june dev`'s runs folder: a host in memory,
// given to startStudio (as a database host is under `june studio --database`). The route
// forks through the host, says Studio forks in its run list, and takes no model choice
// (there is no project to read a script from): the fork's models answer as the recorded
// run's did.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/start-studio.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import type { HostUnderTest } from '../host/host-contract.js';
import { memoryHost } from '../host/hosts-under-test.js';
import { eventually, openStudio } from './support.js';
import { pageHeaders, rawPost } from './workbench-support.js';

function toolNodes(trace: Trace): TraceNode[] {
  const found: TraceNode[] = [];
  const stack = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'tool') found.push(node);
    stack.push(...node.children);
  }
  return found.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

describe('June Studio: forks on a run host it was given', () => {
  let subject: HostUnderTest;
  let studio: Studio;
  beforeAll(async () => {
    subject = await memoryHost();
    studio = await openStudio(join(tmpdir(), 'june-no-runs-here'), { runHost: subject.host });
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    await subject?.close();
  });

  it('forks a recorded run at its approval through the host, and takes no model choice there', async () => {
    const { host } = subject;
    const runId = await host.start({ workflow: subject.workflow, props: { mode: 'deploy' } });
    const call = await eventually(async () => {
      const [waiting] = (await host.decisions(runId)).waiting;
      expect(waiting).toBeDefined();
      return waiting!;
    }, 30_000);
    await host.answer(runId, { key: call.key, approved: true });
    expect((await host.result(runId)).status).toBe('succeeded');

    const base = studio.url.replace(/\?.*$/, '').replace(/\/$/, '');
    const list = (await (await fetch(`${base}/api/runs`)).json()) as { forks?: unknown };
    expect(list.forks).toEqual({ modelChoice: false });

    const url = `${base}/api/runs/${encodeURIComponent(runId)}/fork`;
    const headers = pageHeaders(studio.url, studio.answerToken);
    const change = { answer: 'deny', reason: 'not today' };
    const at = 'approval deploy work#0.0';
    const preview = await rawPost(url, { at, change, preview: true }, headers);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ record: at, replayed: 1 });

    const withScript = await rawPost(
      url,
      { at, change, model: { kind: 'script', path: 'x.json' } },
      headers,
    );
    expect(withScript.status).toBe(400);
    expect(withScript.body.code).toBe('studio-model-invalid');

    const started = await rawPost(url, { at, change }, headers);
    expect(started.status).toBe(202);
    const forkId = (started.body as { runId: string }).runId;
    // the recorded call is denied in the fork; the workflow's own model asks for it again live
    const trace = await eventually(async () => {
      const found = await host.readTrace(forkId);
      expect('text' in found).toBe(true);
      const read = JSON.parse((found as { text: string }).text) as Trace;
      expect(toolNodes(read).length).toBe(2);
      return read;
    }, 30_000);
    expect(trace.forkedFrom).toMatchObject({ runId, record: at });
    const [denied, again] = toolNodes(trace);
    expect(denied?.approval).toMatchObject({ status: 'denied', reason: 'not today' });
    expect(again?.approval?.status).toBe('pending');
    await host.cancel(forkId);
    expect((await host.result(forkId)).status).toBe('aborted');
  }, 120_000);
});
