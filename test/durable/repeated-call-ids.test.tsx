// A provider that repeats a tool call id within one answer (some OpenAI-compatible servers
// do): each call keeps its own identity by place, is asked and answered once, runs once, and
// the history sent back to the provider names each call once.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { tool } from 'ai';
import { Agent, Step, Tool, memoryJournalStore, run, type JournalRecord } from 'june';
import { mockUsage } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, unreachableModel } from './support.js';

/** A streaming model whose first turn calls `echo` twice with the id `dup`, then answers `Done.`; it keeps no state, so a new copy answers a resumed run alike. */
function repeatingModel(): LanguageModelV4 & { prompts: LanguageModelV4Prompt[] } {
  const prompts: LanguageModelV4Prompt[] = [];
  const answer = (options: LanguageModelV4CallOptions): LanguageModelV4StreamPart[] => {
    const first = !options.prompt.some((message) => message.role === 'assistant');
    const calls = first
      ? ['a', 'b'].map((text): LanguageModelV4StreamPart => ({
          type: 'tool-call',
          toolCallId: 'dup',
          toolName: 'echo',
          input: JSON.stringify({ text }),
        }))
      : [];
    const text: LanguageModelV4StreamPart[] = first
      ? []
      : [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Done.' },
          { type: 'text-end', id: 't' },
        ];
    const finish = first ? 'tool-calls' : 'stop';
    return [
      { type: 'stream-start', warnings: [] },
      ...text,
      ...calls,
      { type: 'finish', finishReason: { unified: finish, raw: finish }, usage: mockUsage(10, 5) },
    ];
  };
  return {
    specificationVersion: 'v4',
    provider: 'test',
    modelId: 'repeating',
    supportedUrls: {},
    prompts,
    doGenerate: async () => {
      throw new Error('repeatingModel streams only');
    },
    doStream: async (options) => {
      prompts.push(options.prompt);
      const parts = answer(options);
      return {
        stream: new ReadableStream({
          start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()),
        }),
      };
    },
  };
}

function echoTool(needsApproval: boolean) {
  const ran: string[] = [];
  const echo = tool({
    inputSchema: z.object({ text: z.string() }),
    needsApproval,
    execute: async ({ text }) => (ran.push(text), `echo ${text}`),
  });
  return { ran, echo };
}

function Workflow({
  model,
  echo,
}: {
  model: LanguageModelV4;
  echo: ReturnType<typeof echoTool>['echo'];
}) {
  return (
    <Agent model={model}>
      <Tool name="echo" value={echo} />
      <Step id="s" prompt="Go" />
    </Agent>
  );
}

/** The ids of the tool calls and of the tool results in `prompt`, in order. */
function idsIn(prompt: LanguageModelV4Prompt) {
  const of = (role: string, type: string) =>
    prompt.flatMap((message) =>
      message.role === role
        ? (message.content as Array<{ type: string; toolCallId?: string }>)
            .filter((part) => part.type === type)
            .map((part) => part.toolCallId!)
        : [],
    );
  return { calls: of('assistant', 'tool-call'), results: of('tool', 'tool-result') };
}

/** The provider's history is consistent: two calls, two distinct ids, one result for each. */
function expectConsistent(prompt: LanguageModelV4Prompt) {
  const { calls, results } = idsIn(prompt);
  expect(calls).toHaveLength(2);
  expect(new Set(calls).size).toBe(2);
  expect(calls[0]).toBe('dup');
  expect([...results].sort()).toEqual([...calls].sort());
}

/** Runs the workflow to its end, answering each approval request as a person would. */
async function approvedRun() {
  const store = memoryJournalStore();
  const model = repeatingModel();
  const { ran, echo } = echoTool(true);
  const handle = run(<Workflow model={model} echo={echo} />, { journal: store });
  const requests: string[] = [];
  for await (const event of handle.events)
    if (event.type === 'approval-request') {
      requests.push(event.request.toolCallId);
      handle.approve(event.request.id);
    }
  const result = await handle.result;
  return { store, model, ran, result, requests, runId: handle.runId };
}

describe('two calls with one id in one answer', () => {
  it('each needing approval: each is asked, answered and run once, and the next request names each call once', async () => {
    const { model, ran, result, requests, store, runId } = await approvedRun();
    expect(result.output).toBe('Done.');
    expect(requests).toHaveLength(2);
    expect(new Set(requests).size).toBe(2);
    expect(ran.sort()).toEqual(['a', 'b']);
    expect(model.prompts).toHaveLength(2);
    expectConsistent(model.prompts[1]!);
    const records = await store.read(runId);
    const answers = records.filter((record) => record.type === 'approval-answer');
    expect(answers.map((record) => record.call)).toEqual(['s#0.0', 's#0.1']);
  });

  it('a resume after both answers: the answers stand, each tool runs once, the request is the same', async () => {
    const first = await approvedRun();
    const records = await first.store.read(first.runId);
    const answered = records.findLastIndex((record) => record.type === 'approval-answer');
    // what a process that died right after the second answer leaves
    const crashed = memoryJournalStore();
    for (const record of records.slice(0, answered + 1))
      await crashed.append(first.runId, record as JournalRecord);

    const model = repeatingModel();
    const { ran, echo } = echoTool(true);
    const resumed = run(<Workflow model={model} echo={echo} />, {
      journal: crashed,
      resume: first.runId,
    });
    const { events, done } = collect(resumed);
    const result = await resumed.result;
    await done;
    expect(result.output).toBe('Done.');
    expect(ran.sort()).toEqual(['a', 'b']);
    expect(resumed.pendingApprovals).toEqual([]);
    expect(
      events.filter((event) => event.type === 'approval-response').map((e) => e.replayed),
    ).toEqual([true, true]);
    expect(model.prompts).toEqual([first.model.prompts[1]]);
    expect(result.usage).toEqual(first.result.usage);
  });

  it('a replay with no model call: the same output, each tool answered from the recording', async () => {
    const first = await approvedRun();
    const recording = await first.store.read(first.runId);
    const model = unreachableModel();
    const { ran, echo } = echoTool(true);
    const handle = run(<Workflow model={model} echo={echo} />, {
      replay: recording,
      replayTools: true,
    });
    const result = await handle.result;
    expect(model.calls).toBe(0);
    expect(ran).toEqual([]);
    expect(result.output).toBe('Done.');
    expect(result.usage).toEqual(first.result.usage);
    expect(handle.pendingApprovals).toEqual([]);
  });

  it('without approval: each runs once, and the next request names each call once', async () => {
    const model = repeatingModel();
    const { ran, echo } = echoTool(false);
    const result = await run(<Workflow model={model} echo={echo} />, {
      journal: memoryJournalStore(),
    }).result;
    expect(result.output).toBe('Done.');
    expect(ran.sort()).toEqual(['a', 'b']);
    expectConsistent(model.prompts[1]!);
  });
});
