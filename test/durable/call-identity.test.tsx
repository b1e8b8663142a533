import { tool } from 'ai';
import { Agent, Step, Tool, run, toolCallContext, type RunHandle, memoryJournalStore } from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerModel, firstEvent, isApprovalRequest } from './support.js';

// A provider that restarts tool call ids every turn: step main calls the composite tool
// helper twice, both calls with the id "helper:0"; each child run calls deploy as "deploy:0".
const model = () =>
  answerModel((step, turn, prompt) => {
    if (step === 'main') {
      if (turn === 3) return { text: 'Both done.' };
      return {
        toolCalls: [
          { id: 'helper:0', tool: 'helper', input: { task: turn === 1 ? 'one' : 'two' } },
        ],
      };
    }
    const task = prompt.replace('Do ', '');
    return turn === 1
      ? { toolCalls: [{ id: 'deploy:0', tool: 'deploy', input: { env: task } }] }
      : { text: `Deployed ${task}.` };
  });

function tools() {
  const ran: string[] = [];
  const keys: Record<string, string> = {};
  const deploy = tool({
    description: 'Deploy',
    inputSchema: z.object({ env: z.string() }),
    // only the second call waits for a person
    needsApproval: ({ env }) => env === 'two',
    execute: async ({ env }) => {
      ran.push(env);
      keys[env] = toolCallContext()!.key;
      return `deployed ${env}`;
    },
  });
  return { ran, keys, deploy };
}

function Main({
  model,
  deploy,
}: {
  model: ReturnType<typeof answerModel>;
  deploy: ReturnType<typeof tools>['deploy'];
}) {
  return (
    <Agent model={model}>
      <Tool name="helper" description="Do a task" input={z.object({ task: z.string() })}>
        {({ task }) => (
          <Agent model={model}>
            <Tool name="deploy" value={deploy} />
            <Step id="go" prompt={`Do ${task}`} />
          </Agent>
        )}
      </Tool>
      <Step id="main" prompt="Run both" />
    </Agent>
  );
}

async function stopAtApproval(handle: RunHandle) {
  await firstEvent(handle, isApprovalRequest);
  handle.abort('the process stopped');
  await handle.result.catch(() => {});
}

describe('tool calls are known by place and ordinal, not by the provider’s toolCallId', () => {
  it('a provider that repeats ids: the resumed run finishes like an uninterrupted one, each call made once', async () => {
    const straightTools = tools();
    const straightModel = model();
    const straight = await run(<Main model={straightModel} deploy={straightTools.deploy} />, {
      journal: memoryJournalStore(),
      onApproval: () => true,
    }).result;
    expect(straight.output).toBe('Both done.');

    const store = memoryJournalStore();
    const used = tools();
    const first = model();
    const handle = run(<Main model={first} deploy={used.deploy} />, { journal: store });
    await stopAtApproval(handle);
    expect(used.ran).toEqual(['one']);

    const second = model();
    const resumed = await run(<Main model={second} deploy={used.deploy} />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    }).result;
    expect(resumed.output).toEqual(straight.output);
    expect(resumed.usage).toEqual(straight.usage);
    expect(used.ran).toEqual(['one', 'two']);
    expect(first.calls.length + second.calls.length).toBe(straightModel.calls.length);

    // the two helper calls (both "helper:0") have their own places in the journal
    const records = await store.read(handle.runId);
    const deploys = records.filter(
      (record) => record.type === 'tool-call' && record.tool === 'deploy',
    );
    expect(deploys).toMatchObject([
      { toolCallId: 'deploy:0', calls: ['main#0.0'], call: 'go#0.0', input: { env: 'one' } },
      { toolCallId: 'deploy:0', calls: ['main#1.0'], call: 'go#0.0', input: { env: 'two' } },
    ]);
    expect(records.filter((record) => record.type === 'approval-answer')).toMatchObject([
      { calls: ['main#1.0'], call: 'go#0.0', approved: true },
    ]);
  });

  it('tools get an idempotency key that tells the calls apart and stays the same across a resume', async () => {
    const straight = tools();
    const straightRun = run(<Main model={model()} deploy={straight.deploy} />, {
      journal: memoryJournalStore(),
      onApproval: () => true,
    });
    await straightRun.result;

    const store = memoryJournalStore();
    const used = tools();
    const handle = run(<Main model={model()} deploy={used.deploy} />, { journal: store });
    await stopAtApproval(handle);
    await run(<Main model={model()} deploy={used.deploy} />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    }).result;

    expect(used.keys).toEqual({
      one: `${handle.runId}/main#0.0/go#0.0`,
      two: `${handle.runId}/main#1.0/go#0.0`,
    });
    expect(straight.keys).toEqual({
      one: `${straightRun.runId}/main#0.0/go#0.0`,
      two: `${straightRun.runId}/main#1.0/go#0.0`,
    });
  });

  it('without a journal, calls that repeat an id still get distinct keys', async () => {
    const used = tools();
    const handle = run(<Main model={model()} deploy={used.deploy} />, { onApproval: () => true });
    expect((await handle.result).output).toBe('Both done.');
    expect(new Set(Object.values(used.keys)).size).toBe(2);
  });
});
