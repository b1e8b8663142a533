// A workflow as an eval task: each case runs with its model script or recorded run, writes
// its trace where Studio reads it, and June's scorers read that trace.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, RequireApproval, Step, Tool, type Trace } from 'june';
import {
  approvalsAsked,
  childRuns,
  childRunsIn,
  denials,
  modelCallsIn,
  noErrors,
  stepsWithin,
  tokensWithin,
  toolCallsIn,
  toolsCalled,
  toolsNotCalled,
  workflowTask,
  type EvalCaseInput,
  type JuneScorer,
  type WorkflowEvalOutput,
} from 'june/evals';
import { scriptedModel } from 'june/testing';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'june-evals-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A model script in a file of its own (a case names its script by path). */
const scriptFile = (steps: Record<string, unknown[]>) => {
  const path = join(tempDir(), 'case.script.json');
  writeFileSync(path, JSON.stringify({ $comment: 'Test fixture', steps }));
  return path;
};

const deploy = tool({
  description: 'Deploy',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  needsApproval: true,
  execute: async ({ env }) => `Deployed to ${env}`,
});
const notify = tool({
  description: 'Tell the team',
  inputSchema: z.object({ text: z.string() }),
  execute: async () => 'sent',
});
const broken = tool({
  description: 'Always fails',
  inputSchema: z.object({}),
  execute: async (): Promise<string> => {
    throw new Error('the disk is full');
  },
});

/** Never called: every case answers from a script or a recording. */
const unusedModel = scriptedModel({ steps: {} });

function Release({ version }: { version: string }) {
  return (
    <Agent model={unusedModel}>
      <Tool name="deploy" value={deploy} />
      <Tool name="notify" value={notify} />
      <Tool name="broken" value={broken} />
      <Tool
        name="changelog"
        description="Summarize the changelog"
        input={z.object({ version: z.string() })}
      >
        {({ version: asked }) => (
          <Agent model={unusedModel}>
            <Step id="summary" prompt={`Summarize ${asked}`} />
          </Agent>
        )}
      </Tool>
      <RequireApproval>
        <Tool name="announce" value={notify} />
      </RequireApproval>
      <Step id="release" prompt={`Release ${version}`} />
    </Agent>
  );
}

