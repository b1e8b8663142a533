import { run, memoryJournalStore, type JournalRecord, type JournalStore } from 'june';
import { describe, expect, it } from 'vitest';
import { Release, releaseTools, releaseTurns, turnModel } from './support.js';

/** What happened, in order: records as their append completes, tool executions, approvals asked. */
type Log = string[];

const label = (record: JournalRecord) => {
  if (record.type === 'model-call') return `stored model-call ${record.step}#${record.index}`;
  if ('call' in record) return `stored ${record.type} ${record.step} ${record.call}`;
  return `stored ${record.type}`;
};

/** A store whose appends of model-call records take 300 ms (a slow database); it logs each append as it completes. */
function slowStore(log: Log): JournalStore & { stored: JournalRecord[] } {
  const inner = memoryJournalStore();
  const stored: JournalRecord[] = [];
  return {
    stored,
    create: async (runId, header) => {
      await inner.create(runId, header);
      stored.push(header);
      log.push(label(header));
    },
    append: async (runId, record) => {
      if (record.type === 'model-call') await new Promise((resolve) => setTimeout(resolve, 300));
      await inner.append(runId, record);
      stored.push(record);
      log.push(label(record));
    },
    read: (runId) => inner.read(runId),
    list: () => inner.list(),
  };
}

/** Tools that log their executions. */
function loggedTools(log: Log) {
  const tools = releaseTools();
  for (const name of ['lookup', 'check', 'deploy'] as const) {
    const own = tools[name] as unknown as {
      execute: (input: unknown, options: unknown) => unknown;
    };
    const execute = own.execute;
    own.execute = (input, options) => {
      log.push(`ran ${name}`);
      return execute(input, options);
    };
  }
  return tools;
}

const before = (log: Log, first: string, then: string) => {
  expect(log).toContain(first);
  expect(log).toContain(then);
  expect(log.indexOf(first), `"${first}" before "${then}" in:\n${log.join('\n')}`).toBeLessThan(
    log.indexOf(then),
  );
};

describe('the journal is write-ahead', () => {
  it('with a slow store, no tool runs, no person is asked and no child run starts before the record that led to it is stored', async () => {
    const log: Log = [];
    const store = slowStore(log);
    const tools = loggedTools(log);
    const model = turnModel(releaseTurns);
    const handle = run(<Release model={model} tools={tools} />, {
      journal: store,
      onApproval: (request) => (log.push(`asked ${request.tool}`), true),
    });
    const starts = (async () => {
      for await (const event of handle.events)
        if (event.type === 'run-start' && event.parentToolCallId)
          log.push(`child ${event.workflow}`);
    })();
    expect((await handle.result).output).toBe('Released 1.2.');
    await starts;

    before(log, 'stored model-call plan#0', 'ran lookup');
    before(log, 'stored model-call plan#1', 'child release');
    before(log, 'stored model-call release:prepare#0', 'ran check');
    before(log, 'stored model-call release:prepare#1', 'child ship');
    before(
      log,
      'stored model-call release:ship:go#0',
      'stored approval-request release:ship:go go#0.0',
    );
    before(log, 'stored approval-request release:ship:go go#0.0', 'asked deploy');
    before(log, 'stored approval-answer release:ship:go go#0.0', 'ran deploy');
    // each tool's result is stored before the model call that reads it is made (and stored)
    before(log, 'stored tool-call plan plan#0.0', 'stored model-call plan#1');
    before(log, 'stored tool-call release:ship:go go#0.0', 'stored model-call release:ship:go#1');
  });

  it('with a slow store, a run’s records are stored in causal order: every record after the ones it depends on', async () => {
    const store = slowStore([]);
    const handle = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      journal: store,
      onApproval: () => true,
    });
    await handle.result;
    const records = store.stored;
    expect(records).toEqual(await store.read(handle.runId));
    expect(records[0]?.type).toBe('journal');
    expect(records.at(-1)?.type).toBe('run-finish');
    const position = (find: (record: JournalRecord) => boolean) => records.findIndex(find);
    const modelCall = (step: string, calls: string[], index: number) =>
      position(
        (record) =>
          record.type === 'model-call' &&
          record.step === step &&
          (record.calls ?? []).join('/') === calls.join('/') &&
          record.index === index,
      );
    records.forEach((record, at) => {
      if (record.type === 'journal' || record.type === 'resume' || record.type === 'run-finish')
        return;
      const calls = record.calls ?? [];
      // the model call that asked for this call (or for the composite call it is inside) came first
      if ('call' in record) {
        const [, index] = /#(\d+)\./.exec(record.call)!;
        expect(modelCall(record.step, calls, Number(index))).toBeLessThan(at);
      }
      if (record.type === 'model-call' && record.index > 0)
        expect(modelCall(record.step, calls, record.index - 1)).toBeLessThan(at);
      if (calls.length > 0) {
        const segments = record.step.split(':');
        const parentCall = calls.at(-1)!;
        const parentStep = [...segments.slice(0, calls.length - 1), parentCall.split('#')[0]].join(
          ':',
        );
        const [, index] = /#(\d+)\./.exec(parentCall)!;
        expect(modelCall(parentStep, calls.slice(0, -1), Number(index))).toBeLessThan(at);
      }
    });
  });
});
