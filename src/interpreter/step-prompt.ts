import type { StepPrompt } from '../components/step.js';
import type { PromptFile } from '../trace/trace-node.js';

type PromptPart = Exclude<StepPrompt, string>[number];

/**
 * Whether `value` is a step prompt: a string, or an array of the AI SDK's user content parts
 * (`text` with a string `text`, `image` with an `image`, `file` with `data` and a string
 * `mediaType`).
 */
export function isStepPrompt(value: unknown): value is StepPrompt {
  if (typeof value === 'string') return true;
  return Array.isArray(value) && value.every(isPromptPart);
}

function isPromptPart(part: unknown): boolean {
  if (typeof part !== 'object' || part === null) return false;
  const { type } = part as { type?: unknown };
  if (type === 'text') return typeof (part as { text?: unknown }).text === 'string';
  if (type === 'image') return (part as { image?: unknown }).image != null;
  if (type === 'file')
    return (
      (part as { data?: unknown }).data != null &&
      typeof (part as { mediaType?: unknown }).mediaType === 'string'
    );
  return false;
}

/** A prompt as the `step-start` event shows it: its text, and its files when it has any. */
export function promptShown(prompt: StepPrompt): { prompt: string; files?: PromptFile[] } {
  const files = promptFiles(prompt);
  return { prompt: promptText(prompt), ...(files ? { files } : {}) };
}

/** The text of a prompt: the string, or its text parts joined by new lines. */
export function promptText(prompt: StepPrompt): string {
  if (typeof prompt === 'string') return prompt;
  return prompt.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * The files and images of a prompt given as parts, as events show them (bytes and base64 as
 * a data: URL); `undefined` when it has none.
 */
export function promptFiles(prompt: StepPrompt): PromptFile[] | undefined {
  if (typeof prompt === 'string') return undefined;
  const files = prompt.flatMap((part) => (part.type === 'text' ? [] : [shownFile(part)]));
  return files.length > 0 ? files : undefined;
}

function shownFile(part: Exclude<PromptPart, { type: 'text' }>): PromptFile {
  const mediaType = part.mediaType ?? 'image';
  const data = part.type === 'image' ? part.image : part.data;
  const url = fileUrl(data, mediaType);
  const filename = part.type === 'file' ? part.filename : undefined;
  return {
    mediaType,
    ...(url !== undefined ? { url } : {}),
    ...(filename !== undefined ? { filename } : {}),
  };
}

/** A data: URL or the URL given; bytes and base64 become a data: URL; a provider reference has none. */
function fileUrl(data: unknown, mediaType: string): string | undefined {
  if (data instanceof URL) return data.href;
  if (typeof data === 'string')
    return /^(data|https?):/i.test(data) ? data : `data:${mediaType};base64,${data}`;
  if (data instanceof Uint8Array || data instanceof ArrayBuffer)
    return `data:${mediaType};base64,${Buffer.from(data as Uint8Array).toString('base64')}`;
  if (typeof data === 'object' && data !== null && 'type' in data) {
    const tagged = data as { type: string; data?: unknown; url?: unknown };
    if (tagged.type === 'data') return fileUrl(tagged.data, mediaType);
    if (tagged.type === 'url') return fileUrl(tagged.url, mediaType);
  }
  return undefined;
}
