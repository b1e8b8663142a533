// run(el, { redact }) keeps values and patterns out of a run's events, trace, journal and
// error, while the run itself (its tools and model) sees the real values; a resumed run
// matches its redacted journal.
import { tool } from 'ai';
import { Agent, JuneError, run, Step, Tool, memoryJournalStore } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { collect, turnModel } from '../durable/support.js';
import { streamModel, type MockTurn } from '../helpers/mock-stream-model.js';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

const secret = 'vault-value-31415';
const keyLike = 'sk-abcdefghijklmnop';
const redact = { values: [secret], patterns: [/sk-[a-z]{16}/] };

function Vault({ onRead }: { onRead?: () => void }) {
  const read = tool({
    description: 'Read the vault',
    inputSchema: z.object({}),
    execute: async () => {
      onRead?.();
      return { value: secret, key: keyLike };
    },
  });
  // the turn is read off the request (assistant messages so far), so a fresh model answers a resumed run alike
  const turns: MockTurn[] = [
    { toolCalls: [{ id: 'c_read', name: 'read', input: {} }] },
    { toolCalls: [{ id: 'c_read2', name: 'read', input: {} }] },
    { text: [`The vault holds ${secret.slice(0, 9)}`, `${secret.slice(9)} and ${keyLike}.`] },
  ];
  const byRequest = (options: LanguageModelV4CallOptions) =>
    turns[options.prompt.filter((message) => message.role === 'assistant').length]!;
  const model = streamModel([byRequest, byRequest, byRequest]);
  return (
    <Agent model={model}>
      <Tool name="read" value={read} />
      <Step id="open" prompt={`Open the vault (it is ${secret})`} />
    </Agent>
  );
}

describe('the redact option', () => {
  test('events, trace, result and journal hold [redacted]; the model and tools saw the real values', async () => {
    const store = memoryJournalStore();
    const handle = run(<Vault />, { journal: store, redact });
    const { events, done } = collect(handle);
    const result = await handle.result;
    await done;

    const records = store.text(handle.runId);
    for (const text of [
      JSON.stringify(events),
      JSON.stringify(result.trace),
      JSON.stringify(handle.trace()),
      records,
    ]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(keyLike);
      expect(text).toContain('[redacted]');
    }
    // streamed text is redacted even when the value comes in two deltas
    const streamed = events
      .flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []))
      .join('');
    expect(streamed).toBe('The vault holds [redacted] and [redacted].');
    // the step's result is the model's real answer: redaction is for records, not for the run's own values
    expect(result.steps.open).toBe(`The vault holds ${secret} and ${keyLike}.`);
  });

  test('a value with spaces streamed across deltas never goes out in pieces', async () => {
    const spaced = 'open sesame 31415';
    const model = streamModel([{ text: ['The word is open ', 'sesame ', '31415. Done.'] }]);
    const handle = run(
      <Agent model={model}>
        <Step id="ask" prompt="What is the word?" />
      </Agent>,
      { redact: { values: [spaced] } },
    );
    const { events, done } = collect(handle);
    const result = await handle.result;
    await done;
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(deltas.join('')).toBe('The word is [redacted]. Done.');
    for (const delta of deltas)
      for (const piece of ['open', 'sesame', '31415']) expect(delta).not.toContain(piece);
    expect(JSON.stringify(result.trace)).not.toContain('sesame');
    expect(result.steps.ask).toBe(`The word is ${spaced}. Done.`);
  });

  test('with values only, text goes out as it streams; a pattern holds it back to its last space', async () => {
    const pieces = ['Think', 'ing about', ' it', '.'];
    const deltasWith = async (options: Parameters<typeof run>[1]) => {
      const handle = run(
        <Agent model={streamModel([{ text: pieces }])}>
          <Step id="ask" prompt="Think" />
        </Agent>,
        options,
      );
      const { events, done } = collect(handle);
      await handle.result;
      await done;
      return events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    };
    // a provider key in the environment is a value too: it no longer holds text to the spaces
    expect(await deltasWith({ redact: { values: [secret] } })).toEqual(pieces);
    const patterned = await deltasWith({ redact: { patterns: [/sk-[a-z]{16}/] } });
    expect(patterned.join('')).toBe(pieces.join(''));
    expect(patterned[0]).not.toBe('Think');
  });

  test('a run resumed from its redacted journal matches it: recorded calls are not made again', async () => {
    const store = memoryJournalStore();
    let reads = 0;
    const handle = run(<Vault onRead={() => reads++} />, { journal: store, redact });
    await handle.result;
    expect(reads).toBe(2);
    // the journal as a crash after the second model call would leave it: that call's request holds the redacted tool output
    const records = (await store.read(handle.runId)).slice(0, 4);
    expect(records.map((record) => record.type)).toEqual([
      'journal',
      'model-call',
      'tool-call',
      'model-call',
    ]);
    const crashed = memoryJournalStore();
    for (const record of records) await crashed.append(handle.runId, record);

    const resumed = run(<Vault onRead={() => reads++} />, {
      journal: crashed,
      resume: handle.runId,
      redact,
    });
    expect((await resumed.result).steps.open).toBe(`The vault holds ${secret} and ${keyLike}.`);
    expect(reads).toBe(3); // the recorded call was not made again; the second one was
    expect(crashed.text(handle.runId)).not.toContain(secret);
  });

  test('the error a run rejects with is redacted, with its cause', async () => {
    const failing = tool({ description: 'd', inputSchema: z.object({}), execute: async () => 'x' });
    function Failing() {
      throw new Error(`cannot reach the vault with ${secret}`, {
        cause: new Error(`the vault said ${keyLike}`),
      });
      return (
        <Agent model={turnModel({})}>
          <Tool name="f" value={failing} />
        </Agent>
      );
    }
    const error = await run(<Failing />, { redact }).result.then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toBe('cannot reach the vault with [redacted]');
    expect((error?.cause as Error).message).toBe('the vault said [redacted]');
    expect(JSON.stringify((error as JuneError & { trace?: unknown }).trace)).not.toContain(secret);
  });
});
