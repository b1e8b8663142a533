import { Step, type StepPrompt } from '../components/step.js';
import { createElement, type JuneNode } from '../elements/element.js';

/**
 * A message of a chat's context ({@link ChatInput.history}): an AI SDK `ModelMessage` with
 * text content; a user message that carried files has content parts instead, as a turn does
 * (a `text` part, then a `file` part per file).
 */
export type ChatHistoryMessage =
  { role: 'user'; content: StepPrompt } | { role: 'assistant'; content: string };

/**
 * A chat as a workflow reads it: `chatHandler` passes it to the workflow as its `chat` prop.
 * A request adds at most one turn, however many messages it carries (see `chatHandler`).
 */
export interface ChatInput {
  /**
   * The run's chat turns, oldest first: each user message the run has taken as a turn (its
   * journal answers those again), then the new one. `<ChatTurns>` makes one step of each. A
   * turn is its text, or, when its message carried files (`useChat`'s `file` parts, such as
   * an attached image), content parts: one `text` part with the text, then a `file` part
   * per file, its `data` the URL the page sent (a data: URL, or an http(s) URL).
   */
  messages: StepPrompt[];
  /**
   * What the page sent before the run's turn (the conversation so far: each user message is
   * a run of its own): user and assistant text, with the files user messages carried, oldest
   * first, context only, never a step. Pass it as the agent's `messages` for the model to see it
   * (`<Agent messages={chat.history}>`). Empty for a chat that began on this server.
   */
  history?: ChatHistoryMessage[];
  /** The chat's id (`useChat`'s `id`): the run belongs to this chat, and only it can continue the run. */
  id?: string;
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
 * The 0-based index of a chat turn's step id (`turn-3` is 2), or `undefined` for any other step.
 *
 * @example
 * ```ts
 * chatTurnIndex('turn-3'); // 2
 * ```
 */
export function chatTurnIndex(step: string): number | undefined {
  const match = /^turn-([1-9][0-9]{0,8})$/.exec(step);
  return match ? Number(match[1]) - 1 : undefined;
}

/**
 * A chat inside a workflow: one `<Step>` per turn of the chat (`chat.messages`), in order,
 * each taking that message (its text and files) as its prompt (step ids `turn-1`, `turn-2`, ...). Place it in an
 * `<Agent>`: the steps share the agent's conversation, so each turn's model sees the turns
 * before it, and the agent's tools, approvals and composite tools work as in any step.
 *
 * With `chatHandler`, each user message is a run of its own whose one turn is the new
 * message (`turn-1`); the conversation before it is `chat.history`, for the agent's
 * `messages`, never a turn. Steps before and after `<ChatTurns>` run in every message's run.
 *
 * @example
 * ```tsx
 * export default function Support({ chat }: { chat: ChatInput }) {
 *   return (
 *     <Agent model={openai('gpt-5-mini')} instructions="You help with orders." messages={chat.history}>
 *       <Tool name="refund" value={refund} />
 *       <ChatTurns chat={chat} />
 *     </Agent>
 *   );
 * }
 * ```
 */
export function ChatTurns({ chat }: ChatTurnsProps): JuneNode {
  return chat.messages.map((prompt, index) =>
    createElement(Step, { id: chatTurnStep(index), prompt }, chatTurnStep(index)),
  );
}
