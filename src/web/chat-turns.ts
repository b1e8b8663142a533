import { Step } from '../components/step.js';
import { createElement, type JuneNode } from '../elements/element.js';

/**
 * The conversation a chat page sends, as a workflow reads it: the text of each user message,
 * oldest first. `chatHandler` passes it to the workflow as its `chat` prop.
 */
export interface ChatInput {
  messages: string[];
}

/** Props of {@link ChatTurns}. */
export interface ChatTurnsProps {
  /** The conversation (the workflow's `chat` prop). */
  chat: ChatInput;
}

/**
 * The step id of the chat turn for user message `index` (0-based): `turn-1`, `turn-2`, ...
 *
 * @example
 * ```ts
 * chatTurnStep(0); // 'turn-1'
 * ```
 */
export function chatTurnStep(index: number): string {
  return `turn-${index + 1}`;
}

/**
 * A chat inside a workflow: one `<Step>` per user message of the conversation, in order,
 * each taking that message as its prompt (step ids `turn-1`, `turn-2`, ...). Place it in an
 * `<Agent>`: the steps share the agent's conversation, so each turn's model sees the turns
 * before it, and the agent's tools, approvals and composite tools work as in any step.
 *
 * With `chatHandler`, one chat is one run: each new user message continues the same run from
 * its journal, which answers the earlier turns (no model call, no tool runs again), and only
 * the new turn calls the model. Steps before `<ChatTurns>` run once, at the first message.
 *
 * @example
 * ```tsx
 * export default function Support({ chat }: { chat: ChatInput }) {
 *   return (
 *     <Agent model={openai('gpt-5-mini')} instructions="You help with orders.">
 *       <Tool name="refund" value={refund} />
 *       <ChatTurns chat={chat} />
 *     </Agent>
 *   );
 * }
 * ```
 */
export function ChatTurns({ chat }: ChatTurnsProps): JuneNode {
  return chat.messages.map((text, index) =>
    createElement(Step, { id: chatTurnStep(index), prompt: text }, chatTurnStep(index)),
  );
}