const stagingScript = {
  release: [
    { toolCalls: [{ tool: 'changelog', input: { version: '1.2.1' } }] },
    { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
    { text: 'Deployed 1.2.1 to staging.' },
  ],
  'changelog:summary': [{ text: 'One fix.' }],
};

const score = (scorer: JuneScorer, output: WorkflowEvalOutput, expected?: unknown) =>
  scorer.scorer({ output, expected });

describe('workflowTask', () => {
  it('runs a case from its script, writes the trace where Studio reads it, and links the run', async () => {
    const runsDir = tempDir();
    const task = workflowTask(Release, { runsDir });
    const output = await task({
      id: 'patch',
      props: { version: '1.2.1' },
      script: scriptFile(stagingScript),
    });

    expect(output).toMatchObject({
      caseId: 'patch',
      status: 'succeeded',
      output: 'Deployed 1.2.1 to staging.',
      answer: 'Deployed 1.2.1 to staging.',
      model: 'script',
      traceFile: join(runsDir, `${output.runId}.json`),
      studioUrl: `http://127.0.0.1:4000/#/runs/${output.runId}`,
    });
    const file = JSON.parse(readFileSync(output.traceFile, 'utf8')) as Trace;
    expect(file.runId).toBe(output.runId);
    expect(file.status).toBe('succeeded');
    expect(output.trace.runId).toBe(output.runId);
    // the journal too, so the case can be replayed later
    expect(readFileSync(join(runsDir, output.runId, 'journal.jsonl'), 'utf8')).toContain(
      '"type":"journal"',
    );
  });

  it("redacts what evalite keeps of a case as the run's records: its input, the output, a rejection", async () => {
    const secret = 'evals-redact-secret-8080';
    const task = workflowTask(Release, { runsDir: tempDir(), redact: { values: [secret] } });
    const input: EvalCaseInput = {
      id: 'patch',
      props: { version: `1.2.1-${secret}` },
      script: scriptFile({
        ...stagingScript,
        release: [...stagingScript.release.slice(0, 2), { text: `Deployed with ${secret}.` }],
      }),
    };
    const output = await task(input);
    expect(output).toMatchObject({
      output: 'Deployed with [redacted].',
      answer: 'Deployed with [redacted].',
      steps: { release: 'Deployed with [redacted].' },
    });
    expect(JSON.stringify(output)).not.toContain(secret);
    // evalite writes the input out as JSON: redacted there, the real props for the run and the scorers
    expect(JSON.parse(JSON.stringify(input))).toEqual({
      ...input,
      props: { version: '1.2.1-[redacted]' },
    });
    expect(input.props).toEqual({ version: `1.2.1-${secret}` });

    const missing = join(tempDir(), `${secret}.script.json`);
    const error = await task({ id: 'gone', script: missing }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('[redacted].script.json');
    expect(`${(error as Error).message}${(error as Error).stack}`).not.toContain(secret);
  });

  it('reads the trace: tool calls with their step and approval, child runs, model calls', async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'patch',
      props: { version: '1.2.1' },
      script: scriptFile(stagingScript),
    });

    const calls = toolCallsIn(output.trace);
    expect(calls.map((call) => [call.tool, call.step, call.status])).toEqual([
      ['changelog', 'release', 'succeeded'],
      ['deploy', 'release', 'succeeded'],
    ]);
    expect(calls[1]!.approval).toMatchObject({ status: 'approved', automatic: true });
    expect(calls[0]!.approval).toBeUndefined();
    expect(toolCallsIn(output.trace, 'deploy')).toHaveLength(1);
    expect(childRunsIn(output.trace).map((child) => child.status)).toEqual(['succeeded']);
    // release: three rounds; the composite's child run: one
    expect(modelCallsIn(output.trace)).toHaveLength(4);
  });

  it('scores tools called and not called, approvals, child runs, tokens, steps and errors', async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'patch',
      props: { version: '1.2.1' },
      script: scriptFile(stagingScript),
    });

    expect(score(toolsCalled(['deploy', 'changelog']), output).score).toBe(1);
    expect(score(toolsCalled(['deploy', 'notify']), output)).toMatchObject({
      score: 0.5,
      metadata: { missing: ['notify'] },
    });
    expect(score(toolsNotCalled(['notify', 'broken']), output).score).toBe(1);
    expect(score(toolsNotCalled(['deploy', 'notify']), output)).toMatchObject({
      score: 0.5,
      metadata: { calledAnyway: ['deploy'] },
    });
    expect(score(approvalsAsked(['deploy']), output)).toMatchObject({
      score: 1,
      metadata: { calls: 1, asked: 1 },
    });
    // changelog never waits for approval: a call of it "ran without asking"
    expect(score(approvalsAsked(['changelog']), output).score).toBe(0);
    expect(score(denials(), output).score).toBe(1);
    expect(score(childRuns(1), output).score).toBe(1);
    expect(score(childRuns(0), output).score).toBe(0);
    expect(score(stepsWithin(4), output).score).toBe(1);
    expect(score(stepsWithin(2), output)).toMatchObject({ score: 0.5, metadata: { steps: 4 } });
    const tokens = output.usage.totalTokens!;
    expect(tokens).toBeGreaterThan(0);
    expect(score(tokensWithin(tokens), output).score).toBe(1);
    expect(score(tokensWithin(Math.floor(tokens / 2)), output).score).toBeCloseTo(0.5, 1);
    expect(score(noErrors(), output)).toMatchObject({ score: 1, metadata: { failures: [] } });
  });

  it("reads what to expect from the case's expected when a scorer is given nothing", async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'patch',
      props: { version: '1.2.1' },
      script: scriptFile(stagingScript),
    });
    const expected = {
      toolsCalled: ['deploy'],
      toolsNotCalled: ['notify'],
      approvalsAsked: ['deploy'],
      childRuns: 1,
      maxSteps: 3,
      maxTokens: 1_000_000,
    };

    expect(score(toolsCalled(), output, expected).score).toBe(1);
    expect(score(toolsNotCalled(), output, expected).score).toBe(1);
    expect(score(approvalsAsked(), output, expected).score).toBe(1);
    expect(score(childRuns(), output, expected).score).toBe(1);
    expect(score(stepsWithin(), output, expected).score).toBe(0.75);
    expect(score(tokensWithin(), output, expected).score).toBe(1);
    // a scorer's own argument wins over the case's
    expect(score(toolsCalled(['notify']), output, expected).score).toBe(0);
  });

  it('names the scorer, the field and the case when an expectation is missing or of the wrong kind', async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'patch',
      props: { version: '1.2.1' },
      script: scriptFile(stagingScript),
    });

    expect(() => score(toolsCalled(), output, { version: '1.2.1' })).toThrow(
      expect.objectContaining({
        code: 'eval-expectation-invalid',
        message: expect.stringMatching(
          /^june: the scorer "tools called" has nothing to check case "patch" against: give the case "expected": \{"toolsCalled": \.\.\.\}/,
        ),
      }),
    );
    expect(() => score(childRuns(), output, { childRuns: 'one' })).toThrow(
      expect.objectContaining({
        code: 'eval-expectation-invalid',
        message:
          'june: case "patch" expects childRuns "one", but the scorer "child runs" reads a whole number, 0 or more there. Fix the dataset line.',
      }),
    );
    // denials need no expectation: none, unless the case says
    expect(score(denials(), output, undefined).score).toBe(1);
  });

  it('answers approvals as the case says: approve none denies, and the denial scorers see it', async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'denied',
      props: { version: '1.2.1' },
      approve: 'none',
      script: scriptFile({
        release: [
          { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
          { text: 'The deploy was refused.' },
        ],
      }),
    });

    expect(output.status).toBe('succeeded');
    const [call] = toolCallsIn(output.trace, 'deploy');
    expect(call).toMatchObject({ status: 'denied', approval: { status: 'denied' } });
    expect(score(denials(), output)).toMatchObject({
      score: 0,
      metadata: { denied: [{ tool: 'deploy', step: 'release', input: { env: 'prod' } }] },
    });
    expect(score(denials(1), output).score).toBe(1);
    expect(score(denials(), output, { denials: 1 }).score).toBe(1);
    // asked, and refused: still asked
    expect(score(approvalsAsked(['deploy']), output).score).toBe(1);
  });

  it('asks the onApproval policy first, and the case answers what it leaves', async () => {
    const asked: string[] = [];
    const output = await workflowTask(Release, {
      runsDir: tempDir(),
      onApproval: (request) => {
        asked.push(request.tool);
        return request.tool === 'announce' ? false : undefined;
      },
    })({
      id: 'policy',
      props: { version: '1.2.1' },
      script: scriptFile({
        release: [
          {
            toolCalls: [
              { tool: 'announce', input: { text: '1.2.1 is out' } },
              { tool: 'deploy', input: { env: 'staging' } },
            ],
          },
          { text: 'Deployed; the announcement was refused.' },
        ],
      }),
    });

    expect(asked.sort()).toEqual(['announce', 'deploy']);
    expect(toolCallsIn(output.trace).map((call) => [call.tool, call.status])).toEqual([
      ['announce', 'denied'],
      ['deploy', 'succeeded'],
    ]);
    // <RequireApproval> counts as asking too
    expect(score(approvalsAsked(['announce', 'deploy']), output).score).toBe(1);
  });

  it('gives a failed run as an output to score, with its error, instead of failing the task', async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'outage',
      props: { version: '1.2.1' },
      script: scriptFile({ release: [{ error: 'the provider is down' }] }),
    });

    expect(output).toMatchObject({
      status: 'failed',
      output: undefined,
      answer: '',
      error: { code: 'scripted-model-error', message: 'june: the provider is down' },
    });
    expect(JSON.parse(readFileSync(output.traceFile, 'utf8'))).toMatchObject({
      runId: output.runId,
      status: 'failed',
    });
    expect(score(noErrors(), output)).toMatchObject({
      score: 0,
      metadata: { status: 'failed', error: { code: 'scripted-model-error' } },
    });
  });

  it('scores a run that succeeded with a failed tool call inside it as an error', async () => {
    const output = await workflowTask(Release, { runsDir: tempDir() })({
      id: 'full disk',
      props: { version: '1.2.1' },
      script: scriptFile({
        release: [{ toolCalls: [{ tool: 'broken' }] }, { text: 'The tool failed; stopping.' }],
      }),
    });

    expect(output.status).toBe('succeeded');
    expect(score(noErrors(), output)).toMatchObject({
      score: 0,
      metadata: {
        failures: [
          { kind: 'tool', name: 'broken', message: expect.stringContaining('the disk is full') },
        ],
      },
    });
  });

  it('runs a case from a recorded run: its props and answers come from the journal', async () => {
    const runsDir = tempDir();
    const task = workflowTask(Release, { runsDir });
    const recorded = await task({
      id: 'record',
      props: { version: '1.2.1' },
      script: scriptFile(stagingScript),
    });
    const replay = join(runsDir, recorded.runId, 'journal.jsonl');

    const input: EvalCaseInput = { id: 'replayed', replay };
    const replayed = await task(input);

    expect(replayed).toMatchObject({
      status: 'succeeded',
      model: 'replay',
      output: 'Deployed 1.2.1 to staging.',
    });
    expect(replayed.runId).not.toBe(recorded.runId);
    expect(toolCallsIn(replayed.trace).map((call) => call.tool)).toEqual(['changelog', 'deploy']);
    expect(score(approvalsAsked(['deploy']), replayed).score).toBe(1);
  });

  it('uses the given model for cases with neither script nor recording, and leaves out the link when asked', async () => {
    const model = scriptedModel({ steps: { release: [{ text: 'Nothing to release.' }] } });
    const output = await workflowTask(Release, {
      runsDir: tempDir(),
      model,
      studioUrl: false,
    })({ id: 'provider', props: { version: '0.0.1' } });

    expect(output).toMatchObject({ model: 'provider', output: 'Nothing to release.' });
    expect(output).not.toHaveProperty('studioUrl');
    model.assertAllTurnsUsed();
  });

  it('links to Studio wherever it serves', async () => {
    const output = await workflowTask(Release, {
      runsDir: tempDir(),
      studioUrl: 'http://localhost:4555/?token=abc',
    })({ id: 'patch', props: { version: '1.2.1' }, script: scriptFile(stagingScript) });

    expect(output.studioUrl).toBe(`http://localhost:4555/?token=abc#/runs/${output.runId}`);
  });

  it('rejects when a case cannot start: its script cannot be read', async () => {
    await expect(
      workflowTask(Release, { runsDir: tempDir() })({
        id: 'missing',
        props: { version: '1.2.1' },
        script: join(tempDir(), 'nope.json'),
      }),
    ).rejects.toMatchObject({ code: 'script-unreadable' });
  });
});
