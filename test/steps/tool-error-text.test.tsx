// What a model reads when a tool throws, on ai@7 (which would put the error's name in front):
// the message alone, as documented, streaming or not, live or answered from a journal.
import { tool } from 'ai';
import { Agent, run, Step, Tool, WorkflowError, type RunLogEvent, memoryJournalStore } from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { specModel } from '../models/spec-models.js';

const thrown: Record<string, () => unknown> = {
  plain: () => new Error('disk full'),
  june: () => new WorkflowError('tool-output-invalid', 'june: the tool "x" returned a function'),
  text: () => 'a thrown string',
};
const read: Record<string, string> = {
  plain: 'disk full',
  june: 'june: the tool "x" returned a function',
  text: 'a thrown string',
};

describe.each(Object.keys(thrown))('a tool that throws (%s)', (kind) => {
  it.each([
    ['streaming', true],
    ['batch', false],
  ])('reaches the model as its message alone (%s), live and replayed', async (_, stream) => {
    const failing = tool({
      description: 'Fails',
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw thrown[kind]!();
      },
    });
    const seen: unknown[] = [];
    const model = () =>
      specModel('v4', (prompt) => {
        const last = prompt.at(-1) as { role: string; content: Array<{ output?: unknown }> };
        if (last.role !== 'tool') return { tool: 'failing', input: {}, id: 'c1' };
        seen.push(last.content[0]?.output);
        return { text: 'Noted.' };
      });
    const Flow = ({ m }: { m: ReturnType<typeof model> }) => (
      <Agent model={m}>
        <Tool name="failing" value={failing} />
        <Step id="go" prompt="Try" />
      </Agent>
    );
    const journal = memoryJournalStore();
    const errors: RunLogEvent[] = [];
    const handle = run(<Flow m={model()} />, {
      stream,
      journal,
      consumers: [{ event: (event) => event.type === 'tool-error' && errors.push(event) }],
    });
    await handle.result;
    // the events keep the tool's own error
    expect(errors).toMatchObject([
      { error: { message: kind === 'text' ? 'a thrown string' : read[kind] } },
    ]);
    expect(seen).toEqual([{ type: 'error-text', value: read[kind] }]);
    // replayed, the recorded error is thrown again: the request it makes (the text included)
    // is the recorded one, or the replay would fail with journal-mismatch
    const replayed = await run(<Flow m={model()} />, {
      stream,
      replay: await journal.read(handle.runId),
    }).result;
    expect(replayed.output).toBe('Noted.');
    expect(seen).toHaveLength(1);
  });
});
