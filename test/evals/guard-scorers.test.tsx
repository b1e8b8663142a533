// june/evals reads the decisions of a run's guards from its trace, child runs included.
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Guard, JuneError, Step, Tool, run } from 'june';
import { guardDecisions, guardDecisionsIn, type WorkflowEvalOutput } from 'june/evals';
import { scriptedModel } from 'june/testing';

async function guardedRun() {
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    execute: async ({ env }) => `deployed to ${env}`,
  });
  const model = scriptedModel({
    steps: {
      ship: [
        { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
        { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
        { text: 'Deployed to staging.' },
      ],
    },
  });
  const result = await run(
    <Guard
      name="no-prod"
      on={['tool-input']}
      check={({ input }) =>
        (input as { env: string }).env === 'prod'
          ? { action: 'reject', reason: 'not prod' }
          : 'allow'
      }
    >
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Step id="ship" prompt="Deploy" />
      </Agent>
    </Guard>,
  ).result;
  return { caseId: 'ship', trace: result.trace } as WorkflowEvalOutput;
}

describe('guard decisions in evals', () => {
  it('guardDecisionsIn lists every decision with its step and tool', async () => {
    const output = await guardedRun();
    expect(guardDecisionsIn(output.trace)).toEqual([
      {
        guard: 'no-prod',
        declaration: '<Guard name="no-prod">',
        check: 'tool-input',
        action: 'reject',
        reason: 'not prod',
        step: 'ship',
        tool: 'deploy',
      },
      {
        guard: 'no-prod',
        declaration: '<Guard name="no-prod">',
        check: 'tool-input',
        action: 'allow',
        step: 'ship',
        tool: 'deploy',
      },
    ]);
  });

  it('guardDecisions scores the share of named counts that match', async () => {
    const output = await guardedRun();
    expect(guardDecisions({ reject: 1, trip: 0 }).scorer({ output }).score).toBe(1);
    expect(guardDecisions({ reject: 0, trip: 0 }).scorer({ output }).score).toBe(0.5);
    expect(guardDecisions({ allow: 1 }, { guard: 'other' }).scorer({ output }).score).toBe(0);
    // the case's expected.guardDecisions, when the scorer is given none
    expect(
      guardDecisions().scorer({ output, expected: { guardDecisions: { reject: 1 } } }).score,
    ).toBe(1);
    const invalid = (() => {
      try {
        guardDecisions().scorer({ output, expected: { guardDecisions: { refuse: 1 } } });
      } catch (error) {
        return error;
      }
    })();
    expect(JuneError.isInstance(invalid) && invalid.code).toBe('eval-expectation-invalid');
  });
});
