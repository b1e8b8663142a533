// June's eval parts fit evalite's own types: a workflow task, a dataset, June's scorers and
// columns go into evalite(name, { data, task, scorers, columns }) as they are.
import type { Evalite } from 'evalite';
import { describe, expectTypeOf, it } from 'vitest';
import {
  approvalsAsked,
  juneColumns,
  loadDataset,
  noErrors,
  toolsCalled,
  workflowTask,
  type EvalCaseInput,
  type JuneScorer,
  type WorkflowEvalOutput,
} from 'june/evals';
import type { Component } from '../../src/elements/element.js';

declare const Release: Component<{ version: string }>;

type Props = { version: string };
type Expected = { version: string; toolsCalled?: string[] };
type Opts = Evalite.RunnerOpts<EvalCaseInput<Props>, WorkflowEvalOutput<string>, Expected>;

describe('june/evals with evalite', () => {
  it("gives evalite's RunnerOpts their data, task, scorers and columns", () => {
    const opts = {
      data: () => loadDataset<Props, Expected>('cases.jsonl'),
      task: workflowTask<string>(Release),
      scorers: [toolsCalled(['deploy']), approvalsAsked(), noErrors()],
      columns: juneColumns(),
    } satisfies Opts;
    expectTypeOf(opts.scorers).items.toEqualTypeOf<JuneScorer>();
  });

  it("types a scorer's output as the workflow's eval output", () => {
    const own: JuneScorer = {
      name: 'answer',
      description: 'names the version',
      scorer: ({ output }) => {
        expectTypeOf(output.answer).toEqualTypeOf<string>();
        expectTypeOf(output.studioUrl).toEqualTypeOf<string | undefined>();
        return { score: output.answer.includes('1.2') ? 1 : 0 };
      },
    };
    expectTypeOf(own).toExtend<Evalite.ScorerOpts<EvalCaseInput, WorkflowEvalOutput, unknown>>();
  });
});
