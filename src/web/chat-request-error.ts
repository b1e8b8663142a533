import { JuneError } from '../errors/june-error.js';

/**
 * A chat request June cannot take (a malformed body, a run that does not exist, an answer
 * to no pending approval, a run that is busy), refused before anything runs. `status` is
 * the HTTP status to answer with (400, 404 or 409); the message starts with `june: `.
 */
export class ChatRequestError extends JuneError {
  constructor(
    code:
      | 'chat-request-invalid'
      | 'chat-run-missing'
      | 'chat-run-busy'
      | 'approval-unknown'
      | 'approval-answered',
    message: string,
    readonly status: 400 | 404 | 409,
  ) {
    super(code, message, { blame: 'system' });
  }
}
