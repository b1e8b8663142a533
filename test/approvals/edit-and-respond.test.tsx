// Approving a call with an edited input, and answering instead of the tool: what runs, what
// the model reads, what the journal and trace keep, and that a resume and a replay are exact.
import type { LanguageModelV4, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { tool } from 'ai';
import {
  Agent,
  JuneError,
  Step,
  Tool,
  memoryJournalStore,
  run,
  type ApprovalRequest,
  type JournalRecord,
  type RunHandle,
  type SourceInbox,
  type TraceNode,
} from 'june';
import { toolCallsIn } from 'june/evals';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  collect,
  firstEvent,
  isApprovalRequest,
  Release,
  releaseTools,
  releaseTurns,
  turnModel,
  unreachableModel,
} from '../durable/support.js';
import type { ScriptTurn } from 'june/testing';

/** The deploy and publish tools; `ran` lists each execution as `tool:input`. */
function tools() {
  const ran: string[] = [];
  return {
    ran,
    deploy: tool({
      description: 'Deploy to an environment',
      inputSchema: z.object({ env: z.enum(['staging', 'prod']), note: z.string().default('') }),
      needsApproval: true,
      execute: async ({ env }) => (ran.push(`deploy:${env}`), `deployed to ${env}`),
    }),
    publish: tool({
      description: 'Publish the release notes',
      inputSchema: z.object({ version: z.string() }),
      outputSchema: z.object({ url: z.string() }),
      needsApproval: true,
      execute: async ({ version }) => (
        ran.push(`publish:${version}`),
        { url: `https://notes.example/${version}` }
      ),
    }),
  };
}

const turns: Record<string, ScriptTurn[]> = {
  release: [
    { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
    { text: 'Done.' },
  ],
  notes: [
    { toolCalls: [{ id: 'c_publish', tool: 'publish', input: { version: '1.2' } }] },
    { text: 'Published.' },
  ],
};

/** A stateless model (see turnModel) that also keeps the prompt of every call it answers. */
function promptedModel(steps: Record<string, ScriptTurn[]>) {
  const inner = turnModel(steps);
  const prompts: LanguageModelV4Prompt[] = [];
  const model: LanguageModelV4 & { prompts: LanguageModelV4Prompt[]; calls: typeof inner.calls } = {
    ...inner,
    calls: inner.calls,
    prompts,
    doStream: (options) => (prompts.push(options.prompt), inner.doStream(options)),
    doGenerate: (options) => (prompts.push(options.prompt), inner.doGenerate(options)),
  };
  return model;
}

function Deploy({
  model,
  set,
  step = 'release',
}: {
  model: LanguageModelV4;
  set: ReturnType<typeof tools>;
  step?: string;
}) {
  return (
    <Agent model={model}>
      <Tool name="deploy" value={set.deploy} />
      <Tool name="publish" value={set.publish} />
      <Step id={step} prompt="Ship it" />
    </Agent>
  );
}

/** Every tool call and tool result part of a prompt, as `[role, type, toolCallId, input or output]`. */
function toolParts(prompt: LanguageModelV4Prompt) {
  return prompt.flatMap((message) =>
    message.role === 'assistant' || message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [['call', part.toolCallId, part.input]]
            : part.type === 'tool-result'
              ? [['result', part.toolCallId, part.output]]
              : [],
        )
      : [],
  );
}

function toolNode(node: TraceNode, name: string): TraceNode | undefined {
  if (node.kind === 'tool' && node.name === name) return node;
  for (const child of node.children) {
    const found = toolNode(child, name);
    if (found) return found;
  }
  return undefined;
}

async function firstRequest(handle: RunHandle): Promise<ApprovalRequest> {
  return (await firstEvent(handle, isApprovalRequest)).request;
}

