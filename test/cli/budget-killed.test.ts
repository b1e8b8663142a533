// One `june run` of examples/budgets.tsx whose budget is spent inside the child run of a
// defined agent: the whole run waits for a person to allow more. The process is killed with
// SIGKILL at that wait; `june approve` answers the stopped run and resumes it: the model calls
// made before the wait are not made again, the rest are made once, and the answer is audited.
import { copyFileSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { JournalRecord, Trace, TraceNode } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../mcp/support.js';
import { june, onlyTrace, repoRoot, startJune, tempProject } from './cli-harness.js';

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
});
afterAll(() => project?.remove());

function journalOf(cwd: string, runId: string): JournalRecord[] {
  return readFileSync(join(cwd, '.june', 'runs', runId, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);
}

const recordsOf = <T extends JournalRecord['type']>(records: JournalRecord[], type: T) =>
  records.filter((record): record is Extract<JournalRecord, { type: T }> => record.type === type);

/** Every node of a trace, child runs of composite calls included. */
function allNodes(node: TraceNode): TraceNode[] {
  const child = (node.output as { trace?: Trace } | undefined)?.trace?.root;
  return [node, ...[...node.children, ...(child ? [child] : [])].flatMap(allNodes)];
}

/** The budget's request in the trace file of `cwd`, once it is written. */
function budgetRequest(cwd: string): TraceNode | undefined {
  try {
    return allNodes(onlyTrace(cwd).root).find((node) => node.name === 'june-budget');
  } catch {
    return undefined; // not written yet, or being written
  }
}

describe('june run: a budget spent in a child run, and a kill -9 at its wait', () => {
  it('june approve allows more for the stopped run, which goes on from the wait and makes each model call once', async () => {
    const cwd = project.folder('killed-at-budget');
    for (const name of ['budgets.tsx', 'budgets.script.json'])
      copyFileSync(join(repoRoot, 'examples', name), join(cwd, name));
    const running = startJune(
      ['run', 'budgets.tsx', '--script', 'budgets.script.json', '--approve', 'wait'],
      cwd,
    );
    const printed = (text: string) => () => running.output().stdout.includes(text);
    await waitUntil(
      printed(
        '? the budget "research" spent 1,550 tokens of 1,500 tokens; allow 1,500 tokens more?',
      ),
      'the budget to ask',
      30_000,
    );
    const runId = /· run (\S+)/.exec(running.output().stdout)![1]!;
    // june approve reads the wait from the trace file
    await waitUntil(
      () => budgetRequest(cwd)?.approval?.status === 'pending',
      'the trace to show the budget waiting',
      10_000,
    );
    process.kill(running.pid, 'SIGKILL');
    expect((await running.done).signal).toBe('SIGKILL');

    // before the wait: the writer's first call and the researcher's first, each made once
    const before = journalOf(cwd, runId);
    expect(recordsOf(before, 'model-call').map((call) => call.step)).toEqual([
      'report',
      'researcher:answer',
    ]);
    expect(before.at(-1)).toMatchObject({
      type: 'approval-request',
      tool: 'june-budget',
      budget: { name: 'research', spent: { tokens: 1550 }, cap: { tokens: 1500 } },
    });

    const allowed = await june(['approve', runId, '--all'], cwd);
    expect(allowed.stderr).toBe('');
    expect(allowed.stdout).toMatch(
      new RegExp(`^approved \\S+ of run ${runId}\nresumed run ${runId}\n$`),
    );
    const ended = () => {
      try {
        return onlyTrace(cwd).status === 'succeeded';
      } catch {
        return false; // being written
      }
    };
    await waitUntil(ended, 'the resumed run to end', 60_000);

    const journal = journalOf(cwd, runId);
    const resumeAt = journal.findIndex((record) => record.type === 'resume');
    expect(resumeAt).toBeGreaterThan(0);
    // after the resume: only the two calls that had not been made, once each; nobody asked again
    expect(recordsOf(journal.slice(resumeAt), 'model-call').map((call) => call.step)).toEqual([
      'researcher:answer',
      'report',
    ]);
    expect(recordsOf(journal.slice(resumeAt), 'approval-request')).toEqual([]);
    expect(recordsOf(journal, 'approval-answer')).toMatchObject([
      {
        call: 'answer#1~budget.0.0',
        approved: true,
        source: 'cli',
        answeredBy: userInfo().username,
      },
    ]);
    expect(
      recordsOf(journal, 'tool-call')
        .map((call) => call.tool)
        .sort(),
    ).toEqual(['researcher', 'search']);

    // the trace: the answer with who gave it, and the budget on the step, in the run's trace
    const trace = onlyTrace(cwd);
    expect(trace.runId).toBe(runId);
    expect(budgetRequest(cwd)?.approval).toMatchObject({
      status: 'approved',
      source: 'cli',
      answeredBy: userInfo().username,
      budget: { name: 'research', more: { tokens: 1500 } },
    });
    const step = allNodes(trace.root).find(
      (node) => node.kind === 'step' && node.name === 'answer',
    );
    expect(step?.budgets?.map((entry) => entry.action)).toEqual(['ask', 'allow']);
  }, 120_000);
});
