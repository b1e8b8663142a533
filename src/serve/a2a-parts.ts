import { randomUUID } from 'node:crypto';
import type { Message, Part } from '@a2a-js/sdk';

/** A text part. */
export function textPart(value: string): Part {
  return {
    content: { $case: 'text', value },
    mediaType: 'text/plain',
    filename: '',
    metadata: undefined,
  };
}

/** A data part (JSON). */
export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
}

/** A message of the agent (`ROLE_AGENT`, whose value `role` is) on a task. */
export function agentMessage(
  role: number,
  taskId: string,
  contextId: string,
  parts: Part[],
): Message {
  return {
    messageId: randomUUID(),
    role,
    taskId,
    contextId,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  } as unknown as Message;
}

/**
 * What a client's message gives: its first data part, else its first text part as JSON;
 * undefined when it has neither (or the text is not JSON).
 */
export function dataOf(message: Message): unknown {
  for (const part of message.parts ?? [])
    if (part.content?.$case === 'data') return part.content.value as unknown;
  for (const part of message.parts ?? [])
    if (part.content?.$case === 'text') {
      try {
        return JSON.parse(part.content.value) as unknown;
      } catch {
        return undefined;
      }
    }
  return undefined;
}
