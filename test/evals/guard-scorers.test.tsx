// june/evals reads the decisions of a run's guards from its trace, child runs included.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Guard, JuneError, Step, Tool, run } from 'june';
import {
  guardDecisions,
  guardDecisionsIn,
  workflowTask,
  type WorkflowEvalOutput,
} from 'june/evals';
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

describe('an eval case of a guarded workflow', () => {
  it("answers a guard's escalation by the case's approve (a case never waits for a person), and scores it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'june-evals-guards-'));
    try {
      const script = join(dir, 'case.script.json');
      writeFileSync(
        script,
        JSON.stringify({
          $comment: 'Test fixture: the model deploys to prod, which the guard escalates',
          steps: {
            ship: [
              { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
              { text: 'Deployed.' },
            ],
          },
        }),
      );
      const deploy = tool({
        inputSchema: z.object({ env: z.string() }),
        execute: async ({ env }) => `deployed to ${env}`,
      });
      function Guarded() {
        return (
          <Guard
            name="no-prod"
            on={['tool-input']}
            check={() => ({ action: 'escalate', reason: 'prod needs a person' })}
          >
            <Agent model={scriptedModel({ steps: {} })}>
              <Tool name="deploy" value={deploy} />
              <Step id="ship" prompt="Deploy" />
            </Agent>
          </Guard>
        );
      }
      const task = workflowTask(Guarded, { runsDir: dir, journal: false, studioUrl: false });
      const output = await task({ id: 'ship', script, approve: 'none' });
      expect(output.status).toBe('succeeded');
      expect(guardDecisions({ escalate: 1 }).scorer({ output }).score).toBe(1);
      const call = guardDecisionsIn(output.trace)[0]!;
      expect(call).toMatchObject({ guard: 'no-prod', action: 'escalate', tool: 'deploy' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
