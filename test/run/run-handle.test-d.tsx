// The handle run() gives back, checked by TypeScript (vitest's typecheck mode).
import type { LanguageModelUsage } from 'ai';
import {
  Agent,
  run,
  Step,
  type AnsweredBy,
  type ApproveOptions,
  type ApprovalRequest,
  type ApprovalSource,
  type RunEvent,
  type RunHandle,
  type RunLogEvent,
  type RunResult,
  type Trace,
} from 'june';
import { describe, expectTypeOf, test } from 'vitest';

const workflow = <Agent model="openai/gpt-5-mini"><Step id="s" prompt="p" /></Agent>;

describe('run(): RunHandle', () => {
  test("the output type is run's type argument, unknown without one", () => {
    expectTypeOf(run(workflow)).toEqualTypeOf<RunHandle<unknown>>();
    const handle = run<{ ship: boolean }>(workflow);
    expectTypeOf(handle).toEqualTypeOf<RunHandle<{ ship: boolean }>>();
    expectTypeOf(handle.result).resolves.toEqualTypeOf<RunResult<{ ship: boolean }>>();
    expectTypeOf(handle.result).resolves.toHaveProperty('output').toEqualTypeOf<{
      ship: boolean;
    }>();
  });

  test('the result: step results by id, usage, trace', () => {
    expectTypeOf<RunResult['steps']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<RunResult['usage']>().toEqualTypeOf<LanguageModelUsage>();
    expectTypeOf<RunResult['trace']>().toEqualTypeOf<Trace>();
  });

  test('events, the log, approvals and control', () => {
    const handle = run(workflow);
    expectTypeOf(handle.runId).toEqualTypeOf<string>();
    // one vocabulary: the events are the log's (RunEvent is the deprecated name of RunLogEvent)
    expectTypeOf(handle.events).toEqualTypeOf<AsyncIterable<RunLogEvent>>();
    expectTypeOf(handle.events).toEqualTypeOf<AsyncIterable<RunEvent>>();
    expectTypeOf(handle.log).toEqualTypeOf<AsyncIterable<RunLogEvent>>();
    expectTypeOf(handle.pendingApprovals).toEqualTypeOf<ApprovalRequest[]>();
    expectTypeOf(handle.approve).toEqualTypeOf<(id: string, by?: ApproveOptions) => void>();
    expectTypeOf(handle.deny).toEqualTypeOf<
      (id: string, reason?: string, by?: AnsweredBy) => void
    >();
    expectTypeOf(handle.respond).toEqualTypeOf<
      (id: string, output: unknown, by?: AnsweredBy) => void
    >();
    expectTypeOf(handle.connect).parameter(0).toEqualTypeOf<ApprovalSource>();
    expectTypeOf(handle.abort).toEqualTypeOf<(reason?: string) => void>();
    expectTypeOf(handle.trace).returns.toEqualTypeOf<Trace>();
    // @ts-expect-error runId is read-only
    handle.runId = 'other';
  });
});
