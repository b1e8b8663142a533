// A resumed run answers its earlier model calls from the journal. Its spans must not export
// their usage again, or a backend summing `gen_ai.usage.*` counts them once per resume (a
// chat, where every message resumes the run, grows with the square of its length).
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { tool, type LanguageModel } from 'ai';
import { Agent, memoryJournalStore, RequireApproval, run, Step, Tool, type TraceNode } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput, type JuneUIMessage } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';
import { post, readMessage, userMessage } from '../web/support.js';
import { memoryTracing } from './support.js';

const deploy = tool({
  description: 'Deploy a build',
  inputSchema: z.object({ env: z.string() }),
  execute: async ({ env }) => `deployed to ${env}`,
});

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

/** What a backend sums from the chat spans: their count, and their `gen_ai.usage.*` tokens. */
function exportedUsage(spans: readonly ReadableSpan[]) {
  const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
  const sum = (key: string) =>
    chats.reduce((total, span) => total + Number(span.attributes[key] ?? 0), 0);
  return {
    counted: chats.filter((span) => span.attributes['gen_ai.usage.input_tokens'] !== undefined)
      .length,
    replayed: chats.filter((span) => span.attributes['june.replayed'] === true).length,
    input: sum('gen_ai.usage.input_tokens'),
    output: sum('gen_ai.usage.output_tokens'),
  };
}

function modelNodes(node: TraceNode): TraceNode[] {
  return [
    ...(node.kind === 'model' ? [node] : []),
    ...node.children.flatMap((child) => modelNodes(child)),
  ];
}

describe('spans of model calls answered from the journal', () => {
  it('a resumed run exports the usage of the call it made, and marks the replayed one; result.usage sums both', async () => {
    const { exporter, tracer } = memoryTracing();
    const journal = memoryJournalStore();
    const first = run(
      <Ship
        model={streamModel([
          {
            toolCalls: [{ id: 'c-deploy', name: 'deploy', input: { env: 'prod' } }],
            usage: [100, 10],
          },
        ])}
      />,
      { journal, tracer },
    );
    for await (const event of first.events)
      if (event.type === 'approval-request') first.abort('the process stops');
    await expect(first.result).rejects.toThrow();
    expect(exportedUsage(exporter.getFinishedSpans())).toEqual({
      counted: 1,
      replayed: 0,
      input: 100,
      output: 10,
    });

    exporter.reset();
    const resumed = run(<Ship model={streamModel([{ text: 'Shipped.', usage: [50, 5] }])} />, {
      journal,
      resume: first.runId,
      tracer,
      onApproval: () => true,
    });
    const result = await resumed.result;
    expect(exportedUsage(exporter.getFinishedSpans())).toEqual({
      counted: 1,
      replayed: 1,
      input: 50,
      output: 5,
    });
    // the run's own record still counts every model call of the run
    expect(result.usage).toMatchObject({ inputTokens: 150, outputTokens: 15 });
    expect(
      modelNodes(result.trace.root).map((node) => [node.usage?.inputTokens, node.replayed]),
    ).toEqual([
      [100, true],
      [50, undefined],
    ]);
  });

  it.each([
    ['streaming', true],
    ['batch mode', false],
  ])(
    'a replay (%s) exports no usage: every chat span is marked, result.usage is the recorded run’s',
    async (_mode, stream) => {
      const journal = memoryJournalStore();
      const recorded = run(
        <Ship
          model={streamModel([
            {
              toolCalls: [{ id: 'c-deploy', name: 'deploy', input: { env: 'prod' } }],
              usage: [100, 10],
            },
            { text: 'Shipped.', usage: [50, 5] },
          ])}
        />,
        { journal, tracer: false, onApproval: () => true },
      );
      const original = await recorded.result;
      const { exporter, tracer } = memoryTracing();
      const replayed = await run(<Ship model={streamModel([])} />, {
        replay: await journal.read(recorded.runId),
        replayTools: true,
        stream,
        tracer,
      }).result;
      expect(exportedUsage(exporter.getFinishedSpans())).toEqual({
        counted: 0,
        replayed: 2,
        input: 0,
        output: 0,
      });
      expect(replayed.usage).toEqual(original.usage);
      expect(modelNodes(replayed.trace.root).map((node) => node.replayed)).toEqual([true, true]);
    },
  );

  it('a chat of 3 messages through the chat handler exports 3 model calls, none replayed', async () => {
    const { exporter, tracer } = memoryTracing();
    const usage = { inputTokens: 10, outputTokens: 10 };
    const model = scriptedModel({
      $comment: 'Test fixture: three chat turns',
      steps: {
        'turn-1': [
          { text: 'One.', usage },
          { text: 'Two.', usage },
          { text: 'Three.', usage },
        ],
      },
    });
    function Chat({ chat }: { chat: ChatInput }) {
      return (
        <Agent model={model}>
          <ChatTurns chat={chat} />
        </Agent>
      );
    }
    const journal = memoryJournalStore();
    const finishes: Array<{ usage: { inputTokens?: number }; replayed?: boolean }> = [];
    const handler = chatHandler({
      workflow: Chat,
      journal,
      runOptions: { tracer },
      runConsumers: () => [
        {
          event: (event) => {
            if (event.type === 'run-finish') finishes.push(event);
          },
        },
      ],
    });
    const messages: JuneUIMessage[] = [];
    for (const [index, text] of ['Hi', 'And then?', 'Thanks'].entries()) {
      messages.push(userMessage(`u${index + 1}`, text));
      messages.push(await readMessage(await post(handler, { id: 'chat', messages })));
    }
    expect(model.calls).toHaveLength(3);
    expect(exportedUsage(exporter.getFinishedSpans())).toEqual({
      counted: 3,
      replayed: 0,
      input: 30,
      output: 30,
    });
    // each message is a run of its own: its one call, the conversation before it as context
    expect(finishes.map((finish) => finish.usage.inputTokens)).toEqual([10, 10, 10]);
  });
});
