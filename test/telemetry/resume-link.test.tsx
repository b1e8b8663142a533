import type { LanguageModel } from 'ai';
import { tool } from 'ai';
import { Agent, memoryJournalStore, RequireApproval, run, Step, Tool } from 'june';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';
import { memoryTracing } from './support.js';

const deploy = tool({
  description: 'Deploy a build',
  inputSchema: z.object({ env: z.string() }),
  execute: async ({ env }) => `deployed to ${env}`,
});

/** One step whose deploy call waits for an approval. */
function Ship({ model }: { model: LanguageModel }) {
  return (
    <Agent model={model} name="shipper">
      <RequireApproval>
        <Tool name="deploy" value={deploy} />
      </RequireApproval>
      <Step id="ship" prompt="Ship it" />
    </Agent>
  );
}

test('a resumed run links its run span to the original run’s, kept in the journal’s header', async () => {
  const { exporter, tracer } = memoryTracing();
  const journal = memoryJournalStore();
  const first = run(
    <Ship
      model={streamModel([
        { toolCalls: [{ id: 'c-deploy', name: 'deploy', input: { env: 'prod' } }] },
      ])}
    />,
    { journal, tracer },
  );
  for await (const event of first.events)
    if (event.type === 'approval-request') first.abort('the process stops');
  await expect(first.result).rejects.toThrow();
  const original = exporter.getFinishedSpans().find((span) => span.name === 'run Ship')!;
  const { traceId, spanId } = original.spanContext();
  const records = await journal.read(first.runId);
  expect(records[0]).toMatchObject({ type: 'journal', traceparent: `00-${traceId}-${spanId}-01` });

  exporter.reset();
  const resumed = run(<Ship model={streamModel([{ text: 'Shipped.' }])} />, {
    journal,
    resume: first.runId,
    tracer,
    onApproval: () => true,
  });
  await resumed.result;
  const root = exporter.getFinishedSpans().find((span) => span.name === 'run Ship')!;
  expect(root.spanContext().traceId).not.toBe(traceId);
  expect(root.attributes).toMatchObject({ 'june.run.id': first.runId, 'june.run.resumed': true });
  expect(root.links.map((link) => link.context)).toEqual([
    expect.objectContaining({ traceId, spanId }),
  ]);
  // the resume record keeps the resumed run's span, so a later resume links to both parts
  const resume = (await journal.read(first.runId)).find((record) => record.type === 'resume');
  expect(resume).toMatchObject({
    traceparent: `00-${root.spanContext().traceId}-${root.spanContext().spanId}-01`,
  });
});

test('a journal written without spans resumes with spans and no link', async () => {
  const { exporter, tracer } = memoryTracing();
  const journal = memoryJournalStore();
  const model = streamModel([
    { toolCalls: [{ id: 'c-deploy', name: 'deploy', input: { env: 'prod' } }] },
    { text: 'Shipped.' },
  ]);
  const first = run(<Ship model={model} />, { journal, tracer: false, onApproval: () => true });
  await first.result;
  expect((await journal.read(first.runId))[0]).not.toHaveProperty('traceparent');
  await run(<Ship model={model} />, { journal, resume: first.runId, tracer }).result;
  const root = exporter.getFinishedSpans().find((span) => span.name === 'run Ship')!;
  expect(root.links).toEqual([]);
});
