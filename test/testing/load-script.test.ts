import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, Output, stepCountIs, tool } from 'ai';
import { loadScript, scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/scripts/${name}`, import.meta.url));

describe('loadScript', () => {
  it('reads and validates a script file', () => {
    const script = loadScript(fixture('release.json'));
    expect(Object.keys(script.steps)).toEqual(['release', 'release:notes']);
    expect(script.steps.release![0]!.toolCalls).toEqual([
      { tool: 'readFile', input: { path: 'CHANGELOG.md' } },
    ]);
  });

  it('names the file and the JSON path of a bad field', () => {
    const path = fixture('bad-tool-call.json');
    expect(() => loadScript(path)).toThrow(
      expect.objectContaining({
        name: 'WorkflowError',
        code: 'script-invalid',
        message:
          `june: the model script ${path} is invalid: ` +
          '$.steps.release[1].toolCalls[0].tool: missing (expected string); ' +
          '$.steps.release[1].toolCalls[0].name: unknown field. Fix the script (its format is in docs/offline-scripts.md).',
      }),
    );
  });

  it('names the file when it is not JSON', () => {
    const path = fixture('not-json.json');
    expect(() => loadScript(path)).toThrow(
      expect.objectContaining({
        code: 'script-invalid',
        message: expect.stringMatching(
          /^june: the model script .*not-json\.json is not valid JSON: /,
        ),
      }),
    );
  });

  it('says when the file cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'june-script-'));
    try {
      const path = join(dir, 'missing.json');
      expect(() => loadScript(path)).toThrow(
        expect.objectContaining({
          code: 'script-unreadable',
          message: expect.stringContaining(`cannot read the model script ${path}`),
        }),
      );
      writeFileSync(path, JSON.stringify({ steps: { s: [{ text: 'now it exists' }] } }));
      expect(loadScript(path).steps.s).toEqual([{ text: 'now it exists' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scriptedModel from a file', () => {
  it("runs the fixture's turns, names the model after the file, and reports the turns left", async () => {
    const model = scriptedModel(fixture('release.json'));
    const ran: string[] = [];
    const tools = {
      readFile: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => (ran.push(path), '# Changelog'),
      }),
      deploy: tool({
        inputSchema: z.object({ env: z.string() }),
        execute: async ({ env }) => (ran.push(env), 'ok'),
      }),
    };
    const result = await generateText({
      model,
      tools,
      prompt: 'Release',
      stopWhen: stepCountIs(5),
      providerOptions: { june: { step: 'release' } },
    });
    expect(result.text).toBe('Deployed to staging.');
    expect(ran).toEqual(['CHANGELOG.md', 'staging']);
    expect(result.steps[1]!.usage).toMatchObject({ inputTokens: 900, outputTokens: 12 });
    expect(result.response.modelId).toBe('release');
    expect(() => model.assertAllTurnsUsed()).toThrow(
      expect.objectContaining({
        message:
          `june: the model script ${fixture('release.json')} has 1 turn that never ran: step "release:notes" turn 1. ` +
          'Remove it from the script, or find why the workflow stopped before it.',
      }),
    );

    const notes = await generateText({
      model,
      prompt: 'Notes',
      output: Output.object({
        schema: z.object({ version: z.string(), highlights: z.array(z.string()) }),
      }),
      providerOptions: { june: { step: 'release:notes' } },
    });
    expect(notes.output.highlights).toEqual(['faster builds', 'new CLI']);
    model.assertAllTurnsUsed();
  });

  it('names the file in errors raised during a run', async () => {
    const model = scriptedModel(fixture('release.json'));
    await expect(
      generateText({ model, prompt: 'x', providerOptions: { june: { step: 'ship' } } }),
    ).rejects.toThrow(
      `june: the model script ${fixture('release.json')} has no turns for step "ship"`,
    );
  });
});
