import { createHash } from 'node:crypto';
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { stableJson } from '../json/stable-json.js';

/**
 * A model call's request as June records and compares it: plain JSON of the call options
 * without `abortSignal` and `headers`, object keys sorted, bytes as base64, `undefined`
 * dropped. Two calls that ask the model the same thing give the same request.
 *
 * File data is written the way June 0.1 recorded it (AI SDK 6, provider specification v3):
 * a file part's data as its bytes or URL, and a file in a tool result as `file-data`,
 * `file-url` or `file-id`. So the request of a call, and its hash, do not depend on the
 * provider specification, and journals recorded before still match.
 *
 * @example
 * ```ts
 * const request = modelRequestOf(params); // { prompt: [...], providerOptions: { june: { step: 'release' } }, tools: [...] }
 * ```
 */
export function modelRequestOf(params: LanguageModelV4CallOptions): unknown {
  const { abortSignal: _signal, headers: _headers, ...rest } = params;
  return JSON.parse(stableJson({ ...rest, prompt: promptAsRecorded(rest.prompt) }));
}

/**
 * The SHA-256 of a request from {@link modelRequestOf}, as hex.
 *
 * @example
 * ```ts
 * hashModelRequest(modelRequestOf(params)); // '9f2c…'
 * ```
 */
export function hashModelRequest(request: unknown): string {
  return createHash('sha256').update(stableJson(request)).digest('hex');
}

type Part = Exclude<LanguageModelV4Prompt[number]['content'], string>[number];

/** The prompt with its file data in the recorded form (the AI SDK's own v4 to v3 mapping). */
function promptAsRecorded(prompt: LanguageModelV4Prompt): unknown {
  return prompt.map((message) =>
    message.role === 'system'
      ? message
      : { ...message, content: (message.content as Part[]).map(partAsRecorded) },
  );
}

function partAsRecorded(part: Part): unknown {
  if (part.type === 'file') return { ...part, data: fileData(part.data) };
  if (part.type !== 'tool-result' || part.output.type !== 'content') return part;
  return {
    ...part,
    output: { ...part.output, value: part.output.value.map(contentAsRecorded) },
  };
}

function fileData(data: { type: string; data?: unknown; url?: unknown }): unknown {
  if (data.type === 'data') return data.data;
  if (data.type === 'url') return data.url;
  return data;
}

type ContentPart = Extract<
  Extract<Part, { type: 'tool-result' }>['output'],
  { type: 'content' }
>['value'][number];

function contentAsRecorded(part: ContentPart): unknown {
  if (part.type !== 'file') return part;
  const common = { providerOptions: part.providerOptions };
  const data = part.data as { type: string; data?: unknown; url?: URL; reference?: unknown };
  if (data.type === 'data')
    return {
      type: 'file-data',
      data:
        typeof data.data === 'string'
          ? data.data
          : Buffer.from(data.data as Uint8Array).toString('base64'),
      mediaType: part.mediaType,
      filename: (part as { filename?: string }).filename,
      ...common,
    };
  if (data.type === 'url') return { type: 'file-url', url: String(data.url), ...common };
  if (data.type === 'reference') return { type: 'file-id', fileId: data.reference, ...common };
  return part;
}
