import {
  JuneError,
  run,
  type RunEvent,
  type TraceNode,
  memoryJournalStore,
  type JournalRecord,
} from 'june';
import { describe, expect, it } from 'vitest';
import {
  collect,
  firstEvent,
  isApprovalRequest,
  Release,
  releaseTools,
  releaseTurns,
  turnModel,
} from './support.js';

/** A store holding what `store` held at this moment: the journal a crashed process leaves. */
function crashCopy(store: ReturnType<typeof memoryJournalStore>, runId: string) {
  const copy = memoryJournalStore();
  const text = store.text(runId);
  return {
    copy,
    ready: (async () => {
      const records = await store.read(runId);
      for (const record of records) await copy.append(runId, record);
      expect(copy.text(runId)).toBe(text);
    })(),
  };
}

const typesOf = (records: JournalRecord[]) => records.map((record) => record.type);

describe('resuming a run that waits for approval three composite levels down', () => {
  it('after a crash: every model call and tool execution happens exactly once across both runs', async () => {
    const store = memoryJournalStore();
    const tools = releaseTools();
    const first = turnModel(releaseTurns);
    const handle = run(<Release model={first} tools={tools} />, { journal: store });
    const { request } = await firstEvent(handle, isApprovalRequest);
    expect(request).toMatchObject({
      tool: 'deploy',
      step: 'release:ship:go',
      toolCallId: 'c_deploy',
    });
    const crashed = crashCopy(store, handle.runId);
    await crashed.ready;
    handle.abort('the process died');
    await handle.result.catch(() => {});

    // what the crashed process wrote: the calls that finished, and the pending request
    const records = await crashed.copy.read(handle.runId);
    expect(typesOf(records)).toEqual([
      'journal',
      'model-call',
      'tool-call',
      'model-call',
      'model-call',
      'tool-call',
      'model-call',
      'model-call',
      'approval-request',
    ]);
    expect(first.calls).toEqual([
      { step: 'plan', turn: 1 },
      { step: 'plan', turn: 2 },
      { step: 'release:prepare', turn: 1 },
      { step: 'release:prepare', turn: 2 },
      { step: 'release:ship:go', turn: 1 },
    ]);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2']);

    // a new "process": a fresh model, the same journal
    const second = turnModel(releaseTurns);
    const resumed = run(<Release model={second} tools={tools} />, {
      journal: crashed.copy,
      resume: handle.runId,
      onApproval: () => true,
    });
    const { events, done } = collect(resumed);
    const result = await resumed.result;
    await done;

    expect(resumed.runId).toBe(handle.runId);
    expect(result.output).toBe('Released 1.2.');
    expect(second.calls).toEqual([
      { step: 'release:ship:go', turn: 2 },
      { step: 'release:prepare', turn: 3 },
      { step: 'plan', turn: 3 },
    ]);
    expect(first.calls.length + second.calls.length).toBe(8);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:prod']);
    // the pending request was asked again (and answered by the policy)
    expect(events.filter((event) => event.type === 'approval-request')).toHaveLength(1);
    expect(events.find((event) => event.type === 'approval-response')).toMatchObject({
      approved: true,
      automatic: true,
    });

    // the journal now holds the whole run: 8 model calls, 3 tool calls + 2 composite calls
    const all = await crashed.copy.read(handle.runId);
    expect(all.filter((record) => record.type === 'model-call')).toHaveLength(8);
    expect(
      all
        .filter((record) => record.type === 'tool-call')
        .map((record) => (record as { tool: string }).tool),
    ).toEqual(['lookup', 'check', 'deploy', 'ship', 'release']);
    expect(
      all.find((record) => record.type === 'tool-call' && record.tool === 'deploy'),
    ).toMatchObject({
      step: 'release:ship:go',
      calls: ['plan#1.0', 'prepare#1.0'],
      call: 'go#0.0',
      toolCallId: 'c_deploy',
    });
    expect(typesOf(all).slice(9, 10)).toEqual(['resume']);
    expect(all.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
  });

  it('the resumed run has the same output, usage and trace shape as a run that was never stopped', async () => {
    const straight = await run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      onApproval: () => true,
    }).result;

    const store = memoryJournalStore();
    const tools = releaseTools();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
    });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('stop');
    await handle.result.catch(() => {});
    const resumed = await run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    }).result;

    expect(resumed.output).toEqual(straight.output);
    expect(resumed.usage).toEqual(straight.usage);
    const shape = (node: TraceNode): unknown => [
      node.kind,
      node.name,
      node.status,
      node.children.map(shape),
    ];
    expect(shape(resumed.trace.root)).toEqual(shape(straight.trace.root));
  });

  it('a denial on resume: the denied tool never runs, and the model sees the denial', async () => {
    const store = memoryJournalStore();
    const tools = releaseTools();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
    });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('stop');
    await expect(handle.result).rejects.toMatchObject({ code: 'run-aborted' });
    expect((await store.read(handle.runId)).at(-1)).toMatchObject({
      type: 'run-finish',
      status: 'aborted',
    });

    const second = turnModel(releaseTurns);
    const resumed = run(<Release model={second} tools={tools} />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => ({ approved: false, reason: 'not today' }),
    });
    const result = await resumed.result;
    expect(result.output).toBe('Released 1.2.');
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2']);
    const deploy = findTool(result.trace.root, 'deploy');
    expect(deploy.status).toBe('denied');
    expect(deploy.approval).toMatchObject({
      status: 'denied',
      reason: 'not today',
      automatic: true,
    });
    expect(
      (await store.read(handle.runId)).filter((record) => record.type === 'approval-answer'),
    ).toMatchObject([
      { approved: false, reason: 'not today', calls: ['plan#1.0', 'prepare#1.0'], call: 'go#0.0' },
    ]);
  });

  it('a recorded answer is given again, marked as replayed, and a tool that never finished runs again', async () => {
    const store = memoryJournalStore();
    const tools = releaseTools({ deployWaitsForAbort: true });
    const handle = run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
    });
    const { request } = await firstEvent(handle, isApprovalRequest);
    handle.approve(request.id);
    for await (const event of handle.events)
      if (event.type === 'tool-call' && event.tool === 'deploy') break;
    while (!tools.ran.includes('deploy:prod'))
      await new Promise((resolve) => setImmediate(resolve));
    handle.abort('stop');
    await handle.result.catch(() => {});
    expect(typesOf(await store.read(handle.runId)).slice(-3)).toEqual([
      'approval-request',
      'approval-answer',
      'run-finish',
    ]);

    const calm = releaseTools();
    const resumed = run(
      <Release model={turnModel(releaseTurns)} tools={{ ...calm, ran: tools.ran }} />,
      { journal: store, resume: handle.runId },
    );
    const { events, done } = collect(resumed);
    const result = await resumed.result;
    await done;
    // no one was asked: the journal answered
    expect(events.some((event) => event.type === 'approval-request')).toBe(false);
    expect(
      events.find(
        (event): event is Extract<RunEvent, { type: 'approval-response' }> =>
          event.type === 'approval-response',
      ),
    ).toMatchObject({ approved: true, automatic: true, replayed: true });
    expect(findTool(result.trace.root, 'deploy').approval).toMatchObject({
      status: 'approved',
      replayed: true,
    });
    // lookup and check finished before: not again; deploy had not finished: it ran again
    expect([...tools.ran, ...calm.ran]).toEqual([
      'lookup:1.2',
      'check:1.2',
      'deploy:prod',
      'deploy:prod',
    ]);
  });

  it('a composite tool call that finished is answered from the journal: its child run does not run again', async () => {
    const store = memoryJournalStore();
    const tools = releaseTools();
    // plan waits for an approval of its own after release finished
    const turns = {
      ...releaseTurns,
      plan: [
        ...releaseTurns.plan!.slice(0, 2),
        { toolCalls: [{ id: 'c_deploy_top', tool: 'deploy', input: { env: 'staging' } }] },
        { text: 'Released 1.2 twice.' },
      ],
    };
    const handle = run(<Release model={turnModel(turns)} tools={tools} />, {
      journal: store,
      onApproval: (request) => (request.step === 'plan' ? undefined : true),
    });
    await firstEvent(
      handle,
      (event): event is RunEvent => isApprovalRequest(event) && event.request.step === 'plan',
    );
    handle.abort('stop');
    await handle.result.catch(() => {});
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:prod']);

    const second = turnModel(turns);
    const straightUsage = (
      await run(<Release model={turnModel(turns)} tools={tools} />, { onApproval: () => true })
        .result
    ).usage;
    tools.ran.length = 3;
    const result = await run(<Release model={second} tools={tools} />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    }).result;
    expect(result.output).toBe('Released 1.2 twice.');
    expect(second.calls).toEqual([{ step: 'plan', turn: 4 }]);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:prod', 'deploy:staging']);
    // the replayed composite call still counts its child run's tokens
    expect(result.usage).toEqual(straightUsage);
    expect(findTool(result.trace.root, 'release').output).toMatchObject({
      output: 'Prepared and shipped.',
    });
  });

  it('two parallel calls of one composite tool share step paths; the journal tells them apart by their place (model call and position)', async () => {
    const turns = {
      ...releaseTurns,
      plan: [
        {
          toolCalls: [
            { id: 'c_r1', tool: 'release', input: { version: '1.2' } },
            { id: 'c_r2', tool: 'release', input: { version: '1.3' } },
          ],
        },
        { text: 'Both released.' },
      ],
    };
    const store = memoryJournalStore();
    const tools = releaseTools();
    const first = turnModel(turns);
    const handle = run(<Release model={first} tools={tools} />, { journal: store });
    let requests = 0;
    for await (const event of handle.events)
      if (event.type === 'approval-request' && ++requests === 2) break;
    handle.abort('stop');
    await handle.result.catch(() => {});
    expect(first.calls).toHaveLength(7);

    const second = turnModel(turns);
    const asked: string[] = [];
    const result = await run(<Release model={second} tools={tools} />, {
      journal: store,
      resume: handle.runId,
      onApproval: (request) => (asked.push(request.step), true),
    }).result;
    expect(result.output).toBe('Both released.');
    expect(asked).toEqual(['release:ship:go', 'release:ship:go']);
    expect(second.calls.map((call) => `${call.step}#${call.turn}`).sort()).toEqual([
      'plan#2',
      'release:prepare#3',
      'release:prepare#3',
      'release:ship:go#2',
      'release:ship:go#2',
    ]);
    expect([...tools.ran].sort()).toEqual(['check:1.2', 'check:1.2', 'deploy:prod', 'deploy:prod']);
    // both children used the same tool call ids (c_check, c_ship, c_deploy): told apart by the composite call ids
    const deploys = (await store.read(handle.runId)).filter(
      (record) => record.type === 'tool-call' && record.tool === 'deploy',
    );
    expect(deploys.map((record) => (record as { calls?: string[] }).calls?.[0]).sort()).toEqual([
      'plan#0.0',
      'plan#0.1',
    ]);
  });

  it('a workflow that changed fails the resume with journal-mismatch showing both prompts, before any model call', async () => {
    const store = memoryJournalStore();
    const tools = releaseTools();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
    });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('stop');
    await handle.result.catch(() => {});

    const second = turnModel(releaseTurns);
    const resumed = run(<Release model={second} tools={tools} task="Release 1.3" />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    });
    const error = await resumed.result.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(JuneError.isInstance(error) && error.code).toBe('journal-mismatch');
    expect((error as Error).message).toBe(
      `june: the workflow no longer matches the journal of run ${handle.runId}: model call 1 of step "plan" asks something else than when the run was recorded; ` +
        'first difference at message 1 (user): recorded "Release 1.2", now "Release 1.3". Resume the run with the workflow as it was, or start a new run.',
    );
    expect(second.calls).toEqual([]);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2']);
    expect((await store.read(handle.runId)).at(-1)).toMatchObject({
      type: 'run-finish',
      status: 'failed',
      error: { code: 'journal-mismatch' },
    });
  });

  it('a mismatch deep in a composite tool stops the whole run (it never runs the rest live)', async () => {
    const store = memoryJournalStore();
    const tools = releaseTools();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
    });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('stop');
    await handle.result.catch(() => {});

    const second = turnModel(releaseTurns);
    // the composite tool's workflow now asks for something else at release:prepare
    const resumed = run(<Release model={second} tools={tools} prepare="Get ready to ship" />, {
      journal: store,
      resume: handle.runId,
      onApproval: () => true,
    });
    const error = await resumed.result.catch((failure: unknown) => failure);
    expect(JuneError.isInstance(error) && error.code).toBe('journal-mismatch');
    expect((error as Error).message).toContain(
      'model call 1 of step "release:prepare" (inside the tool call plan#1.0) asks something else than when the run was recorded; first difference at message 1 (user): recorded "Prepare 1.2", now "Get ready to ship 1.2"',
    );
    expect(second.calls).toEqual([]);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2']);
  });

  it('a journal that cannot be written stops the run with journal-write-failed', async () => {
    const store = memoryJournalStore();
    let appends = 0;
    const failing = {
      ...store,
      append: async (runId: string, record: JournalRecord) =>
        ++appends === 3 ? Promise.reject(new Error('disk full')) : store.append(runId, record),
    };
    const tools = releaseTools();
    const error = await run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: failing,
      onApproval: () => true,
    }).result.catch((failure: unknown) => failure);
    expect(error).toMatchObject({
      code: 'journal-write-failed',
      message: expect.stringMatching(
        /^june: cannot write the journal of run .+: disk full\. The run stopped/,
      ),
    });
    expect(tools.ran).toEqual(['lookup:1.2']);
  });

  it('resume needs a journal, and says which runs have one', async () => {
    const store = memoryJournalStore();
    await run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      journal: store,
      runId: 'known-run',
      onApproval: () => true,
    }).result;
    const missing = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      journal: store,
      resume: 'nope',
    });
    await expect(missing.result).rejects.toMatchObject({
      code: 'journal-missing',
      message: expect.stringContaining('runs with a journal: known-run'),
    });
    const noStore = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      resume: 'known-run',
    });
    await expect(noStore.result).rejects.toMatchObject({ code: 'run-resume-invalid' });
    const reused = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      journal: store,
      runId: 'known-run',
    });
    await expect(reused.result).rejects.toMatchObject({ code: 'journal-exists' });
    expect(() =>
      run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
        journal: store,
        resume: 'a',
        runId: 'b',
      }),
    ).toThrow(/a resumed run keeps its id/);
  });
});

/** The tool node `name` in a trace, child runs (composite tool outputs) included. */
function findTool(node: TraceNode, name: string): TraceNode {
  const all = (n: TraceNode): TraceNode[] => {
    const child = (n.output as { trace?: { root?: TraceNode } } | undefined)?.trace?.root;
    return [n, ...n.children.flatMap(all), ...(child ? all(child) : [])];
  };
  const found = all(node).find((n) => n.kind === 'tool' && n.name === name);
  if (!found) throw new Error(`no tool node ${name}`);
  return found;
}
