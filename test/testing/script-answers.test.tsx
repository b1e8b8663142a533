// A model script answers the approval requests of its own tool calls, offline: an approval
// with an edited input, an answer instead of the tool.
import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import { Agent, Step, Tool, run } from 'june';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import type { SourceInbox } from '../../src/approvals/approval-source.js';
import { toolCallsIn } from 'june/evals';
import { scriptAnswers, scriptedModel, type ModelScript } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/scripts/${name}`, import.meta.url));

function releaseTools() {
  const ran: string[] = [];
  return {
    ran,
    deploy: tool({
      inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
      needsApproval: true,
      execute: async ({ env }) => (ran.push(`deploy:${env}`), `deployed to ${env}`),
    }),
    publish: tool({
      inputSchema: z.object({ version: z.string() }),
      outputSchema: z.object({ url: z.string() }),
      needsApproval: true,
      execute: async ({ version }) => (ran.push(`publish:${version}`), { url: 'x' }),
    }),
  };
}

describe("a script's answers to approval requests", () => {
  it("edit a call and answer instead of a tool, offline, through the scripted model's source", async () => {
    const tools = releaseTools();
    const model = scriptedModel(fixture('edit-deploy.json'));
    const result = await run(
      <Agent model={model}>
        <Tool name="deploy" value={tools.deploy} />
        <Tool name="publish" value={tools.publish} />
        <Step id="release" prompt="Ship 1.2" />
      </Agent>,
      { approvalSources: [model.approvals] },
    ).result;
    model.assertAllTurnsUsed();
    expect(result.output).toBe('Deployed to staging; notes published.');
    expect(tools.ran).toEqual(['deploy:staging']);
    const [deploy] = toolCallsIn(result.trace, 'deploy');
    expect(deploy).toMatchObject({
      input: { env: 'prod' },
      editedInput: { env: 'staging' },
      approval: { status: 'approved', source: 'script', answeredBy: 'ana' },
    });
    const [publish] = toolCallsIn(result.trace, 'publish');
    expect(publish).toMatchObject({
      responded: true,
      output: { url: 'https://notes.example/by-hand' },
      approval: { status: 'responded', source: 'script' },
    });
    // the model's third call read the edited call and the answer given instead of publish
    const prompt = JSON.stringify(model.calls[2]!.prompt);
    expect(prompt).toContain('"input":{"env":"staging"}');
    expect(prompt).not.toContain('"env":"prod"');
    expect(prompt).toContain('https://notes.example/by-hand');
  });

  it('a script answer that edits a denial, or answers instead of an approved call, is refused with the JSON path', () => {
    expect(() =>
      scriptedModel({
        steps: {
          release: [
            {
              toolCalls: [
                { tool: 'deploy', answer: { approved: false, input: { env: 'staging' } } },
                { tool: 'publish', answer: { approved: true, output: 'done' } },
              ],
            },
          ],
        },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'script-invalid',
        message: expect.stringMatching(
          /\$\.steps\.release\[0\]\.toolCalls\[0\]\.answer\.input: an edited input comes with approved: true.*\$\.steps\.release\[0\]\.toolCalls\[1\]\.answer\.output: /,
        ),
      }),
    );
  });

  it("answers the calls of a script given without its first turns by the file's turn numbers, and leaves out the answers a journal holds", async () => {
    const script: ModelScript = {
      $comment: 'Test fixture: two deploys, each answered by the script; the first by a journal',
      steps: {
        release: [
          { toolCalls: [{ tool: 'deploy', input: { env: 'prod' }, answer: { approved: true } }] },
          {
            toolCalls: [
              {
                tool: 'deploy',
                input: { env: 'prod' },
                answer: { approved: true, input: { env: 'staging' } },
              },
            ],
          },
          { text: 'Deployed twice.' },
        ],
      },
    };
    // the script after the turn a journal answered, as june run --resume --script gives it
    const tools = releaseTools();
    const model = scriptedModel(
      { ...script, steps: { release: script.steps.release!.slice(1) } },
      { taken: { turns: { release: 1 } } },
    );
    const result = await run(
      <Agent model={model}>
        <Tool name="deploy" value={tools.deploy} />
        <Step id="release" prompt="Ship 1.2" />
      </Agent>,
      { approvalSources: [model.approvals] },
    ).result;
    expect(result.output).toBe('Deployed twice.');
    // the call of the file's second turn (call_release_2_1) got that turn's answer
    expect(tools.ran).toEqual(['deploy:staging']);

    // the whole script's answers, less the one the journal holds for the first call
    const given: unknown[] = [];
    const inbox = { answer: (_id: string, answer: unknown) => given.push(answer) };
    const source = scriptAnswers(script, {
      answered: [{ step: 'release', toolCallId: 'call_release_1_1' }],
    });
    const ask = (toolCallId: string) =>
      source.requested!(
        { id: toolCallId, step: 'release', toolCallId } as unknown as ApprovalRequest,
        inbox as unknown as SourceInbox,
      );
    ask('call_release_1_1');
    ask('call_release_2_1');
    expect(given).toEqual([{ approved: true, input: { env: 'staging' } }]);
  });
});
