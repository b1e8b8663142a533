// A <Catch> whose first attempt failed in a model call, resumed from the journal: the resumed
// run replays the failure where it happened (attempt 1 failed, attempt 2 succeeded, with the
// recorded error) and calls no model for what the journal holds.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import {
  Agent,
  Catch,
  fileJournalStore,
  run,
  Step,
  Tool,
  type JournalRecord,
  type TraceNode,
} from 'june';
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { mockUsage, scriptedModel, type ModelScript } from 'june/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnParts, type MockTurn } from '../helpers/mock-stream-model.js';
import { allNodes } from '../resources/support.js';
import { firstEvent, isApprovalRequest } from './support.js';

const fixtures = fileURLToPath(new URL('../fixtures/journals/', import.meta.url));

const script: ModelScript = {
  $comment: 'plan fails once, then answers; ship asks to deploy, then finishes',
  steps: {
    plan: [{ error: 'the provider is overloaded' }, { text: 'the plan' }],
    ship: [
      { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'shipped' },
    ],
  },
};

function deployTool(ran: string[]) {
  return tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      ran.push(env);
      return `deployed to ${env}`;
    },
  });
}

/** The workflow (named "Agent", as test/fixtures/journals/v6/catch-retry.jsonl recorded it). */
function flow(model: LanguageModelV4, ran: string[]) {
  return (
    <Agent model={model}>
      <Tool name="deploy" value={deployTool(ran)} />
      <Catch retries={1}>
        <Step id="plan" prompt="Plan the release" />
      </Catch>
      <Step id="ship" prompt="Ship it" />
    </Agent>
  );
}

/** A model answering its n-th call (whatever the step) with `turns[n]`; one more call fails. */
function partsModel(turns: Array<() => Promise<LanguageModelV4StreamResult>>) {
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    doStream: async () => {
      const turn = turns[model.doStreamCalls.length - 1];
      if (!turn) throw new Error(`unscripted call ${model.doStreamCalls.length}`);
      return turn();
    },
  });
  return model;
}

const answered = async (turn: MockTurn): Promise<LanguageModelV4StreamResult> => ({
  stream: streamOf(turnParts(turn)),
});

/** A stream that begins an answer, then fails with an error part (as a provider's error event). */
const brokenStream = async (message: string): Promise<LanguageModelV4StreamResult> => ({
  stream: streamOf([
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Let me ' },
    { type: 'error', error: new Error(message) },
    { type: 'finish', finishReason: { unified: 'error', raw: 'error' }, usage: mockUsage(3, 1) },
  ]),
});

/** A stream that begins an answer, then fails to read (as a connection that was reset). */
const cutStream = async (message: string): Promise<LanguageModelV4StreamResult> => ({
  stream: new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 't' });
      controller.enqueue({ type: 'text-delta', id: 't', delta: 'Let me ' });
      controller.error(new Error(message));
    },
  }),
});

