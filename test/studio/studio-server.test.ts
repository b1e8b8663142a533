import { request as httpRequest } from 'node:http';
import { mkdir, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JuneError } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunDirectory } from '../../src/host/run-directory.js';
import {
  startStudio,
  type RunList,
  type RunSummary,
  type Studio,
  type StudioEvent,
} from '../../src/studio/index.js';
import { recordRelease, recordResearch, writeTrace } from '../fixtures/studio/workflows.js';
import { eventually, listen, openStudio, runsDir, studioUi } from './support.js';

/** A GET with a chosen Host header (fetch does not let a page or a test set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('Studio API over real run traces', () => {
  let parent: string;
  let dir: string;
  let studio: Studio;
  let release: Awaited<ReturnType<typeof recordRelease>>;
  let research: Awaited<ReturnType<typeof recordResearch>>;

  beforeAll(async () => {
    parent = await runsDir();
    dir = join(parent, 'runs');
    release = await recordRelease(dir);
    research = await recordResearch(dir);
    studio = await openStudio(dir);
  });
  afterAll(async () => {
    await studio?.close();
    await rm(parent, { recursive: true, force: true });
  });

  it('binds 127.0.0.1 on the port the OS picked', () => {
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('lists the runs newest first, with workflow, start, duration, status and total tokens', async () => {
    const list = (await (await fetch(`${studio.url}api/runs`)).json()) as RunList;
    expect(list.dir).toBe(dir);
    expect(list.workflows).toBe(false); // plain `june studio`: the page asks for no workflows
    expect(list.runs.map((run) => run.runId)).toEqual([research.runId, release.runId]);
    const [first] = list.runs as RunSummary[];
    expect(first).toMatchObject({
      runId: research.runId,
      file: `${research.runId}.json`,
      workflow: 'Research',
      status: 'succeeded',
      startedAt: research.startedAt,
      durationMs: Date.parse(research.endedAt!) - Date.parse(research.startedAt),
      totalTokens: research.root.usage!.totalTokens,
      // 2,490 input tokens at $1.25 and 135 output tokens at $10 per million, child run included
      costUsd: expect.closeTo(0.0044625, 12),
    });
    expect(list.runs[1]).toMatchObject({ runId: release.runId, unpricedCalls: expect.any(Number) });
    expect(list.runs[1]).not.toHaveProperty('costUsd');
    // Composite child runs count as nodes of the run.
    expect(first!.nodeCount).toBe(18);
  });

  it("serves one run's trace as written", async () => {
    const response = await fetch(`${studio.url}api/runs/${encodeURIComponent(release.runId)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(release)));
  });

  it('answers 404 with a june: message for a run that does not exist, and never serves files outside the directory', async () => {
    const missing = await fetch(`${studio.url}api/runs/nope`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toMatch(/^june: no run "nope" in /);
    await writeFile(join(parent, 'secret.json'), JSON.stringify(release)); // beside the runs directory
    for (const path of [
      'api/runs/..%2Fsecret',
      'api/runs/%2e%2e%2Fsecret',
      '..%2F..%2Fpackage.json',
      '%2e%2e/%2e%2e/package.json',
    ]) {
      expect((await fetch(`${studio.url}${path}`)).status, path).toBe(404);
    }
  });

  it('serves the UI at /', async () => {
    const response = await fetch(studio.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('<div id="app">');
  });

  it('refuses requests addressed to another host name (DNS rebinding) and anything but GET', async () => {
    const foreign = await getWithHost(`${studio.url}api/runs`, 'attacker.example:80');
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error).toMatch(
      /^june: Studio answers requests for 127\.0\.0\.1, localhost/,
    );
    expect((await getWithHost(`${studio.url}api/runs`, 'localhost')).status).toBe(200);
    const post = await fetch(`${studio.url}api/runs`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('unreadable trace files', () => {
  it('lists a malformed, empty or foreign file as unreadable with the reason, and keeps serving the others', async () => {
    const dir = await runsDir();
    const release = await recordRelease(dir);
    const text = JSON.stringify(release);
    await writeFile(join(dir, 'cut.json'), text.slice(0, text.length / 2));
    await writeFile(join(dir, 'empty.json'), '');
    await writeFile(join(dir, 'other.json'), JSON.stringify({ version: 2, runId: 'other' }));
    await writeFile(
      join(dir, 'bad-node.json'),
      JSON.stringify({
        ...release,
        runId: 'bad-node',
        root: { ...release.root, children: [{ id: 'x', name: 'x' }] },
      }),
    );
    await writeFile(join(dir, 'notes.txt'), 'not a trace file');
    const studio = await openStudio(dir);
    try {
      const list = await eventually(async () => {
        const body = (await (await fetch(`${studio.url}api/runs`)).json()) as RunList;
        expect(body.runs).toHaveLength(5); // files that just changed get a moment to finish being written
        return body;
      });
      const reasons = Object.fromEntries(
        list.runs.map((run) => [run.runId, 'unreadable' in run ? run.unreadable : run.status]),
      );
      expect(reasons).toEqual({
        [release.runId]: 'succeeded',
        cut: expect.stringMatching(
          /^not valid JSON \(.+\); a file cut short or still being written reads like this$/,
        ),
        empty: 'the file is empty; a run that is starting writes it shortly',
        other: 'not a June trace: version is 2; Studio reads version 1 traces',
        'bad-node':
          'not a June trace: root.children[0].kind is missing; expected one of run, agent, step, model, tool, catch, parallel, branch',
      });

      const cut = await fetch(`${studio.url}api/runs/cut`);
      expect(cut.status).toBe(422);
      expect(await cut.json()).toEqual({
        error: expect.stringMatching(/^june: the trace of run "cut" is unreadable: not valid JSON/),
        unreadable: reasons.cut,
      });
      expect((await fetch(`${studio.url}api/runs/${release.runId}`)).status).toBe(200);
    } finally {
      await studio.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a file in the middle of a write', () => {
  it('keeps its last readable entry while it may still be written, and counts as unreadable once it settles', async () => {
    const dir = await runsDir();
    const release = await recordRelease(dir);
    const path = join(dir, `${release.runId}.json`);
    const events: StudioEvent[] = [];
    const patient = new RunDirectory({
      dir,
      settleMs: 60_000,
      onChange: (event) => events.push(event),
    });
    try {
      await patient.start();
      expect(events).toEqual([
        {
          type: 'run',
          run: expect.objectContaining({ runId: release.runId, status: 'succeeded' }),
        },
      ]);
      await writeFile(path, JSON.stringify(release).slice(0, 300));
      expect(await patient.list()).toEqual([
        expect.objectContaining({ runId: release.runId, status: 'succeeded' }),
      ]);
      expect(events).toHaveLength(1);

      const settled = new RunDirectory({ dir, settleMs: 0 });
      expect(await settled.list()).toEqual([
        {
          runId: release.runId,
          file: `${release.runId}.json`,
          unreadable: expect.stringMatching(/^not valid JSON/),
          updatedAt: expect.any(String),
        },
      ]);
      settled.close();
    } finally {
      patient.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the live channel', () => {
  it('sends a run when its file appears, each time it changes, and its removal', async () => {
    const dir = await runsDir();
    const studio = await openStudio(dir, { pollIntervalMs: 60_000 }); // fs.watch alone
    const live = await listen(studio.url);
    try {
      const elsewhere = await runsDir();
      const release = await recordRelease(elsewhere);
      await rm(elsewhere, { recursive: true, force: true });
      const running = {
        ...release,
        status: 'running' as const,
        endedAt: undefined,
        root: { ...release.root, status: 'running' as const, children: [] },
      };
      await writeTrace(dir, running);
      const appeared = await live.next(
        (e) => e.event === 'run' && e.data.run.runId === release.runId,
      );
      expect(appeared.data).toEqual({
        type: 'run',
        run: expect.objectContaining({ runId: release.runId, status: 'running', nodeCount: 1 }),
      });
      expect(appeared.data.run).not.toHaveProperty('durationMs');

      await writeTrace(dir, release);
      const finished = await live.next(
        (e) => e.event === 'run' && e.data.run.status === 'succeeded',
      );
      expect(finished.data.run).toMatchObject({
        runId: release.runId,
        durationMs: Date.parse(release.endedAt!) - Date.parse(release.startedAt),
        nodeCount: 10,
      });

      await unlink(join(dir, `${release.runId}.json`));
      expect((await live.next((e) => e.event === 'run-removed')).data).toEqual({
        type: 'run-removed',
        runId: release.runId,
      });
    } finally {
      await live.close();
      await studio.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds a directory created after Studio started (the poll fallback)', async () => {
    const parent = await runsDir();
    const dir = join(parent, '.june', 'runs');
    const studio = await openStudio(dir, { pollIntervalMs: 50 });
    const live = await listen(studio.url);
    try {
      expect(((await (await fetch(`${studio.url}api/runs`)).json()) as RunList).runs).toEqual([]);
      await mkdir(dir, { recursive: true });
      const release = await recordRelease(dir);
      await live.next((e) => e.event === 'run' && e.data.run.runId === release.runId);
    } finally {
      await live.close();
      await studio.close();
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('close() ends the live connections and frees the port', async () => {
    const dir = await runsDir();
    const studio = await openStudio(dir);
    const live = await listen(studio.url);
    await studio.close();
    await eventually(() => expect(live.ended).toBe(true));
    await expect(fetch(`${studio.url}api/runs`)).rejects.toThrow();
    await rm(dir, { recursive: true, force: true });
  });
});

describe('startStudio errors', () => {
  it('says when the port is taken, with what to change', async () => {
    const dir = await runsDir();
    const first = await openStudio(dir);
    const port = Number(new URL(first.url).port);
    try {
      const error = await startStudio({ dir, port, assetsDir: await studioUi() }).catch(
        (e: unknown) => e,
      );
      expect(JuneError.isInstance(error) && error.code).toBe('studio-listen-failed');
      expect((error as Error).message).toBe(
        `june: Studio could not listen on 127.0.0.1:${port} (EADDRINUSE): another program uses that port; pass another port (--port N), or 0 for any free one.`,
      );
    } finally {
      await first.close();
    }
  });

  it('says when the UI is not built, and when the port is not a port', async () => {
    const empty = await runsDir();
    await expect(startStudio({ dir: empty, port: 0, assetsDir: empty })).rejects.toMatchObject({
      code: 'studio-ui-missing',
      message: expect.stringMatching(
        /^june: Studio's UI is not built: .*index\.html does not exist\. Run `npm run build:studio`/,
      ),
    });
    await expect(
      startStudio({ dir: empty, port: 70000, assetsDir: await studioUi() }),
    ).rejects.toMatchObject({
      code: 'studio-port-invalid',
      message:
        "june: Studio's port must be an integer from 0 to 65535 (0 picks a free one), got 70000.",
    });
  });
});
