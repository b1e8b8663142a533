import { JuneError } from '../errors/june-error.js';

/**
 * A chat request June cannot take (a malformed body, one over the handler's limits, a run
 * that does not exist or belongs to another chat, an answer to no pending approval, a run
 * that is busy), refused before anything runs. `status` is the HTTP status to answer with
 * (400, 403, 404, 409 or 413); the message starts with `june: `.
 */
export class ChatRequestError extends JuneError {
  constructor(
    code:
      | 'chat-request-invalid'
      | 'chat-request-too-large'
      | 'chat-run-missing'
      | 'chat-run-foreign'
      | 'chat-run-busy'
      | 'approval-unknown'
      | 'approval-answered'
      | 'approval-input-invalid'
      | 'approval-output-invalid'
      | 'approval-answer-invalid',
    message: string,
    readonly status: 400 | 403 | 404 | 409 | 413,
  ) {
    super(code, message, { blame: 'system' });
  }
}
