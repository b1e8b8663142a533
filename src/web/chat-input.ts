import type { UIMessage } from 'ai';
import type { ChatHistoryMessage, ChatInput } from './chat-turns.js';

/**
 * The `chat` prop of a run from the messages a page sent: which user messages the run takes
 * as its turns, and which earlier messages are only context.
 *
 * A turn is a user message, or several in a row with no answer between them (a request that
 * failed, then another), their texts joined by a blank line. A request brings at most one new
 * turn, however long the conversation it carries: the run takes as turns the last
 * `recordedTurns` turns of the conversation (those its journal already answers, so they cost
 * no model call) and, when the request ends with a new user message, that one; answering
 * approvals, at least the last turn. Every message before the first of them is `history`:
 * user and assistant text, oldest first, which no step runs (a page's `system` messages are
 * left out: the page does not give the model its instructions). Text parts only; files and
 * tool parts are not carried.
 *
 * @param chatId the chat's id (`useChat`'s `id`), kept as `chat.id`
 * @param messages the messages the page sent, oldest first
 * @param recordedTurns how many turns the run has recorded (0 for a new run)
 * @param newUserMessage whether the last message is a new user message
 * @example
 * ```ts
 * // a new run from a page that sent a conversation: its last user message is the one turn
 * chatInput('c1', [user('a'), assistant('b'), user('c')], 0, true);
 * // { id: 'c1', messages: ['c'], history: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }
 * ```
 */
export function chatInput(
  chatId: string,
  messages: readonly UIMessage[],
  recordedTurns: number,
  newUserMessage: boolean,
): ChatInput {
  const turns = userTurns(messages);
  const wanted = newUserMessage ? recordedTurns + 1 : Math.max(recordedTurns, 1);
  const taken = turns.slice(Math.max(turns.length - wanted, 0));
  const firstTurn = taken[0]?.[0] ?? messages.length;
  const history: ChatHistoryMessage[] = [];
  for (const message of messages.slice(0, firstTurn)) {
    if (message.role === 'system') continue;
    const content = messageText(message);
    // a user message stays even when it has no text: it was a turn of the conversation
    if (content !== '' || message.role === 'user') history.push({ role: message.role, content });
  }
  const texts = taken.map((turn) => turn.map((i) => messageText(messages[i]!)).join('\n\n'));
  return { id: chatId, messages: texts, history };
}

/** The conversation's user turns: the indexes of each run of user messages with no assistant message between them. */
function userTurns(messages: readonly UIMessage[]): number[][] {
  const turns: number[][] = [];
  let open = false;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') open = false;
    if (message.role !== 'user') return;
    if (open) turns.at(-1)!.push(index);
    else turns.push([index]);
    open = true;
  });
  return turns;
}

/** The text of a message's text parts, joined by new lines. */
export function messageText(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
