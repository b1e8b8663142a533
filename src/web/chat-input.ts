import type { FilePart, TextPart, UIMessage } from 'ai';
import type { StepPrompt } from '../components/step.js';
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
 * left out: the page does not give the model its instructions). A turn carries its messages'
 * text and files (`file` parts, such as an attached image: {@link turnPrompt}); so does
 * each user message of the history, whose assistant messages carry their text. Tool parts
 * are not carried.
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
    // a user message stays even when it has no text: it was a turn of the conversation
    if (message.role === 'user') history.push({ role: 'user', content: turnPrompt([message]) });
    else if (messageText(message) !== '')
      history.push({ role: 'assistant', content: messageText(message) });
  }
  const turnMessages = taken.map((turn) => turnPrompt(turn.map((i) => messages[i]!)));
  return { id: chatId, messages: turnMessages, history };
}

/**
 * A turn's prompt from its user messages: their texts joined by a blank line, or, when they
 * carry files, that text as a `text` part followed by one AI SDK `file` part per file, its
 * `data` the URL the page sent (a data: URL or an http(s) URL), in order.
 */
export function turnPrompt(messages: readonly UIMessage[]): StepPrompt {
  const text = messages.map(messageText).join('\n\n');
  const files: FilePart[] = messages.flatMap((message) =>
    message.parts.flatMap((part) =>
      part.type === 'file'
        ? [
            {
              type: 'file' as const,
              mediaType: part.mediaType,
              data: part.url,
              ...(part.filename !== undefined ? { filename: part.filename } : {}),
            },
          ]
        : [],
    ),
  );
  if (files.length === 0) return text;
  const textPart: TextPart[] = text === '' ? [] : [{ type: 'text', text }];
  return [...textPart, ...files];
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
