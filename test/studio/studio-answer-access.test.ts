import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import type { Trace } from '../../src/trace/trace-node.js';
import { openStudio, runsDir } from './support.js';

// Answering an approval changes a run, so Studio takes answers only from its own page (same
// origin) with the token it printed at start, on top of the Host check every request gets.
// A refused request is a 4xx with a june: message and writes nothing.

const runId = '20261130-120000-abcdef012345';
const key = `${runId}/release#0.0`;
const at = '2026-11-30T12:00:00.000Z';

/** A run stopped (Ctrl-C) while its deploy call waited for approval: its trace and journal. */
async function stoppedRun(dir: string): Promise<void> {
  const node = (id: string, kind: string, name: string, extra: object, children: unknown[]) => ({
    id,
    kind,
    name,
    status: 'aborted',
    startedAt: at,
    endedAt: at,
    children,
    ...extra,
  });
  const tool = node(
    't',
    'tool',
    'deploy',
    {
      toolCallId: 'call-1',
      input: { env: 'prod' },
      approval: { id: 'approval-1', key, status: 'withdrawn' },
    },
    [],
  );
  const step = node('s', 'step', 'release', { step: 'release' }, [tool]);
  const agent = node(
    'a',
    'agent',
    'agent',
    { capabilities: [{ name: 'deploy', source: '<Tool name="deploy">' }] },
    [step],
  );
  const trace = {
    version: 1,
    runId,
    workflow: 'flow.tsx',
    status: 'aborted',
    startedAt: at,
    endedAt: at,
    root: node('r', 'run', 'flow.tsx', {}, [agent]),
  } as Trace;
  await writeFile(join(dir, `${runId}.json`), JSON.stringify(trace));
  await mkdir(join(dir, runId));
  const journal = [
    { type: 'journal', version: 3, runId, workflow: 'flow.tsx', startedAt: at },
    {
      type: 'approval-request',
      step: 'release',
      call: 'release#0.0',
      toolCallId: 'call-1',
      tool: 'deploy',
      input: { env: 'prod' },
      at,
    },
  ];
  await writeFile(
    join(dir, runId, 'journal.jsonl'),
    journal.map((record) => JSON.stringify(record)).join('\n') + '\n',
  );
}

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('June Studio: who may answer an approval', () => {
  let dir: string;
  let studio: Studio;
  let endpoint: string;
  const answers = () => join(dir, runId, 'answers.jsonl');

  beforeAll(async () => {
    dir = await runsDir();
    await stoppedRun(dir);
    studio = await openStudio(dir);
    endpoint = `${studio.url}api/runs/${runId}/approvals`;
  });
  afterAll(async () => {
    await studio?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the waiting call with its input, step and provenance, and the run as aborted, as its trace says', async () => {
    const listed = await (await fetch(endpoint)).json();
    expect(listed).toEqual({
      runId,
      state: 'stopped',
      resumable: false,
      waiting: [
        {
          key,
          requestId: 'approval-1',
          tool: 'deploy',
          input: { env: 'prod' },
          step: 'release',
          status: 'withdrawn',
          toolCallId: 'call-1',
          provenance: { name: 'deploy', source: '<Tool name="deploy">' },
        },
      ],
    });
    const { runs } = await (await fetch(`${studio.url}api/runs`)).json();
    expect(runs[0]).toMatchObject({ runId, status: 'aborted', pendingApprovals: 1 });
  });

  it('refuses a cross-origin POST, a missing or wrong token and a rebinding Host, writing nothing', async () => {
    const answer = { key, approved: true };
    const bearer = { authorization: `Bearer ${studio.answerToken}` };
    const refused = [
      [403, { ...bearer, origin: 'http://evil.example' }],
      [403, { ...bearer, origin: 'null' }],
      [403, { ...bearer, 'sec-fetch-site': 'cross-site' }],
      [401, {}],
      [401, { authorization: 'Bearer wrong-token' }],
      [401, { origin: new URL(studio.url).origin, 'sec-fetch-site': 'same-origin' }],
      [403, { ...bearer, host: 'evil.example' }],
    ] as const;
    for (const [status, headers] of refused) {
      const response = await post(endpoint, answer, headers);
      expect(response.status, JSON.stringify(headers)).toBe(status);
      expect(response.body.error, JSON.stringify(headers)).toMatch(/^june: /);
    }
    expect(existsSync(answers())).toBe(false);
  });

  it("takes the page's same-origin answer with the token, once", async () => {
    const headers = {
      authorization: `Bearer ${studio.answerToken}`,
      origin: new URL(studio.url).origin,
      'sec-fetch-site': 'same-origin',
    };
    const malformed = await post(endpoint, { key, approved: 'yes' }, headers);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^june: an approval answer is JSON/);

    const taken = await post(endpoint, { key, approved: false, reason: 'not today' }, headers);
    expect(taken).toEqual({ status: 202, body: { delivered: 'recorded' } });
    expect(JSON.parse(await readFile(answers(), 'utf8'))).toMatchObject({
      key,
      approved: false,
      reason: 'not today',
    });
    const again = await post(endpoint, { key, approved: true }, headers);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/^june: run ".+" waits for no approval of the call/);
  });
});
