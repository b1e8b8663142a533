// Journal schema version 3: a model call's record keeps what its request added to the one
// before it in the same run, and the hash of the whole request; sizes grow linearly.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import { Agent, run, Step, Tool, fileJournalStore, loadJournal, memoryJournalStore } from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Release, releaseTools, releaseTurns, turnModel, unreachableModel } from './support.js';

/** One step whose model calls `lookup` `turns` times, one call a turn, then answers; its journal's lines. */
async function journalOf(turns: number): Promise<string[]> {
  const script: ScriptTurn[] = [
    ...Array.from({ length: turns }, (_, i) => ({
      toolCalls: [{ id: `c${i}`, tool: 'lookup', input: { n: i } }],
    })),
    { text: 'Done.' },
  ];
  const lookup = tool({
    inputSchema: z.object({ n: z.number() }),
    execute: async ({ n }) => `value ${n}: ${'x'.repeat(200)}`,
  });
  const store = memoryJournalStore();
  const handle = run(
    <Agent model={scriptedModel({ steps: { lookups: script } })} stopWhen={() => false}>
      <Tool name="lookup" value={lookup} />
      <Step id="lookups" prompt={`Look up ${turns} numbers.`} />
    </Agent>,
    { journal: store },
  );
  await handle.result;
  return store.text(handle.runId).trimEnd().split('\n');
}

const modelCallBytes = (lines: string[]) =>
  lines
    .filter((line) => line.includes('"type":"model-call"'))
    .map((line) => Buffer.byteLength(line));

describe('a journal grows with the conversation, not with its square', () => {
  it('a model call record holds what its request added: the same size at turn 40 as at turn 2', async () => {
    const sizes = modelCallBytes(await journalOf(40));
    expect(sizes).toHaveLength(41);
    const later = sizes.slice(1);
    expect(Math.max(...later) / Math.min(...later)).toBeLessThan(1.2);
  });

  it('bytes per turn at 40 turns are within 1.2 of those at 5 turns', async () => {
    const bytes = async (turns: number) =>
      (await journalOf(turns)).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0) / turns;
    expect((await bytes(40)) / (await bytes(5))).toBeLessThan(1.2);
  });

  it('each record names the earlier request its prompt starts with, and the whole request hashes as recorded', async () => {
    const lines = await journalOf(3);
    const records = lines.map((line) => JSON.parse(line));
    const calls = records.filter((record) => record.type === 'model-call');
    expect(calls[0].promptBase).toBeUndefined();
    for (let i = 1; i < calls.length; i++) {
      expect(calls[i].promptBase.requestHash).toBe(calls[i - 1].requestHash);
      // the whole previous prompt is shared; the request adds the answer and the tool result
      expect(calls[i].promptBase.messages).toBe(2 * i - 1);
      expect(calls[i].request.prompt.map((m: { role: string }) => m.role)).toEqual([
        'assistant',
        'tool',
      ]);
    }
  });
});

const fixtures = fileURLToPath(new URL('../fixtures/journals/v3/', import.meta.url));

describe('version 3 sample journals (prompts stored as what each request added)', () => {
  it('release.jsonl replays: the same answer with no model and no tool run', async () => {
    const tools = releaseTools();
    const result = await run(<Release model={unreachableModel()} tools={tools} />, {
      replay: join(fixtures, 'release.jsonl'),
      replayTools: true,
    }).result;
    expect(result.output).toBe('Released 1.2.');
    expect(tools.ran).toEqual([]);
  });

  it.each([
    ['waiting-for-approval.jsonl', '20260102-030405-v3wt'],
    ['crashed-mid-write.jsonl', '20260102-030405-v3cr'],
  ])('%s resumes: only the calls that had not finished are made', async (name, runId) => {
    const dir = mkdtempSync(join(tmpdir(), 'june-fixture-'));
    try {
      mkdirSync(join(dir, runId));
      copyFileSync(join(fixtures, name), join(dir, runId, 'journal.jsonl'));
      const tools = releaseTools();
      const model = turnModel(releaseTurns);
      const result = await run(<Release model={model} tools={tools} />, {
        journal: fileJournalStore({ dir }),
        resume: runId,
        onApproval: () => true,
      }).result;
      expect(result.output).toBe('Released 1.2.');
      expect(model.calls.map((call) => `${call.step}#${call.turn}`)).toEqual([
        'release:ship:go#2',
        'release:prepare#3',
        'plan#3',
      ]);
      expect(tools.ran).toEqual(['deploy:prod']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a mismatch deep in a conversation still shows the first difference of the whole prompt', async () => {
    const recording = await loadJournal(join(fixtures, 'release.jsonl'));
    const tools = releaseTools();
    const changed = {
      ...tools,
      check: { ...tools.check, execute: async () => ({ green: false }) },
    } as unknown as typeof tools;
    const error = await run(<Release model={unreachableModel()} tools={changed} />, {
      replay: recording,
    }).result.then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toContain(
      'model call 2 of step "release:prepare" (inside the tool call plan#1.0) asks something else than the recorded call; first difference at message 3 (tool)',
    );
  });
});
