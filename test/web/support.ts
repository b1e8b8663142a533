// Helpers for the web tests: post a useChat request to a chat handler and read the answer as
// the browser does (server-sent events of UI message chunks, folded into one message).
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import type { ChatHandler, JuneUIMessage } from 'june/web';

/** A user message as useChat sends it. */
export function userMessage(id: string, text: string): JuneUIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** POSTs a chat request body. */
export function post(handler: ChatHandler, body: unknown): Promise<Response> {
  return handler(
    new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** The chunks of a UI message stream response, parsed from its server-sent events. */
export async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
}

/** Folds a response into the assistant message, continuing `message` as useChat does. */
export async function readMessage(
  response: Response,
  message?: JuneUIMessage,
): Promise<JuneUIMessage> {
  const chunks = await chunksOf(response);
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
  let last = message;
  for await (const next of readUIMessageStream<JuneUIMessage>({
    stream,
    ...(message ? { message: structuredClone(message) } : {}),
  }))
    last = next;
  return last!;
}

/** The message with the approval of tool part `type` answered, as addToolApprovalResponse does. */
export function answered(
  message: JuneUIMessage,
  type: string,
  approved: boolean,
  reason?: string,
): JuneUIMessage {
  return {
    ...message,
    parts: message.parts.map((part) => {
      if (part.type !== type || !('approval' in part) || part.state !== 'approval-requested')
        return part;
      return {
        ...part,
        state: 'approval-responded',
        approval: { id: part.approval.id, approved, ...(reason ? { reason } : {}) },
      } as unknown as typeof part;
    }),
  };
}

/** The tool part of a type in a message. */
export function toolPart(message: JuneUIMessage, type: string): Record<string, any> | undefined {
  return message.parts.find((part) => part.type === type) as Record<string, any> | undefined;
}

/** The text of a message's text parts. */
export function textOf(message: JuneUIMessage): string[] {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}
