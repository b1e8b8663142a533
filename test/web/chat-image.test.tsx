// An image attached to a chat message (useChat's `file` part with a data: URL), sent over real
// HTTP on 127.0.0.1: it reaches the model's request as a file part of the user message, the
// run's journal answers it again when the chat goes on (and refuses another image in its
// place), and it counts against the request's byte limit like the rest of the body.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { Agent, memoryJournalStore } from 'june';
import { scriptedModel, type ModelScript } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput, type JuneUIMessage } from 'june/web';
import { afterEach, describe, expect, it } from 'vitest';
import { readMessage, textOf, userMessage } from './support.js';

/** A PNG header and `size - 8` bytes after it: an "image" of `size` bytes. */
function image(size: number, fill = 7): Buffer {
  const bytes = Buffer.alloc(size, fill);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

/** A user message with text and an attached image, as useChat sends it. */
function withImage(id: string, text: string, bytes: Buffer): JuneUIMessage {
  return {
    id,
    role: 'user',
    parts: [
      { type: 'text', text },
      { type: 'file', mediaType: 'image/png', filename: 'shot.png', url: dataUrl(bytes) },
    ],
  };
}

const servers: ServerType[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A chat endpoint on 127.0.0.1 over a scripted model; `post` sends a body to it. */
async function chatServer(steps: ModelScript['steps'], limits: Record<string, unknown> = {}) {
  const model = scriptedModel({ $comment: 'Test fixture: scripted turns for test/web', steps });
  function Assistant({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model} messages={chat.history}>
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  const journal = memoryJournalStore();
  const handler = chatHandler({ workflow: Assistant, journal, ...limits });
  const server = await new Promise<ServerType>((ready) => {
    const s = serve({ fetch: handler, hostname: '127.0.0.1', port: 0 }, () => ready(s));
  });
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  const post = (body: unknown) =>
    fetch(`http://127.0.0.1:${port}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { model, journal, post };
}

/** The last user message of a model call's prompt: its text part and the bytes of its file part. */
function lastUserMessage(prompt: unknown[]) {
  const last = prompt.at(-1) as { role: string; content: Array<Record<string, any>> };
  expect(last.role).toBe('user');
  const text = last.content.find((part) => part.type === 'text')?.text as string | undefined;
  const file = last.content.find((part) => part.type === 'file');
  const data = file?.data?.data as Uint8Array | string | undefined;
  const bytes =
    data === undefined
      ? undefined
      : typeof data === 'string'
        ? Buffer.from(data, 'base64')
        : Buffer.from(data);
  return { text, file, bytes };
}

describe('a chat message with an image', () => {
  it('reaches the model as a file part of the user message', async () => {
    const { model, post } = await chatServer({ 'turn-1': [{ text: 'A tiny picture.' }] });
    const picture = image(64);
    const response = await post({
      id: 'pic',
      messages: [withImage('u1', 'What is this?', picture)],
    });
    expect(response.status).toBe(200);
    expect(textOf(await readMessage(response))).toEqual(['A tiny picture.']);

    expect(model.calls).toHaveLength(1);
    const sent = lastUserMessage(model.calls[0]!.prompt);
    expect(sent.text).toBe('What is this?');
    expect(sent.file).toMatchObject({ type: 'file', mediaType: 'image/png', filename: 'shot.png' });
    expect(sent.bytes?.equals(picture)).toBe(true);
  });

  it('stays in the conversation: the next message, a run of its own, sees the image as context', async () => {
    const { model, post } = await chatServer({
      'turn-1': [{ text: 'A tiny picture.' }, { text: 'Still the same picture.' }],
    });
    const picture = image(64);
    const u1 = withImage('u1', 'What is this?', picture);
    const first = await readMessage(await post({ id: 'pic2', messages: [u1] }));
    const u2 = userMessage('u2', 'And now?');
    const second = await readMessage(await post({ id: 'pic2', messages: [u1, first, u2] }));
    expect(textOf(second)).toEqual(['Still the same picture.']);
    expect(second.metadata).toMatchObject({ runId: 'pic2-2' });
    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain('"mediaType":"image/png"');
  });

  it('counts against maxRequestBytes (1 MiB by default): a larger image is refused with 413', async () => {
    const { model, post } = await chatServer({ 'turn-1': [{ text: 'Seen.' }] });
    // 700 KiB of image is a data URL of about 933 KiB: it fits in 1 MiB
    const fits = image(700 * 1024);
    const ok = await post({ id: 'big', messages: [withImage('u1', 'Look', fits)] });
    expect(ok.status).toBe(200);
    await readMessage(ok);
    expect(lastUserMessage(model.calls[0]!.prompt).bytes?.equals(fits)).toBe(true);

    // 800 KiB of image is a data URL of about 1,067 KiB: over the limit
    const response = await post({
      id: 'bigger',
      messages: [withImage('u1', 'Look', image(800 * 1024))],
    });
    expect(response.status).toBe(413);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('chat-request-too-large');
    expect(error.message).toMatch(
      /^june: the chat request's body is \d+ bytes, more than the 1048576 bytes/,
    );
    expect(model.calls).toHaveLength(1);
  });

  it('a file part whose URL is neither data: nor http(s) is refused with 400', async () => {
    const { model, post } = await chatServer({ 'turn-1': [{ text: 'Seen.' }] });
    const message: JuneUIMessage = {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'text/plain', url: 'file:///etc/passwd' }],
    };
    const response = await post({ id: 'local', messages: [message] });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('chat-request-invalid');
    expect(error.message).toContain('a data: URL or an http(s) URL');
    expect(model.calls).toEqual([]);
  });
});
