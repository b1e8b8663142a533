/**
 * A user's own approval source: a chat bot (Slack, Teams, Discord...) that posts each
 * approval request to a channel and answers with the button a person clicked. The bot is
 * anything with `post` and `onClick`; here a few lines adapt it to June's `ApprovalSource`.
 *
 *   run(<Release />, { approvalSources: [chatBotSource(bot)] });
 */
import type { ApprovalRequest, ApprovalSource } from 'june';

/** A click on a posted request's button: which request (`ref`), yes or no, and who clicked. */
export interface BotClick {
  ref: string;
  approved: boolean;
  user: string;
  reason?: string;
}

/** What the source needs of a chat bot: post a message with buttons, hear clicks. */
export interface ChatBot {
  post(text: string, ref: string): void;
  /** Calls `listener` on every click; returns what stops listening. */
  onClick(listener: (click: BotClick) => void): () => void;
  /** Says that a posted request needs no answer anymore (answered elsewhere, or withdrawn). */
  close?(ref: string, note: string): void;
}

/** The `slack` approval source over `bot`. */
export function chatBotSource(bot: ChatBot, name = 'slack'): ApprovalSource {
  const refOf = (request: ApprovalRequest) => request.key ?? request.id;
  return {
    name,
    // each click answers the request it was posted for, as the person who clicked
    connect: (inbox) =>
      bot.onClick((click) => {
        const result = inbox.answer(click.ref, {
          approved: click.approved,
          answeredBy: click.user,
          ...(click.reason !== undefined ? { reason: click.reason } : {}),
        });
        if (result.status !== 'applied') bot.close?.(click.ref, `not taken: ${result.status}`);
      }),
    requested: (request) =>
      bot.post(
        `${request.tool} in step ${request.step} wants ${JSON.stringify(request.input)}`,
        refOf(request),
      ),
    settled: (request, result) =>
      bot.close?.(
        refOf(request),
        result.status === 'applied' ? `answered through ${result.answer.source}` : result.status,
      ),
  };
}
