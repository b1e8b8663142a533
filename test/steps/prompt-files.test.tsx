// A step's prompt given as content parts: its images and files reach the model's request as
// file parts (streaming and batch), the journal records them so a replay with the same image
// matches and one with another image is a journal-mismatch, events and the trace show them,
// and a file the model cannot take fails with a june: error naming its media type and model.
import { createOpenAI } from '@ai-sdk/openai';
import {
  Agent,
  JuneError,
  memoryJournalStore,
  run,
  Step,
  type StepPrompt,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';

/** A 1x1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const dataUrl = (bytes: Uint8Array) =>
  `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
/** The same PNG with one more byte at the end: another image. */
const otherPng = Buffer.concat([png, Buffer.from([0])]);

const looking = (image: string | Uint8Array): StepPrompt => [
  { type: 'text', text: 'What is in this picture?' },
  { type: 'file', mediaType: 'image/png', data: image },
];

function Look({ model, prompt }: { model: ReturnType<typeof scriptedModel>; prompt: StepPrompt }) {
  return (
    <Agent model={model}>
      <Step id="look" prompt={prompt} />
    </Agent>
  );
}

const script = () =>
  scriptedModel({
    $comment: 'Test fixture: one answer about a picture',
    steps: { look: [{ text: 'A single pixel.' }] },
  });

/** The bytes of the file part in the last user message of a call's prompt. */
function sentFile(prompt: unknown[]) {
  const last = prompt.at(-1) as { role: string; content: Array<Record<string, any>> };
  expect(last.role).toBe('user');
  expect(last.content[0]).toMatchObject({ type: 'text', text: 'What is in this picture?' });
  const file = last.content[1]!;
  expect(file).toMatchObject({ type: 'file', mediaType: 'image/png', data: { type: 'data' } });
  const data = file.data.data as Uint8Array | string;
  return typeof data === 'string' ? Buffer.from(data, 'base64') : Buffer.from(data);
}

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

describe('a step prompt with an image', () => {
  it.each([
    ['streaming', true, dataUrl(png)],
    ['batch', false, dataUrl(png)],
    ['batch, bytes', false, png],
  ] as const)('%s: the model gets the image as a file part', async (_mode, stream, image) => {
    const model = script();
    const handle = run(<Look model={model} prompt={looking(image)} />, { stream });
    const events: Array<Record<string, unknown>> = [];
    for await (const event of handle.events) events.push(event as never);
    const result = await handle.result;
    expect(result.output).toBe('A single pixel.');
    expect(model.calls).toHaveLength(1);
    expect(sentFile(model.calls[0]!.prompt).equals(png)).toBe(true);
    // events and the trace show the prompt's text and its image (as a data: URL)
    const start = events.find((event) => event.type === 'step-start')!;
    expect(start.prompt).toBe('What is in this picture?');
    expect(start.files).toEqual([{ mediaType: 'image/png', url: dataUrl(png) }]);
    const step = allNodes(result.trace.root).find((node) => node.kind === 'step')!;
    expect(step.files).toEqual([{ mediaType: 'image/png', url: dataUrl(png) }]);
  });

  it('a replay with the same image is exact; with another image it is a journal-mismatch', async () => {
    const journal = memoryJournalStore();
    const first = run(<Look model={script()} prompt={looking(dataUrl(png))} />, { journal });
    await first.result;
    const records = await journal.read(first.runId);
    const recorded = JSON.stringify(records.find((record) => record.type === 'model-call'));
    expect(recorded).toContain(png.toString('base64'));

    const same = script();
    const replayed = await run(<Look model={same} prompt={looking(dataUrl(png))} />, {
      replay: records,
    }).result;
    expect(replayed.output).toBe('A single pixel.');
    expect(same.calls).toEqual([]);

    const other = script();
    const error = await run(<Look model={other} prompt={looking(dataUrl(otherPng))} />, {
      replay: records,
    }).result.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(JuneError.isInstance(error) && error.code).toBe('journal-mismatch');
    expect(other.calls).toEqual([]);
  });

  it.each([true, false])(
    'stream %s: a file the provider does not take fails with model-file-unsupported',
    async (stream) => {
      // OpenAI's Responses API takes images and PDFs; it refuses a zip before any request
      const openai = createOpenAI({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' });
      const prompt: StepPrompt = [
        { type: 'text', text: 'Unpack this.' },
        { type: 'file', mediaType: 'application/zip', data: 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==' },
      ];
      const error = await run(
        <Agent model={openai('gpt-5-mini')}>
          <Step id="unpack" prompt={prompt} />
        </Agent>,
        { stream },
      ).result.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(JuneError.isInstance(error) && error.code).toBe('model-file-unsupported');
      const message = (error as Error).message;
      expect(message).toMatch(
        /^june: the model openai\.responses gpt-5-mini of step "unpack" cannot take the application\/zip file/,
      );
      expect((error as JuneError).details).toEqual({
        step: 'unpack',
        mediaTypes: ['application/zip'],
        provider: 'openai.responses',
        modelId: 'gpt-5-mini',
      });
    },
  );

  it("the run's redaction covers a prompt given as parts: its text and its files' URLs", async () => {
    const secret = 'tok_9f8e7d6c5b4a';
    const journal = memoryJournalStore();
    const prompt: StepPrompt = [
      { type: 'text', text: `My token is ${secret}, what is in this picture?` },
      { type: 'file', mediaType: 'image/png', data: `https://img.example/${secret}.png` },
    ];
    const model = script();
    // the model takes such URLs itself (nothing is fetched)
    (model as { supportedUrls: Record<string, RegExp[]> }).supportedUrls = {
      'image/*': [/^https:\/\/img\.example\//],
    };
    const handle = run(<Look model={model} prompt={prompt} />, {
      journal,
      redact: { values: [secret] },
    });
    const events: unknown[] = [];
    for await (const event of handle.events) events.push(event);
    expect((await handle.result).output).toBe('A single pixel.');
    // the model got the URL as it was given
    const file = (model.calls[0]!.prompt.at(-1)!.content as Array<Record<string, any>>)[1];
    expect(file).toMatchObject({ type: 'file', data: { type: 'url' } });
    expect(String(file!.data.url)).toBe(`https://img.example/${secret}.png`);
    const start = events.find((event) => (event as { type: string }).type === 'step-start');
    expect(start).toMatchObject({
      prompt: 'My token is [redacted], what is in this picture?',
      files: [{ mediaType: 'image/png', url: 'https://img.example/[redacted].png' }],
    });
    expect(JSON.stringify(await journal.read(handle.runId))).not.toContain(secret);
  });

  it('a prompt of other things than content parts is refused before the run', async () => {
    const model = script();
    const error = await run(
      <Look model={model} prompt={[{ type: 'video' }] as never} />,
    ).result.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(JuneError.isInstance(error) && error.code).toBe('step-prompt-invalid');
    expect(model.calls).toEqual([]);
  });
});
