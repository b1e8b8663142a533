// A replay's journal-mismatch says what the replay did with its tools: run them for real (the
// default), or answer them from the recording (replayTools, june run --replay-tools).
import { tool } from 'ai';
import { Agent, JuneError, memoryJournalStore, run, Step, Tool, type JournalRecord } from 'june';
import { journalCallChanged, journalCallMissing } from '../../src/journal/index.js';
import { scriptedModel } from 'june/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { juneFailure } from '../helpers/june-failure.js';

let stock = 3;
const count = tool({
  description: 'Count the crates in stock',
  inputSchema: z.object({}),
  execute: async () => ({ crates: stock }),
});
const script = {
  steps: { stock: [{ toolCalls: [{ tool: 'count', input: {} }] }, { text: 'There are crates.' }] },
};
const Stock = ({ task = 'Count the crates' }: { task?: string }) => (
  <Agent model={scriptedModel(script)}>
    <Tool name="count" value={count} />
    <Step id="stock" prompt={task} />
  </Agent>
);

let recording: JournalRecord[];
beforeAll(async () => {
  const store = memoryJournalStore();
  stock = 3;
  const handle = run(<Stock />, { journal: store });
  await handle.result;
  recording = await store.read(handle.runId);
});

describe("a replay's mismatch says whether its tools ran or were replayed", () => {
  it('tools ran and one now gives another result: the message says they ran, and what to do', async () => {
    stock = 4;
    const error = await juneFailure(run(<Stock />, { replay: recording }).result);
    expect(error.code).toBe('journal-mismatch');
    expect(error.message).toContain(
      'first difference at message 3 (tool): recorded "count → {\\"crates\\":3}", now "count → {\\"crates\\":4}"',
    );
    expect(error.message).toContain(
      " Tool calls ran for real in this replay (not answered from the recording), so a tool's result can differ from the recorded one: keep values that change from run to run (times, paths, ids) from the model with the tool's toModelOutput (omitFromModel in june/tools), or answer tools from the recording with replayTools: true (june run --replay-tools). If the change is intended, record the run again.",
    );
    expect(JuneError.detailsOf(error, 'journal-mismatch')).toMatchObject({
      difference: 'request-changed',
      tools: 'run',
    });
  });

  it('with replayTools the changed tool does not matter; a changed prompt does, and the message says no tool ran', async () => {
    stock = 5;
    expect((await run(<Stock />, { replay: recording, replayTools: true }).result).output).toBe(
      'There are crates.',
    );
    const error = await juneFailure(
      run(<Stock task="Count the boxes" />, { replay: recording, replayTools: true }).result,
    );
    expect(error.message).toContain('recorded "Count the crates", now "Count the boxes"');
    expect(error.message).toContain(
      ' Tool calls were answered from the recording (replayTools, june run --replay-tools), not run: no tool result explains the difference, the workflow itself asks something else. If the change is intended, record the run again.',
    );
    expect(JuneError.detailsOf(error, 'journal-mismatch')).toMatchObject({ tools: 'replayed' });
  });

  it('tools ran but the difference is elsewhere: the details still say so', async () => {
    stock = 3;
    const error = await juneFailure(
      run(<Stock task="Count the boxes" />, { replay: recording }).result,
    );
    expect(error.message).not.toContain('Tool calls');
    expect(JuneError.detailsOf(error, 'journal-mismatch')).toMatchObject({ tools: 'run' });
  });

  it('a call the recording lacks, and a tool call that no longer fits, say it too', () => {
    const missing = journalCallMissing('the recording r.jsonl', { step: 'stock' }, 2, {
      tools: 'replayed',
    });
    expect(missing.message).toContain('Tool calls were answered from the recording');
    expect(JuneError.detailsOf(missing, 'journal-mismatch')).toMatchObject({ tools: 'replayed' });
    const changed = journalCallChanged(
      'the recording r.jsonl',
      { step: 'stock' },
      { call: 'stock#0.0', tool: 'count' },
      'its input was {} when the run was recorded, now {"all":true}',
      undefined,
      { tools: 'run' },
    );
    expect(changed.message).toMatch(
      /does not fit what was recorded: its input was \{\} when the run was recorded, now \{"all":true\}\. Nothing ran\. Tool calls ran for real in this replay .* If the change is intended, record the run again\.$/,
    );
    // a resume keeps its own advice
    const resumed = journalCallChanged(
      'j',
      { step: 'stock' },
      { call: 'stock#0.0', tool: 'count' },
      'x',
    );
    expect(resumed.message).toMatch(
      /Nothing ran; resume the run with the workflow as it was, or start a new run\.$/,
    );
    expect(JuneError.detailsOf(resumed, 'journal-mismatch')).not.toHaveProperty('tools');
  });
});