async function juneError(act: () => void): Promise<JuneError> {
  try {
    act();
  } catch (error) {
    if (JuneError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a JuneError');
}

describe('approving with an edited input', () => {
  for (const stream of [true, false]) {
    it(`runs the tool once with the edit; the model's next request shows the edited call (${stream ? 'streaming' : 'batch'})`, async () => {
      const set = tools();
      const model = promptedModel(turns);
      const store = memoryJournalStore();
      const handle = run(<Deploy model={model} set={set} />, { journal: store, stream });
      const { events, done } = collect(handle);
      const request = await firstRequest(handle);
      expect(request.input).toEqual({ env: 'prod', note: '' });

      handle.approve(request.id, {
        input: { env: 'staging' },
        answeredBy: 'ana',
        answeredAt: '2026-12-01T09:30:00.000Z',
      });
      const result = await handle.result;
      await done;
      expect(result.output).toBe('Done.');
      expect(set.ran).toEqual(['deploy:staging']);

      // the edited call replaces the model's in the conversation, with the input as the schema read it
      expect(toolParts(model.prompts[1]!)).toEqual([
        ['call', 'c_deploy', { env: 'staging', note: '' }],
        ['result', 'c_deploy', { type: 'text', value: 'deployed to staging' }],
      ]);

      // the journal: the original in the request, the edit with who and when in the answer
      const records = await store.read(handle.runId);
      expect(records.find((r) => r.type === 'approval-request')).toMatchObject({
        tool: 'deploy',
        input: { env: 'prod', note: '' },
      });
      expect(records.find((r) => r.type === 'approval-answer')).toMatchObject({
        approved: true,
        input: { env: 'staging' },
        source: 'handle',
        answeredBy: 'ana',
        answeredAt: '2026-12-01T09:30:00.000Z',
        automatic: false,
      });
      expect(records.find((r) => r.type === 'tool-call')).toMatchObject({
        input: { env: 'staging', note: '' },
        output: 'deployed to staging',
      });

      // the event and the trace: the model's input on the node, the edit on its approval
      expect(events.find((e) => e.type === 'approval-response')).toMatchObject({
        approved: true,
        input: { env: 'staging' },
        answeredBy: 'ana',
      });
      const node = toolNode(result.trace.root, 'deploy')!;
      expect(node).toMatchObject({
        status: 'succeeded',
        // (batch mode shows the input as the model sent it)
        input: expect.objectContaining({ env: 'prod' }),
        output: 'deployed to staging',
        approval: {
          status: 'approved',
          input: { env: 'staging' },
          answeredBy: 'ana',
          answeredAt: '2026-12-01T09:30:00.000Z',
        },
      });
      // a scorer reads the edit
      expect(toolCallsIn(result.trace, 'deploy')[0]).toMatchObject({
        input: expect.objectContaining({ env: 'prod' }),
        editedInput: { env: 'staging' },
      });

      // a replay: no model call, no tool run, the same answer and the same edit
      const again = unreachableModel();
      const replayed = await run(<Deploy model={again} set={set} />, {
        replay: records,
        replayTools: true,
      }).result;
      expect(replayed.output).toBe('Done.');
      expect(again.calls).toBe(0);
      expect(set.ran).toEqual(['deploy:staging']);
      expect(toolNode(replayed.trace.root, 'deploy')!.approval).toMatchObject({
        status: 'approved',
        input: { env: 'staging' },
        replayed: true,
        answeredBy: 'ana',
      });
    });
  }

  it('a resume after the answer runs the edited call without asking again; the journal then replays whole', async () => {
    const set = tools();
    const store = memoryJournalStore();
    const handle = run(<Deploy model={promptedModel(turns)} set={set} />, { journal: store });
    const request = await firstRequest(handle);
    handle.approve(request.id, { input: { env: 'staging' }, answeredBy: 'ana' });
    await handle.result;

    // the journal as a process that died right after the answer was stored left it
    const written = await store.read(handle.runId);
    const answered = written.findIndex((r) => r.type === 'approval-answer');
    const crashed = memoryJournalStore();
    for (const record of written.slice(0, answered + 1)) await crashed.append(handle.runId, record);

    const resumedSet = tools();
    const model = promptedModel(turns);
    const asked: string[] = [];
    const resumed = run(<Deploy model={model} set={resumedSet} />, {
      journal: crashed,
      resume: handle.runId,
      onApproval: (r) => (asked.push(r.tool), false),
    });
    const result = await resumed.result;
    expect(result.output).toBe('Done.');
    expect(asked).toEqual([]);
    expect(resumedSet.ran).toEqual(['deploy:staging']);
    // only the call after the answer is made again; it reads the edited call and its result
    expect(model.calls).toEqual([{ step: 'release', turn: 2 }]);
    expect(toolParts(model.prompts[0]!)).toEqual([
      ['call', 'c_deploy', { env: 'staging', note: '' }],
      ['result', 'c_deploy', { type: 'text', value: 'deployed to staging' }],
    ]);

    const replayed = await run(<Deploy model={unreachableModel()} set={resumedSet} />, {
      replay: await crashed.read(handle.runId),
      replayTools: true,
    }).result;
    expect(replayed.output).toBe('Done.');
    expect(resumedSet.ran).toEqual(['deploy:staging']);
  });

  it('a bad edit is refused with a clear error to whoever answered; the request still waits, then a good answer works', async () => {
    const set = tools();
    const handle = run(<Deploy model={promptedModel(turns)} set={set} />);
    let inbox: SourceInbox | undefined;
    handle.connect({ name: 'slack', connect: (given) => void (inbox = given) });
    const request = await firstRequest(handle);

    const fromHandle = await juneError(() =>
      handle.approve(request.id, { input: { env: 'moon' }, answeredBy: 'ana' }),
    );
    expect(fromHandle.code).toBe('approval-input-invalid');
    expect(fromHandle.message).toMatch(/^june: the edited input for the "deploy" call/);
    expect(fromHandle.message).toContain('$.env');
    expect(fromHandle.message).toContain('still waits');
    // the same from a source
    const fromSource = await juneError(
      () => void inbox!.answer(request.key!, { approved: true, input: { note: 'no env' } }),
    );
    expect(fromSource.code).toBe('approval-input-invalid');
    // an edit on a denial is no answer either
    const onDenial = await juneError(
      () => void inbox!.answer(request.id, { approved: false, input: { env: 'staging' } }),
    );
    expect(onDenial.code).toBe('approval-answer-invalid');

    expect(handle.pendingApprovals.map((r) => r.id)).toEqual([request.id]);
    expect(set.ran).toEqual([]);

    handle.approve(request.id, { input: { env: 'staging' } });
    const result = await handle.result;
    expect(set.ran).toEqual(['deploy:staging']);
    expect(toolNode(result.trace.root, 'deploy')!.approval).toMatchObject({
      status: 'approved',
      input: { env: 'staging' },
    });
  });
});

describe('answering instead of the tool', () => {
  for (const stream of [true, false])
    it(`the tool never runs; the model reads the answer as its result; an output its outputSchema refuses is refused (${stream ? 'streaming' : 'batch'})`, async () => {
      const set = tools();
      const model = promptedModel(turns);
      const store = memoryJournalStore();
      const handle = run(<Deploy model={model} set={set} step="notes" />, {
        journal: store,
        stream,
      });
      const request = await firstRequest(handle);

      const refused = await juneError(() => handle.respond(request.id, { link: 'nope' }));
      expect(refused.code).toBe('approval-output-invalid');
      expect(refused.message).toMatch(/^june: the output given instead of the "publish" call/);
      expect(refused.message).toContain('$.url');
      expect(handle.pendingApprovals).toHaveLength(1);

      handle.respond(request.id, { url: 'https://notes.example/by-hand' }, { answeredBy: 'ana' });
      const result = await handle.result;
      expect(result.output).toBe('Published.');
      expect(set.ran).toEqual([]);
      // a result, not a denial
      expect(toolParts(model.prompts[1]!)).toEqual([
        ['call', 'c_publish', { version: '1.2' }],
        ['result', 'c_publish', { type: 'json', value: { url: 'https://notes.example/by-hand' } }],
      ]);

      const node = toolNode(result.trace.root, 'publish')!;
      expect(node).toMatchObject({
        status: 'succeeded',
        output: { url: 'https://notes.example/by-hand' },
        approval: {
          status: 'responded',
          output: { url: 'https://notes.example/by-hand' },
          answeredBy: 'ana',
        },
      });
      expect(toolCallsIn(result.trace, 'publish')[0]).toMatchObject({ responded: true });
      const records = await store.read(handle.runId);
      expect(records.find((r) => r.type === 'approval-answer')).toMatchObject({
        approved: false,
        output: { url: 'https://notes.example/by-hand' },
        answeredBy: 'ana',
      });
      expect(records.some((r) => r.type === 'tool-call')).toBe(false);

      const again = unreachableModel();
      const replayed = await run(<Deploy model={again} set={set} step="notes" />, {
        replay: records,
        replayTools: true,
      }).result;
      expect(replayed.output).toBe('Published.');
      expect(again.calls).toBe(0);
      expect(set.ran).toEqual([]);
    });
});

describe('inside a composite tool', () => {
  const kept = (records: JournalRecord[], type: JournalRecord['type']) =>
    records.filter((record) => record.type === type);

  it('an edit answered from the root handle by the call key runs the nested call with it, and replays', async () => {
    const set = releaseTools();
    const store = memoryJournalStore();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={set} />, { journal: store });
    const request = await firstRequest(handle);
    expect(request).toMatchObject({ step: 'release:ship:go', input: { env: 'prod' } });
    // the key names the call through the composite calls that lead to it
    expect(request.key).toBe(`${handle.runId}/plan#1.0/prepare#1.0/go#0.0`);

    handle.approve(request.key!, { input: { env: 'staging' }, answeredBy: 'ana' });
    const result = await handle.result;
    expect(result.output).toBe('Released 1.2.');
    expect(set.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:staging']);
    // the nested step's conversation holds the edited call
    const deploys = toolCallsIn(result.trace, 'deploy');
    expect(deploys).toHaveLength(1);
    expect(deploys[0]).toMatchObject({
      step: 'release:ship:go',
      input: { env: 'prod' },
      editedInput: { env: 'staging' },
      output: 'deployed to staging',
    });
    const records = await store.read(handle.runId);
    expect(kept(records, 'approval-answer')).toEqual([
      expect.objectContaining({ step: 'release:ship:go', input: { env: 'staging' } }),
    ]);

    const replayed = await run(<Release model={unreachableModel()} tools={set} />, {
      replay: records,
      replayTools: true,
    }).result;
    expect(replayed.output).toBe('Released 1.2.');
    expect(set.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:staging']);
  });

  it('an answer instead of the nested tool, from the root handle', async () => {
    const set = releaseTools();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={set} />);
    const request = await firstRequest(handle);
    const refused = await juneError(() =>
      handle.approve(request.key!, { input: { environment: 'staging' } }),
    );
    expect(refused.code).toBe('approval-input-invalid');
    handle.respond(request.key!, 'deployed to prod by hand');
    const result = await handle.result;
    expect(result.output).toBe('Released 1.2.');
    expect(set.ran).toEqual(['lookup:1.2', 'check:1.2']);
    expect(toolCallsIn(result.trace, 'deploy')[0]).toMatchObject({
      step: 'release:ship:go',
      responded: true,
      output: 'deployed to prod by hand',
    });
  });
});
