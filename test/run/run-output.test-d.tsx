// What run()'s result.output is typed as, from the workflow where it can be told: the schema
// or AI SDK Output of its only step (or of a defineAgent), a picker function, and the
// fallback, checked by TypeScript (vitest's typecheck mode).
import { Output } from 'ai';
import { Agent, defineAgent, run, Step, type RunHandle, type RunOutput, type RunResult } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';

const model = scriptedModel({ steps: {} });
const verdict = z.object({ ship: z.boolean(), reasons: z.array(z.string()) });
type Verdict = { ship: boolean; reasons: string[] };
const verdictOutput = Output.object({ schema: verdict });

function Review() {
  return (
    <Agent model={model}>
      <Step id="review" prompt="Review the change" output={verdictOutput} />
    </Agent>
  );
}

function Release() {
  return (
    <Agent model={model}>
      <Step id="plan" prompt="Plan the release" />
      <Step id="review" prompt="Review the plan" output={verdictOutput} />
    </Agent>
  );
}

describe('run(): the type of result.output', () => {
  test("a single step's zod schema types the output", () => {
    const handle = run(<Review />, { output: verdict });
    expectTypeOf(handle).toEqualTypeOf<RunHandle<Verdict>>();
    expectTypeOf(handle.result).resolves.toHaveProperty('output').toEqualTypeOf<Verdict>();
  });

  test("the single step's AI SDK Output types it too (the same object the step is given)", () => {
    expectTypeOf(run(<Review />, { output: verdictOutput }).result).resolves.toEqualTypeOf<
      RunResult<Verdict>
    >();
    expectTypeOf(run(Review, { output: Output.text() })).toEqualTypeOf<RunHandle<string>>();
    expectTypeOf(run(Review, { output: Output.array({ element: verdict }) })).toEqualTypeOf<
      RunHandle<Verdict[]>
    >();
  });

  test("defineAgent's output: the Output it is given types a run of that agent's step", () => {
    const Reviewer = defineAgent({
      name: 'reviewer',
      input: z.object({ change: z.string() }),
      model,
      prompt: ({ change }) => `Review ${change}`,
      output: verdictOutput,
    });
    function Gate() {
      return (
        <Agent model={model}>
          <Reviewer />
          <Step id="gate" prompt="Have the reviewer check the change" output={verdictOutput} />
        </Agent>
      );
    }
    expectTypeOf(run(<Gate />, { output: verdictOutput })).toEqualTypeOf<RunHandle<Verdict>>();
  });

  test('several steps: a schema of the object of every step result, by step id', () => {
    const steps = z.object({ plan: z.string(), review: verdict });
    const { result } = run(<Release />, { output: steps });
    expectTypeOf(result).resolves.toHaveProperty('output').toEqualTypeOf<{
      plan: string;
      review: Verdict;
    }>();
  });

  test('a picker function types the output by what it returns', () => {
    const handle = run(<Release />, {
      output: ({ steps, usage }) => {
        expectTypeOf(steps).toEqualTypeOf<Record<string, unknown>>();
        expectTypeOf(usage.totalTokens).toEqualTypeOf<number | undefined>();
        return steps.review as Verdict;
      },
    });
    expectTypeOf(handle).toEqualTypeOf<RunHandle<Verdict>>();
    expectTypeOf(run(<Release />, { output: async () => 3 })).toEqualTypeOf<RunHandle<number>>();
  });

  test('the fallback: without output, unknown (the only step result, or the object of all)', () => {
    expectTypeOf(run(<Release />)).toEqualTypeOf<RunHandle<unknown>>();
    expectTypeOf(run(<Release />, { journal: false })).toEqualTypeOf<RunHandle<unknown>>();
    // an explicit type argument still names it without checking it
    expectTypeOf(run<{ plan: string }>(<Release />)).toEqualTypeOf<RunHandle<{ plan: string }>>();
    expectTypeOf<RunResult['steps']>().toEqualTypeOf<Record<string, unknown>>();
  });

  test('what output accepts', () => {
    expectTypeOf(verdict).toExtend<RunOutput<Verdict>>();
    expectTypeOf(verdictOutput).toExtend<RunOutput<Verdict>>();
    // @ts-expect-error a step id is not an output: pass ({ steps }) => steps.review
    run(<Review />, { output: 'review' });
    // @ts-expect-error the output's type follows from the schema: a verdict is not a string
    const wrong: RunHandle<string> = run(<Review />, { output: verdict });
    void wrong;
  });
});
