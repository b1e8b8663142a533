// Three composite levels down, one run asks a person a question and has a call edited: the
// root's inbox gets both, named by their path; the journal keeps the original, the edit, the
// answer and who gave them; a replay of the run is exact with zero model calls.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { tool } from 'ai';
import {
  Agent,
  Question,
  Step,
  Tool,
  memoryJournalStore,
  run,
  type ApprovalRequest,
  type JournalRecord,
  type RunHandle,
  type TraceNode,
} from 'june';
import { questionsIn, toolCallsIn } from 'june/evals';
import type { ScriptTurn } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnModel, unreachableModel } from '../durable/support.js';

const turns: Record<string, ScriptTurn[]> = {
  plan: [
    { toolCalls: [{ id: 'c_release', tool: 'release', input: { version: '1.2' } }] },
    { text: 'Planned.' },
  ],
  'release:prepare': [
    { toolCalls: [{ id: 'c_ship', tool: 'ship', input: { version: '1.2' } }] },
    { text: 'Prepared.' },
  ],
  'release:ship:go': [
    { toolCalls: [{ id: 'c_ask', tool: 'ask_env', input: { question: 'Where should 1.2 go?' } }] },
    { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
    { text: 'Shipped.' },
  ],
};

function deployTool(ran: string[]) {
  return tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
    needsApproval: true,
    execute: async ({ env }) => {
      ran.push(env);
      return `deployed to ${env}`;
    },
  });
}

function Plan({ model, ran }: { model: LanguageModelV4; ran: string[] }) {
  return (
    <Agent model={model}>
      <Tool name="release" description="Release" input={z.object({ version: z.string() })}>
        {({ version }) => (
          <Agent model={model}>
            <Tool name="ship" description="Ship" input={z.object({ version: z.string() })}>
              {() => (
                <Agent model={model}>
                  <Question name="ask_env" answer={z.enum(['staging', 'prod'])} />
                  <Tool name="deploy" value={deployTool(ran)} />
                  <Step id="go" prompt={`Ship ${version}`} />
                </Agent>
              )}
            </Tool>
            <Step id="prepare" prompt={`Prepare ${version}`} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt="Plan the release" />
    </Agent>
  );
}

/** The run's requests as they come, each answered by `answer`. */
async function answerAll(
  handle: RunHandle,
  answer: (request: ApprovalRequest) => void,
): Promise<ApprovalRequest[]> {
  const seen: ApprovalRequest[] = [];
  for await (const event of handle.events) {
    if (event.type !== 'approval-request') continue;
    seen.push(event.request);
    answer(event.request);
  }
  return seen;
}

const shape = (node: TraceNode): unknown => [
  node.kind,
  node.name,
  node.status,
  node.children.map(shape),
];

describe('a question and an edited call three composite levels down', () => {
  it('reach the root inbox by path, are recorded whole, and replay exactly with no model', async () => {
    const store = memoryJournalStore();
    const ran: string[] = [];
    const handle = run(<Plan model={turnModel(turns)} ran={ran} />, { journal: store });
    const asked = await answerAll(handle, (request) => {
      if (request.kind === 'question') handle.respond(request.id, 'staging', { answeredBy: 'ana' });
      else handle.approve(request.id, { input: { env: 'staging' }, answeredBy: 'ana' });
    });
    const result = await handle.result;

    expect(result.output).toBe('Planned.');
    expect(ran).toEqual(['staging']);
    expect(asked.map((request) => [request.step, request.tool, request.kind])).toEqual([
      ['release:ship:go', 'ask_env', 'question'],
      ['release:ship:go', 'deploy', undefined],
    ]);
    expect(asked.map((request) => request.key)).toEqual([
      `${handle.runId}/plan#0.0/prepare#0.0/go#0.0`,
      `${handle.runId}/plan#0.0/prepare#0.0/go#1.0`,
    ]);
    expect(questionsIn(result.trace)).toEqual([
      expect.objectContaining({ prompt: 'Where should 1.2 go?', answer: 'staging' }),
    ]);
    expect(toolCallsIn(result.trace).find((call) => call.tool === 'deploy')).toMatchObject({
      input: { env: 'prod' },
      editedInput: { env: 'staging' },
    });

    // the journal: the model's call, the edit, the answer, and who gave them
    const records = await store.read(handle.runId);
    const answers = records.filter(
      (record): record is Extract<JournalRecord, { type: 'approval-answer' }> =>
        record.type === 'approval-answer',
    );
    expect(answers.map(({ output, input, answeredBy }) => ({ output, input, answeredBy }))).toEqual(
      [
        { output: 'staging', input: undefined, answeredBy: 'ana' },
        { output: undefined, input: { env: 'staging' }, answeredBy: 'ana' },
      ],
    );
    const deployRequest = records.find(
      (record) => record.type === 'approval-request' && record.tool === 'deploy',
    );
    expect(deployRequest).toMatchObject({ input: { env: 'prod' } });

    // replayed with tools from the recording: exact, no model, no tool, nobody asked
    const model = unreachableModel();
    const again: string[] = [];
    const replay = run(<Plan model={model} ran={again} />, { replay: records, replayTools: true });
    const replayAsked = await answerAll(replay, () => {
      throw new Error('a replay asks nobody');
    });
    const replayed = await replay.result;
    expect(replayAsked).toEqual([]);
    expect(model.calls).toBe(0);
    expect(again).toEqual([]);
    expect(replayed.output).toBe(result.output);
    expect(shape(replayed.trace.root)).toEqual(shape(result.trace.root));
    expect(questionsIn(replayed.trace)[0]).toMatchObject({ answer: 'staging' });
  });
});