function streamOf(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** The run's `<Catch>` attempts: name, status and the error's code and message. */
const attempts = (root: TraceNode) =>
  allNodes(root)
    .filter((node) => node.kind === 'catch')
    .map((node) => ({
      name: node.name,
      status: node.status,
      code: node.error?.code,
      message: node.error?.message,
    }));

/** The trace's shape: each node's kind, name and status, depth first. */
const shape = (root: TraceNode) =>
  allNodes(root).map((node) => `${node.kind} ${node.name} ${node.status}`);

describe('a <Catch> retry resumed from the journal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'june-catch-history-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replays the failed attempt as failed and the retry as its own call, without calling the model', async () => {
    const store = fileJournalStore({ dir });
    const ran: string[] = [];
    const first = scriptedModel(script);
    const handle = run(flow(first, ran), { journal: store });
    await firstEvent(handle, isApprovalRequest);
    const before = handle.trace().root;
    handle.abort('the process stops');
    await handle.result.catch(() => {});
    expect(first.calls.map((call) => `${call.step} ${call.turn}`)).toEqual([
      'plan 1',
      'plan 2',
      'ship 1',
    ]);
    expect(attempts(before)).toEqual([
      {
        name: 'attempt 1',
        status: 'failed',
        code: 'scripted-model-error',
        message: 'june: the provider is overloaded',
      },
      { name: 'attempt 2', status: 'succeeded', code: undefined, message: undefined },
    ]);

    // a new process: only ship's last turn is left to the model
    const second = scriptedModel({ steps: { ship: [{ text: 'shipped' }] } });
    const resumed = run(flow(second, ran), {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    });
    const result = await resumed.result;

    expect(result.steps).toEqual({ plan: 'the plan', ship: 'shipped' });
    expect(second.calls.map((call) => `${call.step} ${call.turn}`)).toEqual(['ship 1']);
    expect(ran).toEqual(['prod']);
    expect(attempts(result.trace.root)).toEqual(attempts(before));
    // the same attempts, steps and model calls as the first run had before the step it
    // waited in (the run and its agent were still running then)
    const upToShip = (root: TraceNode) => {
      const lines = shape(root).filter((line) => !/^(run|agent) /.test(line));
      return lines.slice(
        0,
        lines.findIndex((line) => line.startsWith('step ship')),
      );
    };
    expect(upToShip(result.trace.root)).toEqual(upToShip(before));
    expect(upToShip(result.trace.root)).toContain('catch attempt 1 failed');

    // the failed call is a record of its own, before the retry's
    const records = await store.read(handle.runId);
    const calls = records.filter(
      (record): record is Extract<JournalRecord, { type: 'model-call' }> =>
        record.type === 'model-call',
    );
    expect(calls.map((call) => [call.step, call.index, call.answer.error?.code])).toEqual([
      ['plan', 0, 'scripted-model-error'],
      ['plan', 1, undefined],
      ['ship', 0, undefined],
      ['ship', 1, undefined],
    ]);
  });

  it('replays the failure from a recording too, with no model at all', async () => {
    const store = fileJournalStore({ dir });
    const recorded = await run(flow(scriptedModel(script), []), {
      journal: store,
      onApproval: () => true,
    }).result;
    const silent = scriptedModel({ steps: {} });
    const replayed = await run(flow(silent, []), {
      replay: await store.read((await store.list())[0]!),
      onApproval: () => true,
    }).result;

    expect(silent.calls).toEqual([]);
    expect(replayed.steps).toEqual(recorded.steps);
    expect(attempts(replayed.trace.root)).toEqual(attempts(recorded.trace.root));
    expect(shape(replayed.trace.root)).toEqual(shape(recorded.trace.root));
  });

  it('in batch mode (stream: false) too', async () => {
    const store = fileJournalStore({ dir });
    const ran: string[] = [];
    const handle = run(flow(scriptedModel(script), ran), { journal: store, stream: false });
    await firstEvent(handle, isApprovalRequest);
    const before = handle.trace().root;
    handle.abort('the process stops');
    await handle.result.catch(() => {});

    const second = scriptedModel({ steps: { ship: [{ text: 'shipped' }] } });
    const result = await run(flow(second, ran), {
      journal: store,
      resume: handle.runId,
      stream: false,
      onApproval: () => true,
    }).result;

    expect(result.steps).toEqual({ plan: 'the plan', ship: 'shipped' });
    expect(second.calls.map((call) => `${call.step} ${call.turn}`)).toEqual(['ship 1']);
    expect(attempts(result.trace.root)).toEqual(attempts(before));
    expect(attempts(before).map(({ status }) => status)).toEqual(['failed', 'succeeded']);
  });

  it.each([
    ['an error part', brokenStream],
    ['a read that throws', cutStream],
  ])(
    'replays a stream that failed once begun (%s) as failed, and its retry as its own call',
    async (_how, failing) => {
      const store = fileJournalStore({ dir });
      const ran: string[] = [];
      const turns = [
        () => failing('the stream broke'),
        () => answered({ text: 'the plan' }),
        () => answered({ toolCalls: [{ id: 'c_deploy', name: 'deploy', input: { env: 'prod' } }] }),
      ];
      const handle = run(flow(partsModel(turns), ran), { journal: store });
      await firstEvent(handle, isApprovalRequest);
      const before = handle.trace().root;
      handle.abort('the process stops');
      await handle.result.catch(() => {});
      expect(attempts(before).map(({ name, status, code }) => [name, status, code])).toEqual([
        ['attempt 1', 'failed', 'model-call-failed'],
        ['attempt 2', 'succeeded', undefined],
      ]);

      const second = partsModel([() => answered({ text: 'shipped' })]);
      const result = await run(flow(second, ran), {
        journal: store,
        resume: handle.runId,
        onApproval: () => true,
      }).result;

      expect(result.steps).toEqual({ plan: 'the plan', ship: 'shipped' });
      expect(second.doStreamCalls).toHaveLength(1);
      expect(attempts(result.trace.root)).toEqual(attempts(before));
    },
  );

  it('a failure the AI SDK retried (a provider error it may retry) is replayed, and so is its retry: the step never fails', async () => {
    const store = fileJournalStore({ dir });
    const ran: string[] = [];
    const overloaded = new APICallError({
      message: 'Overloaded',
      url: 'http://127.0.0.1:9/v1/responses',
      requestBodyValues: {},
      statusCode: 529,
      responseHeaders: { 'retry-after-ms': '0' },
      isRetryable: true,
    });
    const turns = [
      () => Promise.reject(overloaded),
      () => answered({ text: 'the plan' }),
      () => answered({ toolCalls: [{ id: 'c_deploy', name: 'deploy', input: { env: 'prod' } }] }),
    ];
    const handle = run(flow(partsModel(turns), ran), { journal: store });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('the process stops');
    await handle.result.catch(() => {});
    const records = await store.read(handle.runId);
    expect(
      records.flatMap((record) => (record.type === 'model-call' ? [record.answer.error] : [])),
    ).toEqual([
      { name: 'AI_APICallError', message: 'Overloaded', statusCode: 529, retryable: true },
      undefined,
      undefined,
    ]);

    const second = partsModel([() => answered({ text: 'shipped' })]);
    const result = await run(flow(second, ran), {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    }).result;

    expect(result.steps).toEqual({ plan: 'the plan', ship: 'shipped' });
    expect(second.doStreamCalls).toHaveLength(1);
    expect(attempts(result.trace.root).map(({ name, status }) => [name, status])).toEqual([
      ['attempt 1', 'succeeded'],
    ]);
  });

  it('resumes the stored version 6 journal of a run stopped at its approval after a failed attempt', async () => {
    const runId = '20260102-030405-v6ct';
    mkdirSync(join(dir, runId));
    copyFileSync(join(fixtures, 'v6', 'catch-retry.jsonl'), join(dir, runId, 'journal.jsonl'));
    const model = scriptedModel({ steps: { ship: [{ text: 'shipped' }] } });
    const ran: string[] = [];
    const result = await run(flow(model, ran), {
      journal: fileJournalStore({ dir }),
      resume: runId,
      onApproval: () => true,
    }).result;

    expect(result.steps).toEqual({ plan: 'the plan', ship: 'shipped' });
    expect(model.calls.map((call) => `${call.step} ${call.turn}`)).toEqual(['ship 1']);
    expect(ran).toEqual(['prod']);
    expect(
      attempts(result.trace.root).map(({ name, status, code }) => [name, status, code]),
    ).toEqual([
      ['attempt 1', 'failed', 'scripted-model-error'],
      ['attempt 2', 'succeeded', undefined],
    ]);
  });

  it('a run that failed at its last model call makes that call again on resume, and the later record stands', async () => {
    const store = fileJournalStore({ dir });
    const plain = (model: LanguageModelV4) => (
      <Agent model={model}>
        <Step id="plan" prompt="Plan the release" />
      </Agent>
    );
    const first = run(plain(scriptedModel({ steps: { plan: [{ error: 'overloaded' }] } })), {
      journal: store,
    });
    await expect(first.result).rejects.toThrow('overloaded');

    const again = scriptedModel({ steps: { plan: [{ text: 'the plan' }] } });
    const resumed = await run(plain(again), { journal: store, resume: first.runId }).result;
    expect(resumed.output).toBe('the plan');
    expect(again.calls).toHaveLength(1);

    // resumed once more: the call's new record answers, nothing is asked of a model
    const third = await run(plain(scriptedModel({ steps: { plan: [{ text: 'not asked' }] } })), {
      journal: store,
      resume: first.runId,
    }).result;
    expect(third.output).toBe('the plan');
  });
});
