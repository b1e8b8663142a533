/**
 * A user's own approval source: a chat bot (Slack, Teams, Discord...) that posts each
 * approval request to a channel and answers with the button a person clicked. The bot is
 * anything with `post` and `onClick`; here a few lines adapt it to June's `ApprovalSource`.
 *
 *   run(<Release />, { approvalSources: [chatBotSource(bot)] });
 */
import type { ApprovalRequest, ApprovalSource, GivenAnswer } from 'june';

/**
 * A click on a posted request's button: which request (`ref`), yes or no, and who clicked.
 * The bot's "Edit" form gives `input` (run the call with it instead of the model's), its
 * "Answer instead" form `answer` (the tool does not run; the model reads this as its result).
 */
export interface BotClick {
  ref: string;
  approved: boolean;
  user: string;
  reason?: string;
  input?: unknown;
  answer?: unknown;
}

/** What the source needs of a chat bot: post a message with buttons, hear clicks. */
export interface ChatBot {
  post(text: string, ref: string): void;
  /** Calls `listener` on every click; returns what stops listening. */
  onClick(listener: (click: BotClick) => void): () => void;
  /** Says that a posted request needs no answer anymore (answered elsewhere, or withdrawn). */
  close?(ref: string, note: string): void;
  /** Tells the person who clicked why their answer was not taken (the request still waits). */
  reply?(ref: string, user: string, text: string): void;
}

/** The `slack` approval source over `bot`. */
export function chatBotSource(bot: ChatBot, name = 'slack'): ApprovalSource {
  const refOf = (request: ApprovalRequest) => request.key ?? request.id;
  return {
    name,
    // each click answers the request it was posted for, as the person who clicked
    connect: (inbox) =>
      bot.onClick((click) => {
        try {
          const result = inbox.answer(click.ref, decisionOf(click));
          if (result.status !== 'applied') bot.close?.(click.ref, `not taken: ${result.status}`);
        } catch (error) {
          // an edit or an answer the tool's schema refuses: nothing changed, the request waits
          bot.reply?.(click.ref, click.user, (error as Error).message);
        }
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

/** What a click answers: approve (with the edited input), deny (with a reason), or answer instead of the tool. */
function decisionOf(click: BotClick): GivenAnswer {
  const who = { answeredBy: click.user };
  if (click.answer !== undefined) return { approved: false, output: click.answer, ...who };
  if (click.input !== undefined) return { approved: true, input: click.input, ...who };
  return {
    approved: click.approved,
    ...who,
    ...(click.reason !== undefined ? { reason: click.reason } : {}),
  };
}
