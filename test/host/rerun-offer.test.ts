import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rerunOffer } from '../../src/host/rerun-offer.js';
import { modelChoiceFlags } from '../../src/studio/model-choice-flags.js';
import type { TraceStatus } from '../../src/trace/trace-node.js';

// Studio's Re-run replays only a recording that is complete: a run that ended succeeded.
// Every other state of the last run gets another offer, and a replay start of it is refused
// before any process starts.

let root: string;
let runsDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'june-rerun-'));
  runsDir = join(root, '.june', 'runs');
  mkdirSync(runsDir, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const at = '2026-12-02T10:00:00.000Z';

/** A run of the runs folder: its trace (with a pending deploy when `pending`) and its journal. */
function recordedRun(runId: string, status: TraceStatus, pending = false): void {
  const deploy = {
    id: 't',
    kind: 'tool',
    name: 'deploy',
    status: pending ? 'waiting' : 'succeeded',
    startedAt: at,
    input: { env: 'prod' },
    children: [],
    ...(pending
      ? {
          approval: {
            status: 'pending',
            requestId: 'req-1',
            key: `${runId}/release#0.0`,
            step: 'release',
          },
        }
      : {}),
  };
  const trace = {
    version: 1,
    runId,
    workflow: 'release.tsx',
    status,
    startedAt: at,
    root: { id: 'r', kind: 'run', name: 'release.tsx', status, startedAt: at, children: [deploy] },
  };
  writeFileSync(join(runsDir, `${runId}.json`), JSON.stringify(trace));
  const folder = join(runsDir, runId);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const records = [
    { type: 'journal', version: 5, runId, workflow: 'release.tsx', startedAt: at },
    ...(pending
      ? [
          {
            type: 'approval-request',
            step: 'release',
            call: 'release#0.0',
            toolCallId: 'c1',
            tool: 'deploy',
            input: { env: 'prod' },
            at,
          },
        ]
      : []),
    ...(status === 'succeeded' || status === 'failed' || status === 'aborted'
      ? [{ type: 'run-finish', status, at }]
      : []),
  ];
  writeFileSync(join(folder, 'journal.jsonl'), records.map((r) => JSON.stringify(r)).join('\n'));
}

const replayOf = (runId: string) =>
  modelChoiceFlags({ kind: 'replay', runId }, { root, runsDir }).then(
    (flags) => ({ flags }),
    (error: { code: string; status: number; message: string }) => ({
      code: error.code,
      status: error.status,
      message: error.message,
    }),
  );

describe("Studio's Re-run", () => {
  it('replays a run that ended succeeded, with its tools answered from the recording', async () => {
    recordedRun('20261202-100000-aaaa', 'succeeded');
    expect(await replayOf('20261202-100000-aaaa')).toEqual({
      flags: ['--replay=20261202-100000-aaaa', '--replay-tools'],
    });
  });

  it.each([
    ['aborted', false, 'ended aborted, so its recording stops partway'],
    ['failed', false, 'ended failed, so its recording stops partway'],
    ['running', false, 'is still running'],
    ['running', true, 'waits for an answer'],
    ['aborted', true, 'stopped while a call waited for an answer: answer it on its page'],
  ] as const)(
    'refuses a run that is %s (pending approval: %s) before anything starts, saying why',
    async (status, pending, why) => {
      recordedRun('20261202-100000-bbbb', status, pending);
      const refused = await replayOf('20261202-100000-bbbb');
      expect(refused).toMatchObject({ code: 'studio-rerun-incomplete', status: 409 });
      expect((refused as { message: string }).message).toContain(why);
      expect((refused as { message: string }).message).toMatch(/^june: Run 20261202-100000-bbbb /);
    },
  );

  it('offers, for every state, what the page shows instead of Re-run', () => {
    const kinds = (['succeeded', 'waiting', 'running', 'aborted', 'failed'] as const).map(
      (status) => rerunOffer('r1', status).kind,
    );
    expect(kinds).toEqual(['rerun', 'answer', 'wait', 'fresh', 'fresh']);
    const fresh = rerunOffer('r1', 'aborted');
    expect('why' in fresh && fresh.why).toContain('Start a fresh run');
  });
});
